import Foundation
import StrataStorage

/// The values objects had at a retained version.
///
/// When every later history entry keeps its old values (docs/HISTORY.md), the values are
/// exact: an object a later commit changed has, in the first such commit's before-image, the
/// row and lists it had at the version; the others still hold them. Otherwise only the
/// properties that no commit after the version changed are known (they still have their
/// value of the version); the others are shown by name only.
final class ValuesAtVersion {
    private let txn: StorageTransaction
    private let reader: CellReader
    /// The states at the version of the objects later commits changed, per class, from their
    /// before-images; nil when some later entry has none.
    private let pastStates: [String: [ObjectKey: PastState]]?
    /// What the commits after the version changed, per class; nil when they are not all
    /// retained.
    private let changedLater: [String: Later]?
    private var tables: [String: Table?] = [:]

    /// An object's state at the version, as the later before-images give it.
    private enum PastState {
        /// It did not exist (a later commit inserted it first).
        case absent
        /// Its row and lists as the first later images hold them; `final` once a later commit
        /// deleted it (images after that are of a newer object with its key).
        case image(ObjectImages.Object, final: Bool)
    }

    /// What later commits did to one class: emptied it, inserted or deleted objects (whose
    /// values of the version are then unknown), modified properties (a mask per object).
    private struct Later {
        let cleared: Bool
        let replaced: Set<ObjectKey>
        let modified: [ObjectKey: UInt64]
    }

    /// Reads `path` (newest snapshot) for the values of each of `versions`, runs `body`, and
    /// releases the snapshot.
    static func reading<T>(_ path: String, versions: [UInt64], _ body: ([ValuesAtVersion]) throws -> T) throws -> T {
        let file = try StorageFile.open(path: path, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let txn = try file.beginRead()
        defer { txn.abort() }
        return try body(try versions.map { try ValuesAtVersion(txn, version: $0) })
    }

    /// Folds the history after `version` (when all of it is retained) into the objects' past
    /// states, or what later commits changed.
    init(_ txn: StorageTransaction, version: UInt64) throws {
        self.txn = txn
        reader = CellReader(txn)
        guard let oldest = try txn.history.bounds().oldest, oldest <= version, version <= txn.version else {
            changedLater = nil
            pastStates = nil
            return
        }
        var entries: [HistoryEntry] = []
        try txn.history.forEach(after: version, newestFirst: false) { entries.append($0); return true }
        changedLater = NetChanges.fold(entries, schema: txn.schema).classes.mapValues { c in
            Later(cleared: c.cleared, replaced: Set(c.inserted).union(c.deleted), modified: c.modified)
        }
        pastStates = try Self.pastStates(entries)
    }

    /// The states at the version before `later` (oldest first), or nil when one of them has no
    /// before-images.
    private static func pastStates(_ later: [HistoryEntry]) throws -> [String: [ObjectKey: PastState]]? {
        var states: [String: [ObjectKey: PastState]] = [:]
        for entry in later {
            guard let old = try entry.oldValues(), old.isComplete else { return nil }
            for (name, objects) in old.classes {
                for (key, image) in objects {
                    switch states[name]?[key] {
                    case nil: states[name, default: [:]][key] = .image(image, final: false)
                    case .image(var known, final: false)?:
                        if known.row == nil { known.row = image.row }
                        known.lists.merge(image.lists) { first, _ in first }
                        states[name]![key] = .image(known, final: false)
                    default: break
                    }
                }
            }
            for (name, c) in entry.changes.classes {
                let deleted = c.cleared ? old.classes[name].map { Array($0.keys) } ?? [] : c.deleted
                for key in deleted {
                    if case .image(let known, final: false)? = states[name]?[key] { states[name]![key] = .image(known, final: true) }
                }
                for key in c.inserted where states[name]?[key] == nil { states[name, default: [:]][key] = .absent }
            }
        }
        return states
    }

    /// Whether the values are exact (every later entry keeps its old values).
    var isExact: Bool { pastStates != nil }

    /// The known values of the properties named `names` (every property when nil) of object
    /// `key` of class `className` at the version, in schema order; empty when none is known.
    func values(_ className: String, _ key: ObjectKey, _ names: [String]?) throws -> [(name: String, cell: Cell)] {
        guard let table = try table(className) else { return [] }
        if let pastStates {
            let properties = table.schema.properties.filter { names?.contains($0.name) ?? true }
            let cells: [Cell]?
            switch pastStates[className]?[key] {
            case .absent?: return []
            case .image(let image, _)?: cells = try reader.cells(table, key, properties, image: image)
            case nil: cells = try reader.cells(table, key, properties)
            }
            return cells.map { zip(properties.map(\.name), $0).map { ($0, $1) } } ?? []
        }
        guard let later = changedLater else { return [] }
        let changes = later[className]
        if let changes, changes.cleared || changes.replaced.contains(key) { return [] }
        let laterMask = changes?.modified[key] ?? 0
        let properties = table.schema.properties.filter { property in
            (names?.contains(property.name) ?? true) && laterMask & ClassChanges.bit(property.id) == 0
        }
        guard !properties.isEmpty, let cells = try reader.cells(table, key, properties) else { return [] }
        return zip(properties.map(\.name), cells).map { ($0, $1) }
    }

    /// The name of the primary-key property of class `className`, if it has one.
    func primaryKeyName(_ className: String) throws -> String? {
        try table(className)?.primaryKey?.name
    }

    /// The table of class `name`, opened once.
    private func table(_ name: String) throws -> Table? {
        if tables[name] == nil { tables[name] = try txn.table(name) }
        return tables[name] ?? nil
    }
}
