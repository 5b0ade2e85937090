import Foundation
import XCTest
@testable import StrataStorage
import StrataValues

/// Decimal128 values in the storage layer: slot bytes, index keys and the order of values.
final class DecimalValueTests: XCTestCase {
    private func decimal(_ text: String) -> Value { .decimal128(BID128(text: text)!) }

    func testTheSlotIsTheSixteenByteEncodingLittleEndianAndReadsBack() {
        var bytes: [UInt8] = []
        ValueCodec.encode(decimal("-1.5"), into: &bytes)
        XCTAssertEqual(bytes, [15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3E, 0xB0])
        for text in ["0", "-0", "1.50", "NaN", "-Inf", "9.999999999999999999999999999999999E6144", "1E-6176"] {
            var slot: [UInt8] = []
            ValueCodec.encode(decimal(text), into: &slot)
            let back = slot.withUnsafeBytes { ValueCodec.decode($0, as: .decimal128) }
            guard case .decimal128(let d) = back else { return XCTFail("\(text) read back as \(back)") }
            XCTAssertEqual(d.text, text)
        }
        XCTAssertEqual([UInt8](repeating: 0, count: 15).withUnsafeBytes { ValueCodec.decode($0, as: .decimal128) }, .null)
        XCTAssertEqual(ValueCodec.defaultValue(.decimal128), decimal("0"))
    }

    func testDecimalsCompareWithEachOtherAndWithNumbersByValue() {
        XCTAssertEqual(Value.compare(decimal("1.0"), decimal("1.00")), 0)
        XCTAssertEqual(decimal("1.0"), decimal("1.00"))
        XCTAssertEqual(decimal("1.0").hashValue, decimal("1.00").hashValue)
        XCTAssertEqual(Value.compare(decimal("2"), .int(2)), 0)
        XCTAssertEqual(Value.compare(.double(0.5), decimal("0.25")), 1)
        XCTAssertEqual(Value.compare(decimal("NaN"), decimal("-Inf")), -1)
        XCTAssertEqual(Value.compare(.null, decimal("NaN")), -1)
        // Not a number: ordered by kind, numbers before dates and strings.
        XCTAssertEqual(Value.compare(decimal("1E100"), .date(Date(timeIntervalSinceReferenceDate: 0))), -1)
        XCTAssertEqual(Value.compare(.string("1"), decimal("1")), 1)
    }

    func testIndexKeysOfEqualDecimalsAreEqualAndOrdered() {
        XCTAssertEqual(IndexKey.encode(decimal("1.0")), IndexKey.encode(decimal("1.000")))
        XCTAssertLessThan(compareBytes(IndexKey.encode(.null), IndexKey.encode(decimal("NaN"))), 0)
        XCTAssertLessThan(compareBytes(IndexKey.encode(decimal("-2")), IndexKey.encode(decimal("-1.99"))), 0)
        XCTAssertEqual(IndexKey.encode(decimal("12.5")).count, 20)
    }
}
