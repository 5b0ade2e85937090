import Foundation
import XCTest
import StrataValues
@testable import StrataStorage

/// ObjectId values in the storage layer: slot bytes, index keys and the order of values.
final class ObjectIdEncodingTests: XCTestCase {
    private let ids = ["000000000000000000000000", "000000000000000000000001", "00000000ff00000000000000",
                       "0000000100000000000000ff", "7fffffffffffffffffffffff", "ffffffffffffffffffffffff"]
        .map { ObjectId($0) }

    func testSlotBytesAreTheTwelveBytesInOrderAndDecodeBack() throws {
        let id = ObjectId("5f5e10000a0b0c0102000001")
        var bytes: [UInt8] = []
        ValueCodec.encode(.objectId(id), into: &bytes)
        XCTAssertEqual(bytes, [0x5f, 0x5e, 0x10, 0x00, 0x0a, 0x0b, 0x0c, 0x01, 0x02, 0x00, 0x00, 0x01])
        XCTAssertEqual(bytes.withUnsafeBytes { ValueCodec.decode($0, as: .objectId) }, .objectId(id))
        XCTAssertEqual([UInt8](repeating: 1, count: 11).withUnsafeBytes { ValueCodec.decode($0, as: .objectId) }, .null,
                       "a slot of another length is not an ObjectId")
        XCTAssertEqual(ValueCodec.defaultValue(.objectId), .objectId(ObjectId()))
    }

    func testIndexKeysAreTheTagAndTheBytesAndSortInObjectIdOrder() {
        let keys = ids.map { IndexKey.encode(.objectId($0)) }
        for (id, key) in zip(ids, keys) {
            XCTAssertEqual(key.count, 13)
            XCTAssertEqual(key.first, 1)
            XCTAssertTrue(IndexKey.isExact(.objectId(id)))
        }
        for i in 1..<keys.count {
            XCTAssertLessThan(compareBytes(keys[i - 1], keys[i]), 0, "\(ids[i - 1]) < \(ids[i])")
            XCTAssertLessThan(Value.compare(.objectId(ids[i - 1]), .objectId(ids[i])), 0)
        }
        XCTAssertLessThan(compareBytes(IndexKey.encode(.null), keys[0]), 0)
    }

    func testTheStoredTypeCodeIsTen() {
        XCTAssertEqual(PropertyType.objectId.rawValue, 10)
        XCTAssertEqual(PropertyType(rawValue: 10), .objectId)
        XCTAssertEqual(PropertyType.objectId.description, "objectId")
    }
}
