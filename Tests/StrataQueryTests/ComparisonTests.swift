import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// Comparisons on every property type, through the compiled fast paths.
final class ComparisonTests: QueryTestCase {
    func testIntegerComparisonsUseEveryOperator() {
        XCTAssertEqual(names("age == 9"), ["Rex"])
        XCTAssertEqual(names("age = 9"), ["Rex"])
        XCTAssertEqual(names("age != 9"), ["Bella", "bob", "Éclair", "Straße", ""])
        XCTAssertEqual(names("age <> 9").count, 5)
        XCTAssertEqual(names("age < 3"), ["Éclair", ""])
        XCTAssertEqual(names("age <= 3"), ["Bella", "Éclair", ""])
        XCTAssertEqual(names("age > 8"), ["Rex", "bob"])
        XCTAssertEqual(names("age >= 9"), ["Rex", "bob"])
        XCTAssertEqual(names("age => 9"), ["Rex", "bob"])
        XCTAssertEqual(names("age =< 1"), ["Éclair", ""])
    }

    func testConstantOnTheLeftIsMirrored() {
        XCTAssertEqual(names("8 < age"), ["Rex", "bob"])
        XCTAssertEqual(names("9 == age"), ["Rex"])
    }

    func testIntegerPropertyComparesWithDoubleConstants() {
        XCTAssertEqual(names("age > 8.5"), ["Rex", "bob"])
        XCTAssertEqual(names("age == 9.0"), ["Rex"])
        XCTAssertEqual(names("age == 9.5"), [])
        XCTAssertEqual(names("age != 9.5").count, 6)
    }

    func testNegativeAndHexIntegers() {
        XCTAssertEqual(names("score == -7"), ["bob"])
        XCTAssertEqual(names("age == 0xC"), ["bob"])
        XCTAssertEqual(names("score < -0x6"), ["bob"])
    }

    func testDoubleAndFloatComparisons() {
        XCTAssertEqual(names("weight > 20"), ["Rex"])
        XCTAssertEqual(names("weight >= 20"), ["Rex", "Straße"])
        XCTAssertEqual(names("weight == 4.25"), ["Éclair"])
        XCTAssertEqual(names("height == 0.6"), ["Rex"])
        XCTAssertEqual(names("height < 0.3"), ["Éclair", ""])
        XCTAssertEqual(names("height > %@", Float(0.5)), ["Rex", "Straße"])
    }

    func testDateComparisons() {
        let t = Date(timeIntervalSinceReferenceDate: 1500)
        XCTAssertEqual(names("born > %@", t), ["Bella", "bob"])
        XCTAssertEqual(names("born == %@", t), ["Straße"])
        XCTAssertEqual(names("born BETWEEN {%@, %@}", Date(timeIntervalSinceReferenceDate: 0), t), ["Rex", "Straße", ""])
        let literal = Date(timeIntervalSinceReferenceDate: 0).timeIntervalSince1970
        XCTAssertEqual(names("born < T\(Int(literal)):0"), ["Éclair"])
        XCTAssertEqual(names("born < 2001-01-01@00:00:00"), ["Éclair"])
        XCTAssertEqual(names("born == 2001-01-01@00:25:00"), ["Straße"])
    }

    func testBoolComparisons() {
        XCTAssertEqual(names("isGood == true"), ["Rex", "bob", "Straße"])
        XCTAssertEqual(names("isGood == FALSE"), ["Bella", "Éclair", ""])
        XCTAssertEqual(names("isGood != true"), ["Bella", "Éclair", ""])
        XCTAssertEqual(names("isGood == %@", true), ["Rex", "bob", "Straße"])
    }

    func testUUIDComparisons() {
        XCTAssertEqual(names("tag == %@", Self.tagA), ["Rex", "Éclair"])
        XCTAssertEqual(names("tag == uuid(11111111-2222-3333-4444-555555555555)"), ["Rex", "Éclair"])
        XCTAssertEqual(names("tag != %@", Self.tagA), ["Bella", "bob", "Straße", ""])
    }

    func testDataComparisons() {
        XCTAssertEqual(names("photo == %@", Data([1, 2, 3])), ["Rex"])
        XCTAssertEqual(names("photo BEGINSWITH %@", Data([1, 2])), ["Rex"])
        XCTAssertEqual(names("photo == B64\"AQID\""), ["Rex"])
    }

