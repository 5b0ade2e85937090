import Foundation
import XCTest
import Strata

/// `ObjectId` as a value, seen through `import Strata` alone: its string form, ordering,
/// generation and `Codable`.
final class ObjectIdValueTests: XCTestCase {
    func testAStringOfTwentyFourHexDigitsRoundTripsInLowercase() throws {
        let id = try ObjectId(string: "000123450000FFBEEF91906C")
        XCTAssertEqual(id.stringValue, "000123450000ffbeef91906c")
        XCTAssertEqual(id.description, id.stringValue)
        XCTAssertEqual(try ObjectId(string: id.stringValue), id)
        XCTAssertEqual(ObjectId("000123450000ffbeef91906c"), id)
    }

    func testStringsThatAreNotTwentyFourHexDigitsThrowAnErrorNamingTheText() {
        let bad = ["", "000123450000ffbeef91906", "000123450000ffbeef91906c0", "000123450000ffbeef91906g",
                   " 00123450000ffbeef91906c", "000123450000ffbeef9190é", "0x0123450000ffbeef91906c"]
        for text in bad {
            XCTAssertThrowsError(try ObjectId(string: text), text) { error in
                let error = error as? ValueParsingError
                XCTAssertEqual(error?.typeName, "ObjectId")
                XCTAssertEqual(error?.text, text)
                XCTAssertEqual(error?.description, "Invalid ObjectId string '\(text)': expected 24 hexadecimal digits")
            }
        }
    }

    func testTheZeroAndTheLargestIdentifierAreTheEndsOfTheOrder() throws {
        let zero = ObjectId()
        let largest = try ObjectId(string: "ffffffffffffffffffffffff")
        XCTAssertEqual(zero.stringValue, String(repeating: "0", count: 24))
        XCTAssertEqual(zero.timestamp, Date(timeIntervalSince1970: 0))
        XCTAssertEqual(largest.timestamp, Date(timeIntervalSince1970: TimeInterval(UInt32.max)))
        let middle = try ObjectId(string: "000000000000000000000001")
        XCTAssertLessThan(zero, middle)
        XCTAssertLessThan(middle, largest)
        XCTAssertFalse(largest < largest)
    }

    func testOrderIsTheOrderOfTheBytesAcrossTheTimestampAndTheRest() throws {
        let texts = ["000000010000000000000000", "00000000ffffffffffffffff", "00000001000000000000000a",
                     "0000000100000000ff000000", "80000000000000000000000a"]
        let sorted = try texts.map(ObjectId.init(string:)).sorted().map(\.stringValue)
        XCTAssertEqual(sorted, texts.sorted())
    }

    func testAnIdentifierMadeOfItsPartsKeepsThemInItsBytes() {
        let when = Date(timeIntervalSince1970: 1_600_000_000.75)
        let id = ObjectId(timestamp: when, machineId: 0x0A0B0C, processId: 0x0102)
        XCTAssertEqual(id.timestamp, Date(timeIntervalSince1970: 1_600_000_000))
        XCTAssertEqual(id.stringValue, "5f5e10000a0b0c0102000000")
    }

    func testGeneratedIdentifiersAreDistinctAndCarryTheCurrentTime() {
        let before = Date().timeIntervalSince1970.rounded(.down)
        let ids = (0..<1000).map { _ in ObjectId.generate() }
        let after = Date().timeIntervalSince1970
        XCTAssertEqual(Set(ids).count, ids.count)
        for id in ids {
            XCTAssertGreaterThanOrEqual(id.timestamp.timeIntervalSince1970, before)
            XCTAssertLessThanOrEqual(id.timestamp.timeIntervalSince1970, after)
        }
        // Made in one process, the identifiers share their 5 random bytes.
        XCTAssertEqual(Set(ids.map { $0.stringValue.dropFirst(8).prefix(10) }).count, 1)
    }

    func testCodableUsesTheStringAndRejectsABadOne() throws {
        let id = ObjectId.generate()
        let json = try JSONEncoder().encode([id])
        XCTAssertEqual(String(decoding: json, as: UTF8.self), "[\"\(id.stringValue)\"]")
        XCTAssertEqual(try JSONDecoder().decode([ObjectId].self, from: json), [id])
        XCTAssertThrowsError(try JSONDecoder().decode([ObjectId].self, from: Data("[\"xyz\"]".utf8))) { error in
            guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(context.debugDescription.contains("Invalid ObjectId string 'xyz'"), context.debugDescription)
        }
    }

    func testAUserTypeCanExtendTheIdentifier() {
        XCTAssertEqual(ObjectId().isZero, true)
        XCTAssertEqual(ObjectId.generate().isZero, false)
    }
}

extension ObjectId {
    /// Whether every byte is zero (an extension a user module can write).
    fileprivate var isZero: Bool { self == ObjectId() }
}
