import LMDB

/// Index walks over a range of values or a string prefix, in index order.
extension IndexStore {
    /// The keys of the objects whose `property` lies in `range`, through its index (or the
    /// table itself for an integer primary key), in index order.
    ///
    /// Index keys are order-preserving (`IndexKey`), so this seeks to the lower bound and
    /// walks forward until the upper bound. The result is a superset of the matches: keys of
    /// strings over 510 bytes are truncated, so such bounds are treated as inclusive, and
    /// values that the index orders but the predicate does not (NaN) may appear. Callers
    /// re-check every candidate. Nulls (tag 0) are never returned.
    package func lookup(_ table: Table, _ property: PropertySchema, in range: IndexRange) throws -> [ObjectKey] {
        var keys: [ObjectKey] = []
        try forEachEntry(table, property, in: range) { key in
            keys.append(key)
            return true
        }
        return keys
    }

    /// Calls `body` with the object key of each index entry of `property` in `range`, in index
    /// order (table order for an integer primary key that is the object key), until it
    /// returns false. See `lookup(_:_:in:)` for what the entries are.
    package func forEachEntry(_ table: Table, _ property: PropertySchema, in range: IndexRange,
                              _ body: (ObjectKey) throws -> Bool) throws {
        if property.isPrimaryKey, table.keysArePrimaryKeys {
            try transaction.rows.forEachKey(table, primaryKeyIn: range, body)
            return
        }
        requireOrderedKeys(table, property)
        let db = database(table, property)
        let start = range.lower.map(IndexKey.encode) ?? [1]
        let skipStart = range.lower.map { !range.lowerInclusive && IndexKey.isDistinct($0) } ?? false
        let end = range.upper.map(IndexKey.encode)
        let stopAtEnd = range.upper.map { !range.upperInclusive && IndexKey.isExact($0) } ?? false
        try StorageError.translatingLMDBErrors("Reading the index of '\(table.name).\(property.name)'") {
            try start.withUnsafeBytes { s in
                try (end ?? []).withUnsafeBytes { e in
                    try transaction.lmdb.withCursor(db) { cursor in
                        var entry = try cursor.seek(atLeast: s)
                        while let (key, value) = entry {
                            if end != nil {
                                let c = compareBytes(key, e)
                                if c > 0 || (c == 0 && stopAtEnd) { break }
                            }
                            if skipStart, compareBytes(key, s) == 0 {
                                entry = try cursor.nextKey()
                                continue
                            }
                            guard try body(try ObjectKeyCoding.decode(value)) else { break }
                            entry = try cursor.next()
                        }
                    }
                }
            }
        }
    }

    /// The keys of the objects whose string `property` starts with the UTF-8 bytes of
    /// `prefix`, through its index, in index order. A prefix of 510 bytes or more is cut to
    /// the index key's length, so the result may hold longer non-matches: callers re-check.
    package func lookup(_ table: Table, _ property: PropertySchema, prefix: String) throws -> [ObjectKey] {
        var keys: [ObjectKey] = []
        try forEachEntry(table, property, prefix: prefix) { key in
            keys.append(key)
            return true
        }
        return keys
    }

    /// Calls `body` with the object key of each index entry of the string `property` that
    /// starts with `prefix` (see `lookup(_:_:prefix:)`), in index order, until it returns false.
    package func forEachEntry(_ table: Table, _ property: PropertySchema, prefix: String,
                              _ body: (ObjectKey) throws -> Bool) throws {
        requireOrderedKeys(table, property)
        let db = database(table, property)
        let start = IndexKey.encode(.string(prefix))
        try StorageError.translatingLMDBErrors("Reading the index of '\(table.name).\(property.name)'") {
            try start.withUnsafeBytes { s in
                try transaction.lmdb.withCursor(db) { cursor in
                    var entry = try cursor.seek(atLeast: s)
                    while let e = entry, e.key.count >= s.count, compareBytes(UnsafeRawBufferPointer(rebasing: e.key[..<s.count]), s) == 0 {
                        guard try body(try ObjectKeyCoding.decode(e.value)) else { break }
                        entry = try cursor.next()
                    }
                }
            }
        }
    }
}

extension IndexKey {
    /// Whether no other value has the index key of `value`: the key holds the whole value and
    /// is shorter than a truncated key (a string or data of `maxLength - 1` bytes or more has
    /// the key of every longer value that starts with the same bytes).
    package static func isDistinct(_ value: Value) -> Bool {
        switch value {
        case .string(let s): return s.utf8.count < maxLength - 1
        case .data(let d): return d.count < maxLength - 1
        default: return true
        }
    }
}
