import Foundation
import XCTest
@testable import StrataValues

final class Decimal128Tests: XCTestCase {
    private func d(_ text: String) -> Decimal128 { try! Decimal128(string: text) }

    func testLiteralsAndInitialisersAgreeInValue() {
        let fromFloat: Decimal128 = 3.14159
        XCTAssertEqual(fromFloat, Decimal128(number: 3.14159))
        XCTAssertEqual(fromFloat, "3.14159")
        XCTAssertEqual(Decimal128(integerLiteral: 123), "123")
        XCTAssertEqual(Decimal128(exactly: 5), 5)
        XCTAssertEqual(Decimal128(value: 42), 42)
        XCTAssertEqual(Decimal128(value: "1.25"), 1.25)
        XCTAssertEqual(Decimal128(value: Decimal(string: "2.5")!), 2.5)
        XCTAssertTrue(Decimal128(value: NSNull()).isNaN)
        XCTAssertEqual(Decimal128().stringValue, "0")
    }

    func testADoubleKeepsFifteenSignificantDigits() {
        XCTAssertEqual(Decimal128(floatLiteral: 3.14159).stringValue, "3.14159000000000")
        XCTAssertEqual(Decimal128(floatLiteral: 2.5).stringValue, "2.5")
        XCTAssertEqual(Decimal128(floatLiteral: 0.1 + 0.2), "0.300000000000000")
        XCTAssertEqual(Decimal128(floatLiteral: 1e300).stringValue, "1.00000000000000E300")
        XCTAssertEqual(Decimal128(floatLiteral: 1e15).stringValue, "1E15")
        XCTAssertEqual(Decimal128(value: Float(0.1)).stringValue, "1.000000E-1")
        XCTAssertTrue(Decimal128(floatLiteral: .nan).isNaN)
        XCTAssertEqual(Decimal128(floatLiteral: -.infinity).stringValue, "-Inf")
    }

    func testTenthsAddExactly() {
        XCTAssertEqual(d("0.1") + d("0.2"), d("0.3"))
        XCTAssertEqual((d("1.234567") + d("9.876543")).description, "11.111110")
        XCTAssertEqual((d("2.5") - d("3.5")).description, "-1.0")
    }

    func testProductsAndQuotientsKeepThePreferredExponent() {
        XCTAssertEqual((d("0.21") * d("0.7")).stringValue, "1.47E-1")
        XCTAssertEqual((d("7") / d("3.5")).stringValue, "2")
        XCTAssertEqual((d("0.21") / d("0.7")).stringValue, "3E-1")
        XCTAssertEqual((d("1") / d("3")).stringValue, "3.333333333333333333333333333333333E-1")
        XCTAssertEqual((d("2") / d("3")).stringValue, "6.666666666666666666666666666666667E-1")
        XCTAssertEqual((d("1E-6176") / d("2")).stringValue, "0E-6176")
    }

    func testResultsRoundHalfToEvenAtThirtyFourDigits() {
        let ones = d("1111111111111111111111111111111111")  // 34 digits
        XCTAssertEqual((ones * d("10") + d("5")).stringValue, "1.111111111111111111111111111111112E34")
        XCTAssertEqual((d("1111111111111111111111111111111110") * d("10") + d("5")).stringValue,
                       "1.111111111111111111111111111111110E34")
        XCTAssertEqual(d("12345678901234567890123456789012345").stringValue, "1.234567890123456789012345678901234E34")
        XCTAssertEqual(d("12345678901234567890123456789012345000001").stringValue, "1.234567890123456789012345678901235E40")
        XCTAssertEqual((d("1E40") + d("1")).stringValue, "1.000000000000000000000000000000000E40")
        XCTAssertEqual((d("1E40") - d("1")).stringValue, "1.000000000000000000000000000000000E40")
        XCTAssertEqual((d("1E33") - d("0.5")).stringValue, "999999999999999999999999999999999.5")
        XCTAssertEqual((d("1E34") - d("0.5")).stringValue, "1.000000000000000000000000000000000E34")
        XCTAssertEqual((d("99999999999999999999") * d("99999999999999999999")).stringValue,
                       "9.999999999999999999800000000000000E39")
    }

