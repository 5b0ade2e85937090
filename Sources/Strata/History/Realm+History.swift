import Foundation
import StrataStorage

extension Realm {
    /// Strata: one commit as its history entry records it (see docs/HISTORY.md).
    ///
    /// Every commit that changes something stores one entry, in the same transaction as the
    /// data, so the history and the data never disagree. Entries older than the
    /// configuration's `historyRetention` are removed.
    ///
    /// Object changes name objects by `ObjectID` and properties by name. The entry also keeps
    /// the old values of what the commit changed (`Configuration.historyRecordsOldValues`),
    /// which `freeze(atVersion:)` reads to rebuild past versions.
    public struct HistoryEntry: Sendable, Hashable {
        /// The version this commit created (1 for the first commit of the file).
        public let version: UInt64
        /// When the commit happened (the committing machine's clock).
        public let date: Date
        /// The process id of the committing process.
        public let pid: Int32
        /// The name of the committing process.
        public let processName: String
        /// The text given to `write(withDescription:)`, if any.
        public let description: String?
        /// The changed classes, sorted by name; empty for a commit that changed no object
        /// (one that only stored classes, a migration, or a described empty write).
        public let classes: [ClassChanges]
        /// The bytes the file had in use at the previous version (version - 1), as recorded
        /// when this commit began: LMDB's pages in use times the page size. Nil for entries
        /// written before the history recorded it.
        public let bytesInUseBefore: Int?

        /// The changes of the class named `className`, or nil if it did not change.
        public subscript(className: String) -> ClassChanges? {
            classes.first { $0.className == className }
        }

        /// How a history entry names an object.
        public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
            /// The object's key in its class's table: stable while the object exists; for a
            /// class with a non-optional integer primary key it encodes that key.
            public let objectKey: UInt64
            /// The primary key, when the class has one and it is known: always for integer
            /// primary keys, and for other primary keys while the object still exists in the
            /// snapshot that read the history (a deleted object's string or UUID key is not
            /// recorded).
            public let primaryKey: PrimaryKey?

            /// The primary key if known, else `#` and the object key.
            public var description: String { primaryKey?.description ?? "#\(objectKey)" }
        }

        /// A primary-key value.
        public enum PrimaryKey: Sendable, Hashable, CustomStringConvertible {
            /// An integer key (of any width).
            case int(Int)
            /// A string key.
            case string(String)
            /// A UUID key.
            case uuid(UUID)
            /// An ObjectId key.
            case objectId(ObjectId)
            /// The nil value of an optional key.
            case null

            /// The value as text: the number, the string, the UUID, the ObjectId's 24 digits, or `nil`.
            public var description: String {
                switch self {
                case .int(let v): "\(v)"
                case .string(let v): v
                case .uuid(let v): v.uuidString
                case .objectId(let v): v.stringValue
                case .null: "nil"
                }
            }
        }

        /// An object whose properties changed, and which ones.
        public struct ModifiedObject: Sendable, Hashable {
            /// The object.
            public let object: ObjectID
            /// The names of the changed properties, in property-id order. A property removed
            /// from the schema since shows as `#` and its id; changes of properties with ids
            /// of 63 and above are recorded together, so every such property is listed.
            public let properties: [String]
        }

        /// What one commit (or a range of commits, for `changes(from:to:)`) did to one class.
        public struct ClassChanges: Sendable, Hashable {
            /// The class name.
            public let className: String
            /// Whether the class was emptied (`deleteAll`, or `delete` of all its objects as
            /// one step): every object that existed before is gone. `inserted` then lists
            /// the objects added after the clear.
            public let cleared: Bool
            /// Objects added, in object-key order.
            public let inserted: [ObjectID]
            /// Objects deleted one by one, in object-key order.
            public let deleted: [ObjectID]
            /// Objects that existed before and whose properties changed, in object-key order.
            /// An object inserted in the same commit is only listed as inserted.
            public let modified: [ModifiedObject]

