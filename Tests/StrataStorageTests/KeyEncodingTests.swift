import Foundation
import XCTest
@testable import StrataStorage

final class KeyEncodingTests: XCTestCase {
    private func assertOrderPreserved(_ values: [Value], file: StaticString = #filePath, line: UInt = #line) {
        let keys = values.map(IndexKey.encode)
        for i in 1..<keys.count {
            XCTAssertLessThan(compareBytes(keys[i - 1], keys[i]), 0, "\(values[i - 1]) < \(values[i])", file: file, line: line)
        }
    }

    func testIntegerIndexKeysSortNumerically() {
        assertOrderPreserved([.null, .int(.min), .int(-1000), .int(-1), .int(0), .int(1), .int(255), .int(256), .int(.max)])
    }

    func testDoubleIndexKeysSortNumerically() {
        assertOrderPreserved([.null, .double(-.infinity), .double(-1e300), .double(-1.5), .double(-1e-300), .double(0),
                              .double(1e-300), .double(2), .double(1e300), .double(.infinity)])
        XCTAssertEqual(IndexKey.encode(.double(-0.0)), IndexKey.encode(.double(0.0)))
    }

    func testStringIndexKeysSortByUTF8AndLongOnesAreTruncated() {
        assertOrderPreserved([.null, .string(""), .string("a"), .string("ab"), .string("b"), .string("é")])
        let long = String(repeating: "q", count: 600)
        XCTAssertEqual(IndexKey.encode(.string(long)).count, IndexKey.maxLength)
        XCTAssertFalse(IndexKey.isExact(.string(long)))
        XCTAssertTrue(IndexKey.isExact(.string("short")))
    }

    func testAKeyBuiltOnTheStackIsTheEncodedKey() {
        let values: [Value] = [.string(""), .string("name-1"), .string("é and a string too long to be a small one"),
                               .string(String(repeating: "q", count: 600)), .int(-3), .double(2.5), .null]
        for value in values {
            XCTAssertEqual(IndexKey.withKey(value) { Array($0) }, IndexKey.encode(value), "\(value)")
        }
    }

    func testIntegerPrimaryKeysMapToOrderedObjectKeys() {
        let pks: [Int64] = [.min, -1, 0, 1, .max]
        let keys = pks.map(ObjectKeyCoding.key(forIntegerPrimaryKey:))
        XCTAssertEqual(keys, keys.sorted())
    }
}