    func testOverflowGivesInfinityAndZeroDividesToInfinity() {
        XCTAssertEqual((Decimal128.max + Decimal128.max).stringValue, "Inf")
        XCTAssertEqual((Decimal128.min * d("10")).stringValue, "-Inf")
        XCTAssertEqual((d("1") / d("0")).stringValue, "Inf")
        XCTAssertEqual((d("-1") / d("0")).stringValue, "-Inf")
        XCTAssertTrue((d("0") / d("0")).isNaN)
        XCTAssertTrue((d("Inf") - d("Inf")).isNaN)
        XCTAssertEqual(d("1E6200").stringValue, "Inf")
        XCTAssertEqual(d("1E6111").stringValue, "1E6111")
        XCTAssertEqual(d("1E6120").stringValue, "1.000000000E6120")
        XCTAssertEqual(d("1E-7000").stringValue, "0E-6176")
    }

    func testComparisonIsByValueAcrossExponents() {
        XCTAssertEqual(d("1.0"), d("1.00"))
        XCTAssertEqual(d("1.0").hashValue, d("1.00").hashValue)
        XCTAssertEqual(d("-0"), d("0E5"))
        XCTAssertLessThan(d("-1E10"), d("-5"))
        XCTAssertLessThan(d("0.0999"), d("0.1"))
        XCTAssertGreaterThan(d("1E3"), d("999.99"))
        XCTAssertLessThan(Decimal128.min, Decimal128.max)
        XCTAssertLessThan(d("-Inf"), Decimal128.min)
        XCTAssertGreaterThan(d("Inf"), Decimal128.max)
    }

    func testNaNEqualsNothingAndOrdersFirst() {
        let nan = d("NaN")
        XCTAssertNotEqual(nan, nan)
        XCTAssertTrue(nan.isNaN && nan.isSignaling && nan.isSignalingNaN)
        XCTAssertLessThan(nan, d("-Inf"))
        XCTAssertFalse(nan < nan)
        XCTAssertTrue(d("nan").isNaN)
    }

    func testNegativeZeroKeepsItsSign() {
        XCTAssertEqual(d("-0").stringValue, "-0")
        XCTAssertEqual((d("-0") + d("-0")).stringValue, "-0")
        XCTAssertEqual((d("-0") + d("0")).stringValue, "0")
        XCTAssertEqual((d("1.5") - d("1.5")).stringValue, "0E-1")
    }

    func testTextRoundTrips() {
        for text in ["1E-1", "12.5", "-1.5E10", "NaN", "Inf", "-Inf", "1E-5", "123", "11.111110", "-0", "0E-1",
                     "9.999999999999999999999999999999999E6144", "1E-6176", "1.5E-7"] {
            XCTAssertEqual(d(text).stringValue, text)
            XCTAssertEqual(d(d(text).stringValue).bid.bits, d(text).bid.bits, text)
        }
        XCTAssertEqual(d("-1.5E+10").stringValue, "-1.5E10")
        XCTAssertEqual(d("0.1").stringValue, "1E-1", "Realm writes a lone digit with an exponent")
        XCTAssertEqual(d("+.5").stringValue, "5E-1")
        XCTAssertEqual(d("Infinity"), d("inf"))
        XCTAssertEqual(d("1.5e3"), 1500)
    }

    func testBadStringsThrowOrAreNaNAsLiterals() {
        for bad in ["", "abc", "1.2.3", "1e", "1e+", "--1", " 1", "1 ", ".", "+", "1,5", "0x10", "NaNa", "e5"] {
            XCTAssertThrowsError(try Decimal128(string: bad), "'\(bad)'") { error in
                XCTAssertEqual("\(error)", "Invalid Decimal128 string '\(bad)': expected a decimal number such as 1.5, -2E10, Inf or NaN")
            }
            XCTAssertTrue(Decimal128(value: bad).isNaN, "'\(bad)' as a value is NaN, as in RealmSwift")
        }
        let literal: Decimal128 = "not a number"
        XCTAssertTrue(literal.isNaN)
    }

