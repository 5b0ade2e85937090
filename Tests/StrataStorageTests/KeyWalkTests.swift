import Foundation
import XCTest
@testable import StrataStorage

/// Walks over chosen keys and over primary-key ranges (`RowStore+Keys.swift`), which read
/// LMDB's entries in batches (`Cursor.scan`): each must meet exactly the rows asked for, at
/// batch edges, past the table's end and with rows missing in between.
final class KeyWalkTests: StorageFileTestCase {
    private let item = ClassSchema(name: "Item", properties: [
        PropertySchema(name: "id", type: .int, isPrimaryKey: true, id: 0),
        PropertySchema(name: "n", type: .int, id: 1),
    ])

    /// Ids 0..<1,000 but every seventh, each storing `n` = id × 3.
    private let ids = (0..<1_000).filter { $0 % 7 != 3 }

    private func withItems(_ body: (StorageTransaction, Table) throws -> Void) throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [item])
        let table = try XCTUnwrap(try txn.table("Item"))
        XCTAssertTrue(table.keysArePrimaryKeys)
        for id in ids { _ = try txn.objects.insert(table, values: [.int(Int64(id)), .int(Int64(id * 3))]) }
        try body(txn, table)
    }

    private func key(_ id: Int) -> ObjectKey { ObjectKeyCoding.key(forIntegerPrimaryKey: Int64(id)) }

    func testChosenKeysReadTheirRowsInTheirOrder() throws {
        try withItems { txn, table in
            let cases: [[Int]] = [
                [5], [5, 6], Array(0..<300), Array(100..<1_200), Array(stride(from: 990, to: 1_010, by: 1)),
                Array(stride(from: 0, to: 1_000, by: 5)), Array(stride(from: 0, to: 1_000, by: 9)),
                [900, 3, 500, 4], [7, 7, 8], [],
            ]
            for wanted in cases {
                var met: [Int] = []
                try txn.rows.forEach(table, keys: wanted.map(key)) { k, row in
                    XCTAssertEqual(k, self.key(Int(row.int(0))))
                    XCTAssertEqual(row.int(1), row.int(0) * 3)
                    met.append(Int(row.int(0)))
                }
                XCTAssertEqual(met, wanted.filter(Set(ids).contains), "keys \(wanted.prefix(5))… (\(wanted.count))")
            }
        }
    }

    func testPrimaryKeyRangesMeetExactlyTheIdsInside() throws {
        try withItems { txn, table in
            let bounds: [(Int?, Bool, Int?, Bool)] = [
                (nil, true, nil, true), (10, true, 12, true), (10, false, 12, false), (3, true, 3, true),
                (0, true, 127, true), (0, true, 128, false), (1, false, 900, true), (995, true, 5_000, true),
                (-5, true, 2, true), (600, true, 599, true), (1_000, true, nil, true),
            ]
            for (low, lowIn, high, highIn) in bounds {
                let range = IndexRange(lower: low.map { .int(Int64($0)) }, lowerInclusive: lowIn,
                                       upper: high.map { .int(Int64($0)) }, upperInclusive: highIn)
                let inside = ids.filter { id in
                    (low.map { lowIn ? id >= $0 : id > $0 } ?? true) && (high.map { highIn ? id <= $0 : id < $0 } ?? true)
                }
                var keys: [ObjectKey] = []
                XCTAssertTrue(try txn.rows.forEachKey(table, primaryKeyIn: range) { keys.append($0); return true })
                XCTAssertEqual(keys, inside.map(key), "\(range)")
                var rows: [Int] = []
                try txn.rows.forEach(table, primaryKeyIn: range) { _, row in rows.append(Int(row.int(0))); return true }
                XCTAssertEqual(rows, inside, "\(range)")
                // Stopping early stops the walk.
                var first: [ObjectKey] = []
                try txn.rows.forEachKey(table, primaryKeyIn: range) { first.append($0); return first.count < 3 }
                XCTAssertEqual(first, Array(inside.prefix(3)).map(key), "\(range)")
            }
        }
    }
}
