import LMDB

/// The property indexes of every class in one transaction (`index.<Class>.<id>`: index key →
/// object key; unique for a primary key, duplicate-sorted otherwise). An integer primary key
/// that is the object key has no index database: its lookups read the rows.
package struct IndexStore {
    @usableFromInline let transaction: StorageTransaction

    @usableFromInline init(_ transaction: StorageTransaction) { self.transaction = transaction }

    /// The key of the object whose primary key is `value`, or nil.
    package func objectKey(_ table: Table, primaryKey value: Value) throws(StorageError) -> ObjectKey? {
        guard let pk = table.primaryKey else { return nil }
        if table.keysArePrimaryKeys {
            guard case .int(let i) = value else { return nil }
            let key = ObjectKeyCoding.key(forIntegerPrimaryKey: i)
            return try transaction.rows.read(table, key) == nil ? nil : key
        }
        return try lookup(table, pk, equalTo: value).first
    }

    /// The keys of the objects whose `property` equals `value`, through its index (or the
    /// table itself for an integer primary key). Truncated index keys are re-checked on the row.
    package func lookup(_ table: Table, _ property: PropertySchema, equalTo value: Value) throws(StorageError) -> [ObjectKey] {
        if property.isPrimaryKey, table.keysArePrimaryKeys {
            guard case .int(let i) = value else { return [] }
            let key = ObjectKeyCoding.key(forIntegerPrimaryKey: i)
            return try transaction.rows.contains(table, key) ? [key] : []
        }
        let db = database(table, property)
        // Read before the closure, which would otherwise copy the whole property.
        let unique = property.isPrimaryKey
        let txn = transaction.lmdb
        // The keys are the closures' result, not a variable they share: a variable captured by
        // a closure handed on is boxed on the heap and checked for exclusive access.
        var keys = try StorageError.translating("Reading the index of '\(table.name).\(property.name)'") {
            try withEntryKey(table, property, value) { k throws -> [ObjectKey] in
                if unique { return try txn.get(db, key: k).map { [try ObjectKeyCoding.decode($0)] } ?? [] }
                return try txn.withCursor(db) { cursor throws(LMDBError) -> [ObjectKey] in
                    var found: [ObjectKey] = []
                    try cursor.forEachDuplicate(of: k) { (v) throws(LMDBError) in found.append(try ObjectKeyCoding.decode(v)) }
                    return found
                }
            }
        }
        if !IndexKey.isDistinct(value) {
            var matching: [ObjectKey] = []
            for key in keys where try transaction.rows.read(table, key)?.value(property) == value { matching.append(key) }
            keys = matching
        }
        return keys
    }

    /// Adds the entry saying that object `key` has `value` (nothing for a property without an
    /// index database). Throws `.invalidInput` for a primary key another object has.
    func add(_ table: Table, _ property: PropertySchema, _ value: Value, _ key: ObjectKey) throws(StorageError) {
        let txn = transaction.lmdb
        try withEntry(table, property, value, key) { db, indexKey, objectKey in
            do {
                try txn.put(db, key: indexKey, value: objectKey, flags: property.isPrimaryKey ? .noOverwrite : PutFlags())
            } catch let error as LMDBError where error == .keyExists {
                throw StorageError(.invalidInput, "Attempting to create an object of type '\(table.name)' with an existing primary key value '\(describe(value))'")
            }
        }
    }

    /// Removes the entry saying that object `key` has `value`.
    func remove(_ table: Table, _ property: PropertySchema, _ value: Value, _ key: ObjectKey) throws(StorageError) {
        let txn = transaction.lmdb
        try withEntry(table, property, value, key) { db, indexKey, objectKey in
            _ = try txn.delete(db, key: indexKey, value: property.isPrimaryKey ? nil : objectKey)
        }
    }

    /// Calls `body` with the property's index database and the entry's key and value bytes
    /// (nothing when the property has no index database).
    private func withEntry(_ table: Table, _ property: PropertySchema, _ value: Value, _ key: ObjectKey,
                           _ body: (Database, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws(StorageError) {
        guard let db = table.indexes[property.id] else { return }
        var k = ObjectKeyCoding.encode(key)
        try StorageError.translating("Updating the index of '\(table.name).\(property.name)'") {
            try withUnsafeBytes(of: &k) { kb in
                try withEntryKey(table, property, value) { try body(db, $0, kb) }
            }
        }
    }

    /// Calls `body` with the key of `value` in `property`'s index (`entryKey`), made on the
    /// stack on a plain file.
    private func withEntryKey<R>(_ table: Table, _ property: PropertySchema, _ value: Value,
                                 _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        if transaction.crypto != nil { return try entryKey(table, property, value).withUnsafeBytes(body) }
        return try IndexKey.withKey(value, body)
    }

    /// The key of `value` in `property`'s index: its `IndexKey`, or on an encrypted file its
    /// keyed hash (`RecordCrypto.indexKey`), which keeps equality and nothing of the order.
    func entryKey(_ table: Table, _ property: PropertySchema, _ value: Value) -> [UInt8] {
        let plain = IndexKey.encode(value)
        guard let crypto = transaction.crypto else { return plain }
        return crypto.indexKey(table.indexNames[property.id] ?? [], plain)
    }

    /// Traps when an access that needs the order of index keys is asked of an encrypted file,
    /// whose keys are hashes: the planner reads such an index only for equality (`IndexChoice`).
    func requireOrderedKeys(_ table: Table, _ property: PropertySchema) {
        precondition(transaction.crypto == nil, "ordered access to the hashed index of '\(table.name).\(property.name)' on an encrypted file")
    }

    /// The property's index database; traps if it has none (a planning error).
    func database(_ table: Table, _ property: PropertySchema) -> Database {
        guard let db = table.indexes[property.id] else {
            preconditionFailure("index access on '\(table.name).\(property.name)', which has no index")
        }
        return db
    }
}

extension StorageTransaction {
    /// The property indexes of this transaction's classes.
    @inlinable package var indexes: IndexStore { IndexStore(self) }
}