    func testMagnitudeNegateAndStrides() {
        let x: Decimal128 = -123.321
        XCTAssertEqual(x.magnitude, 123.321)
        x.negate()
        XCTAssertEqual(x, 123.321)
        XCTAssertEqual(d("-150.0").advanced(by: 300.0), 150.0)
        XCTAssertEqual(d("10.0").distance(to: 5.0), -5.0)
        var sum: Decimal128 = 1
        sum += 2
        sum *= 3
        sum -= 1
        sum /= 4
        XCTAssertEqual(sum, 2)
    }

    func testGenericNumericCodeAddsDecimalsExactly() {
        func total<T: Numeric>(_ values: [T]) -> T { values.reduce(.zero, +) }
        XCTAssertEqual(total([d("0.1"), d("0.2"), d("0.3")]).stringValue, "6E-1")
        XCTAssertEqual(Decimal128.zero.stringValue, "0")
        XCTAssertNil(Decimal128(exactly: UInt128.max))
        XCTAssertEqual(d("1.5E3").decimalValue, Decimal(1500))
        XCTAssertEqual(d("-2.5E-1").doubleValue, -0.25)
        XCTAssertEqual(d("-Inf").doubleValue, -.infinity)
    }

    func testTheEncodingIsBIDAsRealmStoresIt() {
        XCTAssertEqual(d("1").bid.bits, 0x3040_0000_0000_0000 << 64 | 1)
        XCTAssertEqual(d("-1.5").bid.bits, 0xB03E_0000_0000_0000 << 64 | 15)
        XCTAssertEqual(d("Inf").bid.bits, 0x7800_0000_0000_0000 << 64)
        XCTAssertEqual(d("NaN").bid.bits, 0x7C00_0000_0000_0000 << 64)
        // A coefficient above 34 nines is non-canonical and reads as zero.
        XCTAssertEqual(Decimal128(bid: BID128(bits: 0x3040_0000_0000_0000 << 64 | BID128.maxCoefficient + 1)).stringValue, "0")
        // Two 8-byte words, so that an enum holding one keeps 8-byte alignment.
        XCTAssertEqual(MemoryLayout<BID128>.size, 16)
        XCTAssertEqual(MemoryLayout<BID128>.alignment, 8)
    }

    func testCodableUsesTheText() throws {
        let data = try JSONEncoder().encode([d("1.50"), d("NaN")])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"["1.50","NaN"]"#)
        let back = try JSONDecoder().decode([Decimal128].self, from: #"["0.1", 7, 2.5]"#.data(using: .utf8)!)
        XCTAssertEqual(back, [0.1, 7, 2.5])
        XCTAssertThrowsError(try JSONDecoder().decode([Decimal128].self, from: #"["x"]"#.data(using: .utf8)!))
    }
}

final class Decimal128OrderedKeyTests: XCTestCase {
    private func key(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        BID128(text: text)!.appendOrderedKey(to: &out)
        return out
    }

    func testKeysSortAsTheNumbersAndEqualNumbersShareAKey() {
        let ascending = ["NaN", "-Inf", "-9.999999999999999999999999999999999E6144", "-1E10", "-1.5", "-1", "-1E-6176",
                         "0", "1E-6176", "1E-30", "0.1", "0.11", "1", "1.000000000000000000000000000000001", "2", "10",
                         "1E6144", "Inf"]
        let keys = ascending.map(key)
        for (a, b) in zip(keys, keys.dropFirst()) { XCTAssertLessThan(a.lexicographicallyPrecedes(b) ? -1 : 1, 0, "\(a) \(b)") }
        XCTAssertEqual(key("1.0"), key("1.00"))
        XCTAssertEqual(key("-0"), key("0E7"))
        XCTAssertEqual(key("-1.50"), key("-1.5"))
        XCTAssertEqual(key("1.5").count, 19)
    }
}
