import Foundation
import LMDB

extension StorageTransaction {
    /// The objects whose string `property` passes `test`, read from its index alone: `test`
    /// sees each distinct stored value once (its UTF-8 bytes, nil for null), and the objects
    /// of every value that passes are returned in `matches`, in index order.
    ///
    /// A value of 510 bytes or more is cut in its index key, so it cannot be tested there:
    /// its objects are returned in `unsure`, for the caller to check on the row. This answers
    /// comparisons the index order cannot (`==[c]`, `CONTAINS`, `LIKE`) by testing each
    /// distinct value instead of each row.
    package func scanIndex(_ table: Table, _ property: PropertySchema,
                           where test: (UnsafeRawBufferPointer?) -> Bool) throws -> (matches: [ObjectKey], unsure: [ObjectKey]) {
        let db = try indexDatabase(table, property)
        var matches: [ObjectKey] = [], unsure: [ObjectKey] = []
        try lmdbCall("Reading the index of '\(table.name).\(property.name)'") {
            try lmdb.withCursor(db) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    let cut = e.key.count >= IndexKey.maxLength
                    guard cut || test(e.key[0] == 0 ? nil : UnsafeRawBufferPointer(rebasing: e.key[1...])) else {
                        entry = try cursor.nextKey()
                        continue
                    }
                    var duplicate: Cursor.Entry? = e
                    while let d = duplicate {
                        let key = ObjectKeyCoding.decode(d.value)
                        if cut { unsure.append(key) } else { matches.append(key) }
                        duplicate = property.isPrimaryKey ? nil : try cursor.nextDuplicate()
                    }
                    entry = try cursor.next()
                }
            }
        }
        return (matches, unsure)
    }

    /// How many entries the index of `property` holds (what `scanIndex` walks): one per object
    /// for a secondary index, nulls included.
    package func entryCount(_ table: Table, _ property: PropertySchema) throws -> Int {
        let db = try indexDatabase(table, property)
        return try lmdbCall("Reading the index of '\(table.name).\(property.name)'") { try lmdb.count(db) }
    }
}
