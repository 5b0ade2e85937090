import LMDB

extension StorageTransaction {
    /// The keys of the objects whose `property` equals `value`, through its index (or the
    /// table itself for an integer primary key). Truncated index keys are re-checked on the row.
    package func lookup(_ table: Table, _ property: PropertySchema, equalTo value: Value) throws -> [ObjectKey] {
        if property.isPrimaryKey, table.keysArePrimaryKeys {
            guard case .int(let i) = value else { return [] }
            let key = ObjectKeyCoding.key(forIntegerPrimaryKey: i)
            return try row(table, key) == nil ? [] : [key]
        }
        guard let db = table.indexes[property.id] else {
            preconditionFailure("lookup on '\(table.name).\(property.name)', which has no index")
        }
        let indexKey = IndexKey.encode(value)
        var keys: [ObjectKey] = []
        try lmdbCall("Reading the index of '\(table.name).\(property.name)'") {
            try indexKey.withUnsafeBytes { k in
                let cursor = try lmdb.cursor(db)
                var entry = try cursor.seek(exactly: k)
                while let e = entry {
                    keys.append(ObjectKeyCoding.decode(e.value))
                    entry = property.isPrimaryKey ? nil : try cursor.nextDuplicate()
                }
            }
        }
        if !IndexKey.isExact(value) {
            keys = try keys.filter { try row(table, $0)?.value(property) == value }
        }
        return keys
    }

    func addIndexEntry(_ table: Table, _ property: PropertySchema, _ value: Value, _ key: ObjectKey) throws {
        try withIndexEntry(table, property, value, key) { db, indexKey, objectKey in
            do {
                try lmdb.put(db, key: indexKey, value: objectKey, flags: property.isPrimaryKey ? .noOverwrite : [])
            } catch let e as LMDBError where e == .keyExists {
                throw StorageError(.invalidInput, "Attempting to create an object of type '\(table.name)' with an existing primary key value '\(describe(value))'")
            }
        }
    }

    func removeIndexEntry(_ table: Table, _ property: PropertySchema, _ value: Value, _ key: ObjectKey) throws {
        try withIndexEntry(table, property, value, key) { db, indexKey, objectKey in
            _ = try lmdb.delete(db, key: indexKey, value: property.isPrimaryKey ? nil : objectKey)
        }
    }

    /// Calls `body` with the property's index database and the entry's key and value bytes
    /// (nothing when the property has no index database).
    private func withIndexEntry(_ table: Table, _ property: PropertySchema, _ value: Value, _ key: ObjectKey,
                                _ body: (Database, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        guard let db = table.indexes[property.id] else { return }
        let indexKey = IndexKey.encode(value)
        var k = ObjectKeyCoding.encode(key)
        try lmdbCall("Updating the index of '\(table.name).\(property.name)'") {
            try indexKey.withUnsafeBytes { ik in
                try withUnsafeBytes(of: &k) { kb in try body(db, ik, kb) }
            }
        }
    }
}
