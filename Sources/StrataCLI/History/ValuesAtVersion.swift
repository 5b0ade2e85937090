import Foundation
import StrataStorage

/// The values objects had at a retained version, where the file still holds them.
///
/// History entries name the objects and properties a commit changed, not their values. A
/// property that no commit after version V changed still has its value of V in the newest
/// snapshot, so `show V` and `diff A V` can print it; the others are shown by name only.
final class ValuesAtVersion {
    private let txn: StorageTransaction
    private let reader: CellReader
    /// What the commits after the version changed, per class; nil when they are not all
    /// retained.
    private let changedLater: [String: Later]?
    private var tables: [String: Table?] = [:]

    /// What later commits did to one class: emptied it, inserted or deleted objects (whose
    /// values of the version are then unknown), modified properties (a mask per object).
    private struct Later {
        let cleared: Bool
        let replaced: Set<ObjectKey>
        let modified: [ObjectKey: UInt64]
    }

    /// Reads `path` (newest snapshot) for the values of `version`, runs `body`, and releases
    /// the snapshot.
    static func reading<T>(_ path: String, version: UInt64, _ body: (ValuesAtVersion) throws -> T) throws -> T {
        let file = try StorageFile.open(path: path, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let txn = try file.beginRead()
        defer { txn.abort() }
        return try body(try ValuesAtVersion(txn, version: version))
    }

    /// Folds the history after `version` (when all of it is retained) into what later
    /// commits changed.
    private init(_ txn: StorageTransaction, version: UInt64) throws {
        self.txn = txn
        reader = CellReader(txn)
        guard let oldest = try txn.history.bounds().oldest, oldest <= version, version <= txn.version else {
            changedLater = nil
            return
        }
        var entries: [HistoryEntry] = []
        try txn.history.forEach(after: version, newestFirst: false) { entries.append($0); return true }
        changedLater = NetChanges.fold(entries, schema: txn.schema).classes.mapValues { c in
            Later(cleared: c.cleared, replaced: Set(c.inserted).union(c.deleted), modified: c.modified)
        }
    }

    /// The known values of the properties named `names` (every property when nil) of object
    /// `key` of class `className` at the version, in schema order; empty when none is known.
    func values(_ className: String, _ key: ObjectKey, _ names: [String]?) throws -> [(name: String, cell: Cell)] {
        guard let later = changedLater, let table = try table(className) else { return [] }
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
