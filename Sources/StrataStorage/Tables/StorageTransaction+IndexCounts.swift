import Foundation
import LMDB

/// How many entries an index access would read, so that a query planner can choose, among
/// several usable indexes, the one that narrows the rows most. Counting reads only the index.
extension StorageTransaction {
    /// How many index entries have the key of `value` (what `lookup(_:_:equalTo:)` reads): one
    /// seek and a duplicate count.
    package func entryCount(_ table: Table, _ property: PropertySchema, equalTo value: Value) throws -> Int {
        if property.isPrimaryKey, table.keysArePrimaryKeys {
            guard case .int(let i) = value else { return 0 }
            return try row(table, ObjectKeyCoding.key(forIntegerPrimaryKey: i)) == nil ? 0 : 1
        }
        guard let db = table.indexes[property.id] else {
            preconditionFailure("count on '\(table.name).\(property.name)', which has no index")
        }
        let indexKey = IndexKey.encode(value)
        return try lmdbCall("Reading the index of '\(table.name).\(property.name)'") {
            try indexKey.withUnsafeBytes { k in
                try lmdb.withCursor(db) { cursor in
                    guard try cursor.seek(exactly: k) != nil else { return 0 }
                    return property.isPrimaryKey ? 1 : try cursor.duplicateCount()
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
}
