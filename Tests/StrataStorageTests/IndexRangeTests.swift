import Foundation
import XCTest
@testable import StrataStorage

/// Range and prefix scans of indexes, on the value kinds the object API cannot index yet
/// (floats, doubles) and at the edges of the key encoding (-0.0, NaN, infinities, nulls).
final class IndexRangeTests: StorageFileTestCase {
    private let sample = ClassSchema(name: "Sample", properties: [
        PropertySchema(name: "d", type: .double, isOptional: true, isIndexed: true, id: 0),
        PropertySchema(name: "f", type: .float, isIndexed: true, id: 1),
    ])

    private let doubles: [Double?] = [nil, -.infinity, -1e300, -2.5, -1, -0.0, 0, 1e-300, 1, 2.5, 1e300, .infinity, .nan, -.nan, nil]

    /// Stores one object per double (the float column holds the same value as a Float) and
    /// runs `body` with the table and a function from keys to the stored doubles.
    private func withSamples(_ body: (StorageTransaction, Table, (ObjectKey) -> Double?) throws -> Void) throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [sample])
        let table = try XCTUnwrap(try txn.table("Sample"))
        var byKey: [ObjectKey: Double?] = [:]
        for d in doubles {
            let key = try txn.objects.insert(table, values: [d.map(Value.double) ?? .null, .float(Float(d ?? 0))])
            byKey[key] = d
        }
        try body(txn, table) { byKey[$0]! }
    }

    /// The stored doubles a range must return: every non-null, non-NaN value inside it.
    private func expected(_ low: Double?, _ lowIn: Bool, _ high: Double?, _ highIn: Bool) -> [Double] {
        doubles.compactMap { $0 }.filter { d in
            !d.isNaN && (low.map { lowIn ? d >= $0 : d > $0 } ?? true) && (high.map { highIn ? d <= $0 : d < $0 } ?? true)
        }.sorted()
    }

    func testIntegerCountCountsTheIntegersBetweenIntegerBounds() {
        XCTAssertEqual(IndexRange(lower: .int(5), upper: .int(9)).integerCount, 5)
        XCTAssertEqual(IndexRange(lower: .int(5), lowerInclusive: false, upper: .int(9), upperInclusive: false).integerCount, 3)
        XCTAssertEqual(IndexRange(lower: .int(5), lowerInclusive: false, upper: .int(5)).integerCount, 0)
        XCTAssertEqual(IndexRange(lower: .int(9), upper: .int(5)).integerCount, 0)
        XCTAssertEqual(IndexRange(lower: .int(.max), lowerInclusive: false, upper: .int(.max)).integerCount, 0)
        XCTAssertEqual(IndexRange(lower: .int(.min), upper: .int(.min), upperInclusive: false).integerCount, 0)
        XCTAssertEqual(IndexRange(lower: .int(-1), upper: .int(.max - 1)).integerCount, nil, "more than Int.max")
        XCTAssertEqual(IndexRange(lower: .int(0), upper: .int(.max - 1)).integerCount, Int.max)
        XCTAssertNil(IndexRange(lower: .int(0), upper: nil).integerCount)
        XCTAssertNil(IndexRange(lower: .double(0), upper: .double(3)).integerCount)
    }

    func testDoubleRangesReturnExactlyTheOrderedValuesInside() throws {
        try withSamples { txn, table, value in
            let d = sample.properties[0]
            let bounds: [Double?] = [nil, -.infinity, -2.5, -0.0, 0, 1, .infinity]
            for low in bounds {
                for high in bounds {
                    for (lowIn, highIn) in [(true, true), (false, false), (true, false)] {
                        let range = IndexRange(lower: low.map(Value.double), lowerInclusive: lowIn, upper: high.map(Value.double), upperInclusive: highIn)
                        let found = try txn.indexes.lookup(table, d, in: range).compactMap(value).filter { !$0.isNaN }.sorted()
                        XCTAssertEqual(found, expected(low, lowIn, high, highIn), "\(range)")
                    }
                }
            }
        }
    }

    func testNegativeZeroSortsWithZeroAndNullsAreNeverInARange() throws {
        try withSamples { txn, table, value in
            let d = sample.properties[0]
            let zero = try txn.indexes.lookup(table, d, in: IndexRange(lower: .double(-0.0), upper: .double(0))).map(value)
            XCTAssertEqual(zero.count, 2)
            XCTAssertTrue(zero.allSatisfy { $0 == 0 })
            XCTAssertEqual(try txn.indexes.lookup(table, d, in: IndexRange(lower: .double(0), lowerInclusive: false, upper: nil)).compactMap(value).filter { !$0.isNaN }.min(), 1e-300)
            let all = try txn.indexes.lookup(table, d, in: IndexRange(lower: nil, upper: nil)).map(value)
            XCTAssertEqual(all.count, doubles.count - 2, "everything but the two nulls, NaNs included")
            XCTAssertFalse(all.contains { $0 == nil })
        }
    }

    func testFloatKeysAreStoredAsDoubles() throws {
        try withSamples { txn, table, value in
            let f = sample.properties[1]
            let found = try txn.indexes.lookup(table, f, in: IndexRange(lower: .float(-2.5), upper: .float(1))).map(value)
            XCTAssertEqual(found.compactMap { $0 }.sorted(), [-2.5, -1, -0.0, 0, 1e-300, 1])
        }
    }

    func testPrefixScansStopAtTheFirstKeyWithoutThePrefix() throws {
        let schema = ClassSchema(name: "Words", properties: [PropertySchema(name: "w", type: .string, isOptional: true, isIndexed: true, id: 0)])
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [schema])
        let table = try XCTUnwrap(try txn.table("Words"))
        let words: [String?] = [nil, "", "a", "ab", "abc", "abd", "ac", "b", "\u{FF}", String(repeating: "z", count: 600) + "1", String(repeating: "z", count: 600) + "2"]
        var byKey: [ObjectKey: String?] = [:]
        for w in words { byKey[try txn.objects.insert(table, values: [w.map(Value.string) ?? .null])] = w }
        func prefix(_ p: String) throws -> [String] {
            try txn.indexes.lookup(table, schema.properties[0], prefix: p).compactMap { byKey[$0]! }.sorted()
        }
        XCTAssertEqual(try prefix("ab"), ["ab", "abc", "abd"])
        XCTAssertEqual(try prefix("abc"), ["abc"])
        XCTAssertEqual(try prefix("b"), ["b"])
        XCTAssertEqual(try prefix("c"), [])
        XCTAssertEqual(try prefix("").count, words.count - 1, "the empty prefix reaches every non-null key; the predicate rejects them")
        XCTAssertEqual(try prefix(String(repeating: "z", count: 600) + "1").count, 2, "keys are cut at 510 bytes: a superset")
        XCTAssertEqual(try txn.indexes.lookup(table, schema.properties[0], in: IndexRange(lower: .string("ab"), lowerInclusive: false, upper: .string("b"), upperInclusive: false))
                       .compactMap { byKey[$0]! }.sorted(), ["abc", "abd", "ac"])
    }
}
