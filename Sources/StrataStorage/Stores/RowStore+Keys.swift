import LMDB

/// Reading the rows of chosen keys, or of a range of integer primary keys, in one cursor walk.
extension RowStore {
    /// Calls `body` with the row of each of `keys` that exists, in the order of `keys`, through
    /// one cursor: a key at most 4 after the one under the cursor (so at most 4 entries on)
    /// is reached by stepping, any other by a seek, so keys in table order are read in one
    /// forward walk, and sparse keys cost one seek each. Ascending keys spanning fewer than 8
    /// keys per key are read in one batched scan (`Cursor.scan`) from the first. On an
    /// encrypted file a row stays valid as `lifetime` says.
    package func forEach(_ table: Table, keys: [ObjectKey], rows lifetime: RowLifetime = .transaction,
                         _ body: (ObjectKey, RowView) throws -> Void) throws {
        if keys.isEmpty { return }
        var decryption = RowDecryption(lifetime, self)
        try StorageError.translatingLMDBErrors("Reading '\(table.name)'") {
            try transaction.lmdb.withCursor(table.rows) { cursor in
                if Self.areDenseAndAscending(keys) {
                    var next = 0
                    var first = ObjectKeyCoding.encode(keys[0])
                    _ = try withUnsafeBytes(of: &first) { start in
                        // No more entries than the keys span.
                        try cursor.scan(from: start, limit: Int(keys[keys.count - 1] - keys[0]) + 1) { k, v in
                            let key = try ObjectKeyCoding.decode(k)
                            while next < keys.count, keys[next] < key { next += 1 }  // keys with no row
                            guard next < keys.count else { return false }
                            if keys[next] == key {
                                try body(key, try decryption.view(self, table, key, storedKey: k, v))
                                next += 1
                            }
                            return next < keys.count
                        }
                    }
                    return
                }
                var current: (key: ObjectKey, value: UnsafeRawBufferPointer)?
                for key in keys {
                    while let c = current, c.key < key, key &- c.key <= 4 {
                        current = try cursor.next().map { (try ObjectKeyCoding.decode($0.key), $0.value) }
                    }
                    if current?.key != key {
                        var k = ObjectKeyCoding.encode(key)
                        current = try withUnsafeBytes(of: &k) { try cursor.seek(atLeast: $0) }.map { (try ObjectKeyCoding.decode($0.key), $0.value) }
                    }
                    guard let c = current, c.key == key else { continue }
                    try body(key, try decryption.view(self, table, key, c.value))
                }
            }
        }
    }

    /// Whether `keys` ascend strictly and span fewer than 8 keys per key: a scan from the first
    /// passes few rows that are not asked for.
    package static func areDenseAndAscending(_ keys: [ObjectKey]) -> Bool {
        guard keys.count > 1, keys[keys.count - 1] > keys[0], keys[keys.count - 1] - keys[0] < UInt64(keys.count) &* 8 else { return false }
        for i in 1..<keys.count where keys[i - 1] >= keys[i] { return false }
        return true
    }

    /// Calls `body` with each object (key and row) whose integer primary key lies in `range`,
    /// in key order, until it returns false, when the primary key is the object key itself
    /// (object keys are the key with the sign bit flipped, big endian); returns false without
    /// reading anything otherwise. The rows are read in one cursor walk over the table (valid,
    /// on an encrypted file, as `lifetime` says).
    @discardableResult
    package func forEach(_ table: Table, primaryKeyIn range: IndexRange, rows lifetime: RowLifetime = .transaction,
                         _ body: (ObjectKey, RowView) throws -> Bool) throws -> Bool {
        var decryption = RowDecryption(lifetime, self)
        return try forEachStored(table, primaryKeyIn: range) { key, stored in try body(key, try decryption.view(self, table, key, stored)) }
    }

    /// Calls `body` with each object key in `range`, as `forEach(_:primaryKeyIn:_:)` does, but
    /// reads no row: the keys of the table are the index.
    @discardableResult
    package func forEachKey(_ table: Table, primaryKeyIn range: IndexRange, _ body: (ObjectKey) throws -> Bool) throws -> Bool {
        try forEachStored(table, primaryKeyIn: range) { key, _ in try body(key) }
    }