            /// The names of every property modified on some object, in property-id order.
            public var modifiedProperties: [String] {
                var seen = Set<String>(), names: [String] = []
                for m in modified { for p in m.properties where seen.insert(p).inserted { names.append(p) } }
                return names
            }
        }
    }

    /// Strata: the retained history entries with a version above `since` (every retained
    /// entry when nil), newest first, at most `limit` of them. Reads this Realm's snapshot,
    /// so the newest entry is the one of `version`.
    public func history(since: UInt64? = nil, limit: Int? = nil) throws -> [HistoryEntry] {
        try history(since: since, limit: limit) { _ in true }
    }

    /// Strata: the history entry of `version`, or nil when it is not retained.
    public func historyEntry(version: UInt64) throws -> HistoryEntry? {
        core.confinement.check()
        return try translatingErrors(path: core.path) {
            let txn = try core.transaction()
            return try txn.history.entry(version).map { try HistoryResolver(txn).entry($0) }
        }
    }

    /// Strata: the oldest and newest retained history versions in this Realm's snapshot, or
    /// nil when the file has no history yet.
    public var retainedHistory: ClosedRange<UInt64>? {
        core.confinement.check()
        let bounds = core.reading { try core.transaction().history.bounds() }
        guard let oldest = bounds.oldest, let newest = bounds.newest else { return nil }
        return oldest...newest
    }

    /// Strata: what changed between version `from` and version `to` (`from` ≤ `to`), per
    /// class and object, netted over the commits `from + 1 … to`: an object inserted and
    /// deleted in between does not appear; one inserted and modified is inserted; property
    /// names are the union of the commits'. Both versions must be in `retainedHistory`;
    /// otherwise this throws `.invalidInput` naming the retained range.
    public func changes(from: UInt64, to: UInt64) throws -> [HistoryEntry.ClassChanges] {
        core.confinement.check()
        return try translatingErrors(path: core.path) {
            let txn = try core.transaction()
            let bounds = try txn.history.bounds()
            let range = bounds.oldest.flatMap { o in bounds.newest.map { o...$0 } }
            guard from <= to else {
                throw Error(.invalidInput, "Version \(from) is above version \(to): give the older version first", path: core.path)
            }
            guard let range, range.contains(from), range.contains(to) else {
                let retained = range.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "none"
                throw Error(.invalidInput, "Versions \(from) and \(to) must both be retained; the retained history is \(retained)", path: core.path)
            }
            var entries: [StrataStorage.HistoryEntry] = []
            try txn.history.forEach(after: from, newestFirst: false) { entry in
                guard entry.version <= to else { return false }
                entries.append(entry)
                return true
            }
            return try HistoryResolver(txn).classes(NetChanges.fold(entries, schema: txn.schema))
        }
    }

    /// The retained entries above `since`, newest first, that `include` accepts, at most
    /// `limit` of them; `include` sees the raw entry, so filters cost no name resolution.
    package func history(since: UInt64?, limit: Int?,
                         where include: (StrataStorage.HistoryEntry) -> Bool) throws -> [HistoryEntry] {
        core.confinement.check()
        return try translatingErrors(path: core.path) {
            let txn = try core.transaction()
            let resolver = HistoryResolver(txn)
            var result: [HistoryEntry] = []
            if let limit, limit <= 0 { return result }
            try txn.history.forEach(after: since, newestFirst: true) { entry in
                if include(entry) {
                    result.append(try resolver.entry(entry))
                }
                return result.count < (limit ?? .max)
            }
            return result
        }
    }
}

/// Turns stored entries (object keys, property-id masks) into public ones (primary keys,
/// property names), using the schema and rows of one snapshot.
struct HistoryResolver {
    let txn: StorageTransaction

    init(_ txn: StorageTransaction) { self.txn = txn }

    func entry(_ e: StrataStorage.HistoryEntry) throws -> Realm.HistoryEntry {
        Realm.HistoryEntry(version: e.version, date: Date(timeIntervalSince1970: e.time), pid: e.pid,
                           processName: e.processName, description: e.description, classes: try classes(e.changes),
                           bytesInUseBefore: e.pagesInUseBefore.flatMap { pages in
                               let (bytes, overflow) = Int(clamping: pages).multipliedReportingOverflow(by: txn.file.environment.pageSize)
                               return overflow ? nil : bytes
                           })
    }

    func classes(_ changes: ChangeSet) throws -> [Realm.HistoryEntry.ClassChanges] {
        try changes.classes.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { name, c in
            let schema = txn.schema.classes[name]
            let ids = try ObjectIDs(txn, schema)
            return Realm.HistoryEntry.ClassChanges(
                className: name, cleared: c.cleared,
                inserted: try c.inserted.sorted().map(ids.id), deleted: try c.deleted.sorted().map(ids.id),
                modified: try c.modified.sorted { $0.key < $1.key }.map {
                    Realm.HistoryEntry.ModifiedObject(object: try ids.id($0.key), properties: Self.names($0.value, schema))
                })
        }
    }

    /// The property names of a modification mask (bit i = property id i; bit 63 = ids ≥ 63).
    static func names(_ mask: UInt64, _ schema: ClassSchema?) -> [String] {
        let properties = (schema?.properties ?? []).sorted { $0.id < $1.id }
        var names: [String] = []
        for bit in 0..<63 where mask & (1 << UInt64(bit)) != 0 {
            names.append(properties.first { $0.id == bit }?.name ?? "#\(bit)")
        }
        if mask & (1 << 63) != 0 {
            let high = properties.filter { $0.id >= 63 }.map(\.name)
            names += high.isEmpty ? ["#63+"] : high
        }
        return names
    }

    /// Maps object keys of one class to `ObjectID`s.
    struct ObjectIDs {
        let txn: StorageTransaction
        let table: Table?
        let primaryKey: PropertySchema?
        let keysArePrimaryKeys: Bool

        init(_ txn: StorageTransaction, _ schema: ClassSchema?) throws {
            self.txn = txn
            primaryKey = schema?.primaryKey
            keysArePrimaryKeys = schema?.keysArePrimaryKeys ?? false
            table = primaryKey != nil && !keysArePrimaryKeys ? try txn.table(schema!.name) : nil
        }

        func id(_ key: ObjectKey) throws -> Realm.HistoryEntry.ObjectID {
            if keysArePrimaryKeys {
                return .init(objectKey: key, primaryKey: .int(Int(Int64(bitPattern: key ^ (1 << 63)))))
            }
            guard let primaryKey, let table, let row = try txn.rows.read(table, key) else {
                return .init(objectKey: key, primaryKey: nil)
            }
            let value: Realm.HistoryEntry.PrimaryKey? = switch row.value(primaryKey) {
            case .int(let v): .int(Int(v))
            case .string(let v): .string(v)
            case .uuid(let v): .uuid(v)
            case .objectId(let v): .objectId(v)
            case .null: .null
            default: nil
            }
            return .init(objectKey: key, primaryKey: value)
        }
    }
}