    func testStringEqualityAndOrderingUseUTF8Bytes() {
        XCTAssertEqual(names("name == 'Rex'"), ["Rex"])
        XCTAssertEqual(names("name == \"bob\""), ["bob"])
        XCTAssertEqual(names("name < 'C'"), ["Bella", ""])
        XCTAssertEqual(names("name > 'a'"), ["bob", "Éclair"])
        XCTAssertEqual(names("name BETWEEN {'B', 'S'}"), ["Rex", "Bella"])
    }

    func testPropertyToPropertyComparison() {
        XCTAssertEqual(names("age > score"), ["Rex", "bob", "Éclair"])
        XCTAssertEqual(names("nickname == name"), [])
        XCTAssertEqual(names("nickname BEGINSWITH[c] name"), ["Rex", "Straße"])
    }

    func testBetweenIsInclusive() {
        XCTAssertEqual(names("age BETWEEN {3, 9}"), ["Rex", "Bella", "Straße"])
        XCTAssertEqual(names("weight BETWEEN {%@, %@}", 4.25, 12), ["bob", "Éclair"])
        XCTAssertEqual(names("age BETWEEN %@", [7, 9]), ["Rex", "Straße"])
    }

    func testInWithListsAndArrayArguments() {
        XCTAssertEqual(names("age IN {1, 9, 100}"), ["Rex", "Éclair"])
        XCTAssertEqual(names("name IN %@", ["bob", "Rex", "nobody"]), ["Rex", "bob"])
        XCTAssertEqual(names("name IN[c] {'BOB', 'rex'}"), ["Rex", "bob"])
        XCTAssertEqual(names("age IN {}"), [])
        XCTAssertEqual(names("score IN {nil, 5}"), ["Rex", "Bella", ""])
        // A number is unordered against null, and null equals null (realm-core's order).
        for op in [">", "<"] {
            XCTAssertEqual(names("score \(op) nil"), [], "an optional number ordered strictly against nil matches nothing")
            XCTAssertEqual(names("score \(op) %@", NSNull()), [])
        }
        for op in [">=", "<="] {
            XCTAssertEqual(names("score \(op) nil"), ["Bella", ""], "only the nulls: null >= null")
            XCTAssertEqual(names("score \(op) %@", NSNull()), ["Bella", ""])
        }
        XCTAssertEqual(names("NOT age IN {1, 9}").count, 4)
        XCTAssertEqual(names("tag IN %@", [Self.tagA]), ["Rex", "Éclair"])
        XCTAssertEqual(names("age IN %@", Set([3, 7])), ["Bella", "Straße"])
    }

    func testSlotsMissingFromOldRowsReadAsDefaults() {
        let old: [[Value]] = [[.int(1), .string("Old")]]
        XCTAssertEqual(names("age == 0", rows: old), ["Old"])
        XCTAssertEqual(names("score == nil", rows: old), ["Old"])
        XCTAssertEqual(names("isGood == false", rows: old), ["Old"])
        XCTAssertEqual(names("weight != 3", rows: old), ["Old"])
    }

    func testArgumentsOfEveryIntegerWidthAndFoundationType() {
        XCTAssertEqual(names("age == %@", Int8(9)), ["Rex"])
        XCTAssertEqual(names("age == %@", Int16(9)), ["Rex"])
        XCTAssertEqual(names("age == %@", Int32(9)), ["Rex"])
        XCTAssertEqual(names("age == %@", Int64(9)), ["Rex"])
        XCTAssertEqual(names("age == %@", UInt(9)), ["Rex"])
        XCTAssertEqual(names("age == %@", UInt8(9)), ["Rex"])
        XCTAssertEqual(names("age < %@", UInt64.max).count, 6)
        XCTAssertEqual(names("age == %@", NSNumber(value: 9)), ["Rex"])
        XCTAssertEqual(names("name == %@", NSString(string: "Rex")), ["Rex"])
        XCTAssertEqual(names("name == %@", Substring("Rex")), ["Rex"])
        XCTAssertEqual(error("age IN %@", [Int?.none, 9])?.message, "'age' is not optional, so it cannot be compared with nil")
        XCTAssertEqual(names("score IN %@", [Int?.none, 5]), ["Rex", "Bella", ""])
    }
}
