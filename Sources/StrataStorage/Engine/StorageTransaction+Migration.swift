import Foundation
import LMDB

/// What a migration needs from a write transaction: the stored schema version, property-id
/// high-water marks, and row operations that neither maintain indexes nor check primary keys
/// (a migration may break both while its block runs; `rebuild` restores them at the end).
extension StorageTransaction {
    /// The schema version stored in the file, or nil if none was ever written.
    package var storedSchemaVersion: UInt64? {
        get throws {
            try lmdbCall("Reading the schema version of '\(file.path)'") {
                try meta.flatMap { try MetaKeys.readInteger(lmdb, $0, MetaKeys.schemaVersion) }
            }
        }
    }

    /// Stores the schema version (committed with the rest of this write).
    package func setSchemaVersion(_ version: UInt64) throws {
        precondition(isWrite, "the schema version is written by a write transaction")
        guard let meta else { throw StorageError(.fail, "'\(file.path)' has no meta database") }
        try lmdbCall("Writing the schema version of '\(file.path)'") {
            try MetaKeys.writeInteger(lmdb, meta, MetaKeys.schemaVersion, version)
        }
    }

    /// The lowest property id a new property of class `name` may take: ids are never reused,
    /// not even those of removed properties or of a deleted class (their old slots and index
    /// databases may still exist).
    package func nextPropertyID(_ name: String) throws -> Int {
        let mark: UInt64 = try lmdbCall("Reading the property ids of '\(name)'") {
            try meta.flatMap { try MetaKeys.readInteger(lmdb, $0, MetaKeys.propertyIDPrefix + name) }
        } ?? 0
        return max(Int(mark), schema.classes[name]?.slotCount ?? 0)
    }

    /// Records that ids below `next` are taken in class `name`.
    package func reservePropertyIDs(_ name: String, below next: Int) throws {
        guard let meta else { throw StorageError(.fail, "'\(file.path)' has no meta database") }
        try lmdbCall("Writing the property ids of '\(name)'") {
            let current: UInt64 = try MetaKeys.readInteger(lmdb, meta, MetaKeys.propertyIDPrefix + name) ?? 0
            if UInt64(next) <= current { return }
            try MetaKeys.writeInteger(lmdb, meta, MetaKeys.propertyIDPrefix + name, UInt64(next))
        }
    }

    /// `schema` with its property ids moved above every id the class `schema.name` ever used
    /// in this file (a class stored again after a migration deleted it). Unchanged when the
    /// class never existed.
    package func freshIDs(_ schema: ClassSchema) throws -> ClassSchema {
        let base = try nextPropertyID(schema.name)
        if base == 0 { return schema }
        var result = schema
        for i in result.properties.indices { result.properties[i].id += base }
        return result
    }

    /// Every object key of the table, in key order.
    package func allKeys(_ table: Table) throws -> [ObjectKey] {
        var keys: [ObjectKey] = []
        try forEachRow(table) { key, _ in keys.append(key); return true }
        return keys
    }

    /// Rewrites the slots `values` (by property id) of object `key`, keeping the other slots'
    /// bytes; the row keeps at least `slotCount` slots. No index or primary-key work.
    package func migrationUpdate(_ table: Table, _ key: ObjectKey, slotCount: Int, _ values: [Int: Value]) throws {
        guard let old = try row(table, key) else {
            throw StorageError(.invalidInput, "The '\(table.name)' object was deleted")
        }
        let count = max(slotCount, (values.keys.max() ?? -1) + 1)
        let bytes = RowEncoder.encode(slotCount: count, in: old, replacing: values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, table.mixedSlots)
        try putRow(table, key, bytes)
    }

    /// Inserts a row under a fresh key from the class's counter (re-keyed by `rebuild` when
    /// the class's keys are its integer primary key). No index or primary-key work.
    package func migrationInsert(_ table: Table, values: [Value]) throws -> ObjectKey {
        let stored: UInt64? = try sequences[table.name] ?? lmdbCall("Reading '\(table.name)'") { try meta.flatMap { try MetaKeys.readInteger(lmdb, $0, MetaKeys.sequencePrefix + table.name) } }
        let last = try lmdbCall("Reading '\(table.name)'") { () throws -> ObjectKey in
            try lmdb.withCursor(table.rows) { try $0.last() }.map { ObjectKeyCoding.decode($0.key) } ?? 0
        }
        let key = max(stored ?? 1, last &+ 1)
        sequences[table.name] = key + 1
        try putRow(table, key, RowEncoder.encode(values, table.mixedSlots))
        lastKeys[table.name] = nil
        return key
    }

    /// Deletes a row. No index work.
    package func migrationDelete(_ table: Table, _ key: ObjectKey) throws {
        try lmdbCall("Deleting from '\(table.name)'") {
            var k = ObjectKeyCoding.encode(key)
            _ = try withUnsafeBytes(of: &k) { try lmdb.delete(table.rows, key: $0) }
        }
        lastKeys[table.name] = nil
    }

