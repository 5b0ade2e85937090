import LMDB

/// How many entries an index access would read, so that a query planner can choose, among
/// several usable indexes, the one that narrows the rows most; and the tests of each distinct
/// value that an index answers alone. Both read only the index.
extension IndexStore {
    /// How many index entries have the key of `value` (what `lookup(_:_:equalTo:)` reads): one
    /// seek and a duplicate count.
    package func entryCount(_ table: Table, _ property: PropertySchema, equalTo value: Value) throws(StorageError) -> Int {
        if property.isPrimaryKey, table.keysArePrimaryKeys {
            guard case .int(let i) = value else { return 0 }
            return try transaction.rows.read(table, ObjectKeyCoding.key(forIntegerPrimaryKey: i)) == nil ? 0 : 1
        }
        let db = database(table, property)
        let indexKey = entryKey(table, property, value)
        let unique = property.isPrimaryKey
        let txn = transaction.lmdb
        return try StorageError.translating("Reading the index of '\(table.name).\(property.name)'") {
            try indexKey.withUnsafeBytes { k in
                try txn.withCursor(db) { cursor in
                    guard try cursor.find(k) != nil else { return 0 }
                    return unique ? 1 : try cursor.duplicateCount()
                }
            }
        }
    }

    /// How many index entries lie in `range` (what `lookup(_:_:in:)` reads), counting no
    /// further than `limit + 1`.
    package func entryCount(_ table: Table, _ property: PropertySchema, in range: IndexRange, limit: Int) throws -> Int {
        var n = 0
        try forEachEntry(table, property, in: range) { _ in
            n += 1
            return n <= limit
        }
        return n
    }

    /// How many index entries start with `prefix` (what `lookup(_:_:prefix:)` reads), counting
    /// no further than `limit + 1`.
    package func entryCount(_ table: Table, _ property: PropertySchema, prefix: String, limit: Int) throws -> Int {
        var n = 0
        try forEachEntry(table, property, prefix: prefix) { _ in
            n += 1
            return n <= limit
        }
        return n
    }

    /// How many entries the index of `property` holds (what `scan(_:_:where:)` walks): one per
    /// object for a secondary index, nulls included.
    package func entryCount(_ table: Table, _ property: PropertySchema) throws(StorageError) -> Int {
        let db = database(table, property)
        let txn = transaction.lmdb
        return try StorageError.translating("Reading the index of '\(table.name).\(property.name)'") { try txn.count(db) }
    }

    /// The objects whose string `property` passes `test`, read from its index alone: `test`
    /// sees each distinct stored value once (its UTF-8 bytes, nil for null), and the objects
    /// of every value that passes are returned in `matches`, in index order.
    ///
    /// A value of 510 bytes or more is cut in its index key, so it cannot be tested there:
    /// its objects are returned in `unsure`, for the caller to check on the row. This answers
    /// comparisons the index order cannot (`==[c]`, `CONTAINS`, `LIKE`) by testing each
    /// distinct value instead of each row.
    package func scan(_ table: Table, _ property: PropertySchema,
                      where test: (UnsafeRawBufferPointer?) -> Bool) throws(StorageError) -> (matches: [ObjectKey], unsure: [ObjectKey]) {
        requireOrderedKeys(table, property)
        let db = database(table, property)
        let unique = property.isPrimaryKey
        let txn = transaction.lmdb
        var matches: [ObjectKey] = [], unsure: [ObjectKey] = []
        try StorageError.translating("Reading the index of '\(table.name).\(property.name)'") {
            try txn.withCursor(db) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    let cut = e.key.count >= IndexKey.maxLength
                    guard cut || test(e.key[0] == 0 ? nil : UnsafeRawBufferPointer(rebasing: e.key[1...])) else {
                        entry = try cursor.nextKey()
                        continue
                    }
                    var duplicate: Cursor.Entry? = e
                    while let d = duplicate {
                        let key = try ObjectKeyCoding.decode(d.value)
                        if cut { unsure.append(key) } else { matches.append(key) }
                        duplicate = unique ? nil : try cursor.nextDuplicate()
                    }
                    entry = try cursor.next()
                }
            }
        }
        return (matches, unsure)
    }
}
