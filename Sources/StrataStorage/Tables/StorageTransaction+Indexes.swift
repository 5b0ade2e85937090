import Foundation
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
        // Read before the closure, which would otherwise copy the whole property.
        let unique = property.isPrimaryKey
        var keys: [ObjectKey] = []
        do {
            try IndexKey.withKey(value) { k in
                if unique {
                    if let found = try lmdb.get(db, key: k) { keys.append(ObjectKeyCoding.decode(found)) }
                } else {
                    try lmdb.withCursor(db) { try $0.forEachDuplicate(of: k) { keys.append(ObjectKeyCoding.decode($0)) } }
                }
            }
        } catch let error as LMDBError {
            throw StorageError.lmdb(error, "Reading the index of '\(table.name).\(property.name)'")
        }
        if !IndexKey.isDistinct(value) {
            keys = try keys.filter { try row(table, $0)?.value(property) == value }
        }
        return keys
    }

    func addIndexEntry(_ table: Table, _ property: PropertySchema, _ value: Value, _ key: ObjectKey) throws {
        try withIndexEntry(table, property, value, key) { db, indexKey, objectKey in
            do {
                try lmdb.put(db, key: indexKey, value: objectKey, flags: property.isPrimaryKey ? .noOverwrite : PutFlags())
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

/// A range of values of one property for an index scan: each bound optional (unbounded) and
/// inclusive or exclusive. Bounds are of the property's stored type and never null or NaN.
package struct IndexRange: Equatable, Sendable, CustomStringConvertible {
    /// The smallest value, or nil for no lower bound.
    package var lower: Value?
    /// Whether a value equal to `lower` is inside.
    package var lowerInclusive: Bool
    /// The largest value, or nil for no upper bound.
    package var upper: Value?
    /// Whether a value equal to `upper` is inside.
    package var upperInclusive: Bool

    /// A range from its bounds.
    package init(lower: Value?, lowerInclusive: Bool = true, upper: Value?, upperInclusive: Bool = true) {
        self.lower = lower
        self.lowerInclusive = lowerInclusive
        self.upper = upper
        self.upperInclusive = upperInclusive
    }

    /// Interval notation: `[3, 10)`, `(-inf, 'm']`; dates as ISO 8601.
    package var description: String {
        (lower.map { (lowerInclusive ? "[" : "(") + rangeText($0) } ?? "(-inf") + ", "
            + (upper.map { rangeText($0) + (upperInclusive ? "]" : ")") } ?? "+inf)")
    }
}

/// A bound as text: dates in ISO 8601 (UTC), strings quoted, numbers as written.
private func rangeText(_ v: Value) -> String {
    switch v {
    case .date(let d):
        let f = ISO8601DateFormatter()
        if d.timeIntervalSinceReferenceDate.rounded(.down) != d.timeIntervalSinceReferenceDate {
            f.formatOptions.insert(.withFractionalSeconds)
        }
        return f.string(from: d)
    case .string(let s): return "'\(s)'"
    default: return describe(v)
    }
}

extension StorageTransaction {
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
            try forEachRow(table, primaryKeyIn: range) { key, _ in try body(key) }
            return
        }
        let db = try indexDatabase(table, property)
        let start = range.lower.map(IndexKey.encode) ?? [1]
        let skipStart = range.lower.map { !range.lowerInclusive && IndexKey.isDistinct($0) } ?? false
        let end = range.upper.map(IndexKey.encode)
        let stopAtEnd = range.upper.map { !range.upperInclusive && IndexKey.isExact($0) } ?? false
        try lmdbCall("Reading the index of '\(table.name).\(property.name)'") {
            try start.withUnsafeBytes { s in
                try (end ?? []).withUnsafeBytes { e in
                    try lmdb.withCursor(db) { cursor in
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
                            guard try body(ObjectKeyCoding.decode(value)) else { break }
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
        let db = try indexDatabase(table, property)
        let start = IndexKey.encode(.string(prefix))
        try lmdbCall("Reading the index of '\(table.name).\(property.name)'") {
            try start.withUnsafeBytes { s in
                try lmdb.withCursor(db) { cursor in
                    var entry = try cursor.seek(atLeast: s)
                    while let e = entry, e.key.count >= s.count, compareBytes(UnsafeRawBufferPointer(rebasing: e.key[..<s.count]), s) == 0 {
                        guard try body(ObjectKeyCoding.decode(e.value)) else { break }
                        entry = try cursor.next()
                    }
                }
            }
        }
    }

    /// The property's index database; traps if it has none (a planning error).
    func indexDatabase(_ table: Table, _ property: PropertySchema) throws -> Database {
        guard let db = table.indexes[property.id] else {
            preconditionFailure("index scan on '\(table.name).\(property.name)', which has no index")
        }
        return db
    }

    /// Calls `body` with each object (key and row) whose integer primary key lies in `range`,
    /// in key order, until it returns false, when the primary key is the object key itself
    /// (object keys are the key with the sign bit flipped, big endian); returns false without
    /// reading anything otherwise. The rows are read in one cursor walk over the table.
    @discardableResult
    package func forEachRow(_ table: Table, primaryKeyIn range: IndexRange,
                            _ body: (ObjectKey, RowView) throws -> Bool) throws -> Bool {
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
        try lmdbCall("Reading '\(table.name)'") {
            try withUnsafeBytes(of: &start) { s in
                try lmdb.withCursor(table.rows) { cursor in
                    var entry = try cursor.seek(atLeast: s)
                    while let e = entry {
                        let k = ObjectKeyCoding.decode(e.key)
                        if k > high { break }
                        guard let row = RowView(e.value) else { throw damagedRow(table, k) }
                        guard try body(k, row) else { break }
                        entry = try cursor.next()
                    }
                }
            }
        }
        return true
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

extension StorageTransaction {
    /// Calls `body` with the row of each of `keys` that exists, in the order of `keys`, through
    /// one cursor: a key at most 4 after the one under the cursor (so at most 4 entries on)
    /// is reached by stepping, any other by a seek, so keys in table order are read in one
    /// forward walk, and sparse keys cost one seek each.
    package func forEachRow(_ table: Table, keys: [ObjectKey], _ body: (ObjectKey, RowView) throws -> Void) throws {
        if keys.isEmpty { return }
        try lmdbCall("Reading '\(table.name)'") {
            try lmdb.withCursor(table.rows) { cursor in
                var current: (key: ObjectKey, value: UnsafeRawBufferPointer)?
                for key in keys {
                    while let c = current, c.key < key, key &- c.key <= 4 {
                        current = try cursor.next().map { (ObjectKeyCoding.decode($0.key), $0.value) }
                    }
                    if current?.key != key {
                        var k = ObjectKeyCoding.encode(key)
                        current = try withUnsafeBytes(of: &k) { try cursor.seek(atLeast: $0) }.map { (ObjectKeyCoding.decode($0.key), $0.value) }
                    }
                    guard let c = current, c.key == key else { continue }
                    guard let row = RowView(c.value) else { throw damagedRow(table, key) }
                    try body(key, row)
                }
            }
        }
    }
}