    /// Empties the rows, index, backlink and list databases of `table` (the class stays in
    /// the schema). Links and lists of other classes that point into it are left for
    /// `repairRelationships`.
    package func migrationEmpty(_ table: Table) throws {
        try lmdbCall("Clearing '\(table.name)'") {
            try lmdb.empty(table.rows)
            for db in table.indexes.values { try lmdb.empty(db) }
            for db in table.backlinks.values { try lmdb.empty(db) }
            for db in table.lists.values { try lmdb.empty(db) }
        }
        lastKeys[table.name] = nil
    }

    /// Restores what the migration's row operations left undone for class `name`, whose
    /// table in this transaction has the new schema: re-keys the objects when their keys are
    /// the integer primary key, drops the slots of removed properties, rebuilds every index
    /// (failing on a duplicate primary key), and empties the index, backlink and list
    /// databases of `old` that the new schema no longer has. Returns the keys that changed
    /// (old key → new key) when the objects were re-keyed: links and lists pointing at them
    /// are then moved with `remapKeys`.
    @discardableResult
    package func rebuild(_ name: String, old: Table?) throws -> [ObjectKey: ObjectKey] {
        guard let table = try table(name) else { return [:] }
        let ids = Set(table.schema.properties.map(\.id))
        let slotCount = table.schema.slotCount
        // Rows as (key, bytes), with the slots of removed properties cleared.
        var rows: [(ObjectKey, [UInt8])] = []
        try forEachRow(table) { key, row in
            var cleared: [(id: Int, value: Value)] = []
            for id in 0..<slotCount where !ids.contains(id) && row.hasSlot(id) && !row.isNull(id) { cleared.append((id, .null)) }
            rows.append((key, RowEncoder.encode(slotCount: slotCount, in: row, replacing: cleared, table.mixedSlots)))
            return true
        }
        var rekeyed = false
        var moved: [ObjectKey: ObjectKey] = [:]
        if table.keysArePrimaryKeys, let pk = table.primaryKey {
            var seen = Set<ObjectKey>()
            for i in rows.indices {
                let value = rows[i].1.withUnsafeBytes { RowView($0)!.value(pk) }
                guard case .int(let v) = value else { continue }
                let key = ObjectKeyCoding.key(forIntegerPrimaryKey: v)
                if !seen.insert(key).inserted {
                    throw StorageError(.invalidInput, "The migration left two '\(name)' objects with the primary key value '\(v)': primary keys must be unique")
                }
                if key != rows[i].0 { rekeyed = true; moved[rows[i].0] = key }
                rows[i].0 = key
            }
        }
        try lmdbCall("Rebuilding '\(name)'") {
            try lmdb.empty(table.rows)
            for db in table.indexes.values { try lmdb.empty(db) }
            if let old {
                let kept = Set(table.indexes.values)
                for db in old.indexes.values where !kept.contains(db) { try lmdb.empty(db) }
                let keptRelations = Set(table.backlinks.values).union(table.lists.values)
                for db in Array(old.backlinks.values) + Array(old.lists.values) where !keptRelations.contains(db) { try lmdb.empty(db) }
            }
        }
        if rekeyed { rows.sort { $0.0 < $1.0 } }
        let indexed = table.schema.properties.filter { table.indexes[$0.id] != nil }
        for (key, bytes) in rows {
            try putRow(table, key, bytes)
            guard !indexed.isEmpty else { continue }
            try bytes.withUnsafeBytes { raw in
                let view = RowView(raw)!
                for property in indexed {
                    do {
                        try addIndexEntry(table, property, view.value(property), key)
                    } catch let error as StorageError where error.code == .invalidInput && property.isPrimaryKey {
                        throw StorageError(.invalidInput, "The migration left two '\(name)' objects with the primary key value '\(describe(view.value(property)))': primary keys must be unique")
                    }
                }
            }
        }
        lastKeys[name] = nil
        if !table.keysArePrimaryKeys, let last = rows.map(\.0).max() {
            let next = max(sequences[name] ?? 0, last &+ 1)
            sequences[name] = next
        }
        return moved
    }

    private func putRow(_ table: Table, _ key: ObjectKey, _ bytes: [UInt8]) throws {
        try lmdbCall("Writing '\(table.name)'") {
            var k = ObjectKeyCoding.encode(key)
            try withUnsafeBytes(of: &k) { kb in try bytes.withUnsafeBytes { try lmdb.put(table.rows, key: kb, value: $0) } }
        }
    }
}

extension MetaKeys {
    /// Prefix of u64 LE: one above the highest property id class `<Class>` ever used.
    static let propertyIDPrefix = "propertyIDs."
}
