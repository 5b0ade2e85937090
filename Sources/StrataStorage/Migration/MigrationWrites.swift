import LMDB

/// What a migration writes in a write transaction: row operations that neither maintain
/// indexes nor check primary keys (a migration may break both while its block runs), and
/// `rebuild`, which restores them at the end; the repairs of links and lists are in
/// `MigrationWrites+Relationships`.
package struct MigrationWrites {
    @usableFromInline let transaction: StorageTransaction

    @usableFromInline init(_ transaction: StorageTransaction) { self.transaction = transaction }

    /// Rewrites the slots `values` (by property id) of object `key`, keeping the other slots'
    /// bytes; the row keeps at least `slotCount` slots. No index or primary-key work.
    package func update(_ table: Table, _ key: ObjectKey, slotCount: Int, _ values: [Int: Value]) throws(StorageError) {
        guard let old = try transaction.rows.read(table, key) else {
            throw StorageError(.invalidInput, "The '\(table.name)' object was deleted")
        }
        let count = max(slotCount, (values.keys.max() ?? -1) + 1)
        let bytes = RowEncoder.encode(slotCount: count, in: old, replacing: values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, table.mixedSlots)
        try transaction.rows.put(table, key, bytes)
    }

    /// Inserts a row under a fresh key from the class's counter (re-keyed by `rebuild` when
    /// the class's keys are its integer primary key). No index or primary-key work.
    package func insert(_ table: Table, values: [Value]) throws(StorageError) -> ObjectKey {
        var stored = transaction.keys.next[table.name]
        if stored == nil { stored = try transaction.meta.storedNextKey(table.name) }
        transaction.keys.last[table.name] = nil  // read afresh from the rows
        let key = max(stored ?? 1, try transaction.rows.lastKey(table) &+ 1)
        transaction.keys.next[table.name] = key + 1
        try transaction.rows.put(table, key, RowEncoder.encode(values, table.mixedSlots))
        transaction.keys.last[table.name] = key
        return key
    }

    /// Deletes a row. No index work.
    package func delete(_ table: Table, _ key: ObjectKey) throws(StorageError) {
        try transaction.rows.remove(table, key)
        transaction.keys.last[table.name] = nil
    }

    /// Empties the rows, index, backlink and list databases of `table` (the class stays in
    /// the schema). Links and lists of other classes that point into it are left for
    /// `repairRelationships`.
    package func empty(_ table: Table) throws(StorageError) {
        try transaction.rows.removeAll(table)
        transaction.keys.last[table.name] = nil
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
        guard let table = try transaction.table(name) else { return [:] }
        let ids = Set(table.schema.properties.map(\.id))
        let slotCount = table.schema.slotCount
        // Rows as (key, bytes), with the slots of removed properties cleared.
        var rows: [(ObjectKey, [UInt8])] = []
        try transaction.rows.forEach(table) { key, row in
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
        let txn = transaction.lmdb
        try StorageError.translating("Rebuilding '\(name)'") {
            try txn.empty(table.rows)
            for db in table.indexes.values { try txn.empty(db) }
            if let old {
                let kept = Set(table.indexes.values)
                for db in old.indexes.values where !kept.contains(db) { try txn.empty(db) }
                let keptRelations = Set(table.backlinks.values).union(table.lists.values)
                for db in Array(old.backlinks.values) + Array(old.lists.values) where !keptRelations.contains(db) { try txn.empty(db) }
            }
        }
        if rekeyed { rows.sort { $0.0 < $1.0 } }
        let indexed = table.schema.properties.filter { table.indexes[$0.id] != nil }
        for (key, bytes) in rows {
            try transaction.rows.put(table, key, bytes)
            guard !indexed.isEmpty else { continue }
            try bytes.withUnsafeBytes { raw in
                let view = RowView(raw)!
                for property in indexed {
                    do {
                        try transaction.indexes.add(table, property, view.value(property), key)
                    } catch let error as StorageError where error.code == .invalidInput && property.isPrimaryKey {
                        throw StorageError(.invalidInput, "The migration left two '\(name)' objects with the primary key value '\(describe(view.value(property)))': primary keys must be unique")
                    }
                }
            }
        }
        transaction.keys.last[name] = nil
        if !table.keysArePrimaryKeys, let last = rows.map(\.0).max() {
            transaction.keys.next[name] = max(transaction.keys.next[name] ?? 0, last &+ 1)
        }
        return moved
    }
}

extension StorageTransaction {
    /// The writes of a migration, which leave indexes and relationships to be rebuilt.
    @inlinable package var migration: MigrationWrites { MigrationWrites(self) }
}