    /// The keys of the objects of `table` (keyed by its integer primary key) whose primary key
    /// is one of `values`, in table order without repeats; a value that is not an integer
    /// matches nothing. Reads no row: the keys, sorted, are sought with one cursor, which finds
    /// a key near the one before it without searching from the root.
    package func keys(_ table: Table, primaryKeyIn values: [Value]) throws -> [ObjectKey] {
        var found: [ObjectKey] = []
        found.reserveCapacity(values.count)
        try forEachStored(table, primaryKeyIn: values) { key, _ in found.append(key) }
        return found
    }

    /// Calls `body` with each object (key and row) of `table` whose integer primary key is one
    /// of `values`, as `keys(_:primaryKeyIn:)` finds them, each row read by the seek that finds
    /// its key (valid, on an encrypted file, as `lifetime` says).
    package func forEach(_ table: Table, primaryKeyIn values: [Value], rows lifetime: RowLifetime = .transaction,
                         _ body: (ObjectKey, RowView) throws -> Void) throws {
        var decryption = RowDecryption(lifetime, self)
        try forEachStored(table, primaryKeyIn: values) { key, stored in try body(key, try decryption.view(self, table, key, stored)) }
    }

    /// `forEach(_:primaryKeyIn:_:)` for a list of primary keys, with each row as it is stored.
    private func forEachStored(_ table: Table, primaryKeyIn values: [Value],
                               _ body: (ObjectKey, UnsafeRawBufferPointer) throws -> Void) throws {
        precondition(table.keysArePrimaryKeys, "the table is keyed by its primary key")
        var keys: [ObjectKey] = []
        keys.reserveCapacity(values.count)
        for case .int(let i) in values { keys.append(ObjectKeyCoding.key(forIntegerPrimaryKey: i)) }
        let wanted = KeyOrder.ascendingUnique(keys)
        try StorageError.translatingLMDBErrors("Reading '\(table.name)'") {
            try transaction.lmdb.withCursor(table.rows) { cursor in
                for key in wanted {
                    var k = ObjectKeyCoding.encode(key)
                    if let entry = try withUnsafeBytes(of: &k, { try cursor.find($0) }) { try body(key, entry.value) }
                }
            }
        }
    }

    /// Calls `body` with each of `keys` and its row made from `stored` (the row as stored,
    /// met by an earlier walk in this transaction), verified as any read is.
    package func forEach(_ table: Table, keys: [ObjectKey], stored: [UnsafeRawBufferPointer], rows lifetime: RowLifetime = .transaction,
                         _ body: (ObjectKey, RowView) throws -> Void) throws {
        var decryption = RowDecryption(lifetime, self)
        for (key, bytes) in zip(keys, stored) { try body(key, try decryption.view(self, table, key, bytes)) }
    }

    /// `forEach(_:primaryKeyIn:_:)` with each row as it is stored (sealed, or encrypted).
    package func forEachStored(_ table: Table, primaryKeyIn range: IndexRange,
                               _ body: (ObjectKey, UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        guard table.keysArePrimaryKeys else { return false }
        func key(_ v: Value?) -> ObjectKey? {
            guard case .int(let i)? = v else { return nil }
            return ObjectKeyCoding.key(forIntegerPrimaryKey: i)
        }
        var low = key(range.lower) ?? 0
        var high = key(range.upper) ?? .max
        if range.lower != nil, !range.lowerInclusive {
            if low == .max { return true }
            low += 1
        }
        if range.upper != nil, !range.upperInclusive {
            if high == 0 { return true }
            high -= 1
        }
        guard low <= high else { return true }
        var start = ObjectKeyCoding.encode(low)
        try StorageError.translatingLMDBErrors("Reading '\(table.name)'") {
            try withUnsafeBytes(of: &start) { s in
                try transaction.lmdb.withCursor(table.rows) { cursor in
                    // Object keys are integers: no more entries than the range spans.
                    let span = high - low < UInt64(Int.max) ? Int(high - low) + 1 : .max
                    _ = try cursor.scan(from: s, limit: span) { k, v in
                        let key = try ObjectKeyCoding.decode(k)
                        return try key <= high && body(key, v)
                    }
                }
            }
        }
        return true
    }
}
