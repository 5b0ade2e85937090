import Foundation
import XCTest
@testable import StrataStorage

final class RowFormatTests: XCTestCase {
    private let schema = ClassSchema(name: "T", properties: [
        PropertySchema(name: "i", type: .int, id: 0),
        PropertySchema(name: "s", type: .string, isOptional: true, id: 1),
        PropertySchema(name: "d", type: .double, id: 2),
        PropertySchema(name: "b", type: .data, id: 3),
    ])

    private func withRow<R>(_ values: [Value], _ body: (RowView) -> R) -> R {
        RowEncoder.encode(values).withUnsafeBytes { body(RowView($0)!) }
    }

    func testEachSlotDecodesOnItsOwn() {
        withRow([.int(-5), .string("hé"), .double(2.5), .data(Data([1, 2]))]) { row in
            XCTAssertEqual(row.int(0), -5)
            XCTAssertEqual(row.value(schema.properties[1]), .string("hé"))
            XCTAssertEqual(row.double(2), 2.5)
            XCTAssertEqual(row.value(schema.properties[3]), .data(Data([1, 2])))
        }
    }

    func testNullIsDistinctFromEmpty() {
        withRow([.int(0), .null, .double(0), .data(Data())]) { row in
            XCTAssertTrue(row.isNull(1))
            XCTAssertEqual(row.value(schema.properties[1]), .null)
            XCTAssertFalse(row.isNull(3))
            XCTAssertEqual(row.value(schema.properties[3]), .data(Data()))
        }
        withRow([.int(0), .string(""), .double(0), .data(Data())]) { row in
            XCTAssertEqual(row.value(schema.properties[1]), .string(""))
        }
    }

    func testIntegersUseTheirShortestFormAndRoundTripAtTheEdges() {
        let widths: [Int64] = [1 << 23, -(1 << 23) - 1, 1 << 31, 1 << 39, -(1 << 39) - 1, 1 << 47, -(1 << 47), 1 << 55, -(1 << 55) - 1]
        for v: Int64 in [0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, -32768, Int64(Int32.max), Int64(Int32.min), .max, .min] + widths {
            withRow([.int(v)]) { XCTAssertEqual($0.int(0), v, "\(v)") }
        }
        XCTAssertLessThan(RowEncoder.encode([.int(5)]).count, RowEncoder.encode([.int(500_000)]).count)
    }

    func testSlotsMissingFromOldRowsReadAsDefaults() {
        withRow([.int(3)]) { row in
            XCTAssertFalse(row.hasSlot(2))
            XCTAssertEqual(row.value(schema.properties[2]), .double(0))
            XCTAssertEqual(row.value(schema.properties[1]), .null, "a missing optional reads as nil")
        }
    }

    func testLargeValuesSwitchToWiderOffsets() {
        let big = String(repeating: "a", count: 70_000)
        withRow([.int(1), .string(big), .double(1), .data(Data([9]))]) { row in
            XCTAssertEqual(row.value(schema.properties[1]), .string(big))
            XCTAssertEqual(row.value(schema.properties[3]), .data(Data([9])))
        }
    }

    func testRowsWhosePayloadOutgrowsTheStackLayOutAsAnyOther() {
        // A row's payload is gathered on the stack up to `RowPayload.stackCapacity` bytes, then
        // in an array: a long string first puts the boundary in each later slot's bytes, the
        // mixed slot's type code among them.
        let mixed = ClassSchema(name: "M", properties: [
            PropertySchema(name: "s", type: .string, id: 0),
            PropertySchema(name: "i", type: .int, id: 1),
            PropertySchema(name: "m", type: .mixed, isOptional: true, id: 2),
        ])
        for n in RowPayload.stackCapacity - 6 ... RowPayload.stackCapacity + 1 {
            let long = String(repeating: "x", count: n)
            let bytes = RowEncoder.encode([.string(long), .int(300), .string("m")], MixedSlots(mixed))
            bytes.withUnsafeBytes { raw in
                guard let row = RowView(raw) else { return XCTFail("row of \(n) bytes of string did not parse") }
                XCTAssertEqual(row.value(mixed.properties[0]), .string(long))
                XCTAssertEqual(row.value(mixed.properties[1]), .int(300))
                XCTAssertEqual(row.value(mixed.properties[2]), .string("m"))
                let again = RowEncoder.encode(slotCount: 3, in: row, replacing: [(id: 2, value: .string("m"))], MixedSlots(mixed))
                XCTAssertEqual(again, bytes, "re-encoding the row around a replaced slot, \(n) bytes of string")
            }
        }
    }

    func testReplacingASlotKeepsTheOthersByteForByte() {
        let original = RowEncoder.encode([.int(7), .string("keep"), .double(1), .null])
        let updated = original.withUnsafeBytes { RowEncoder.encode(slotCount: 4, in: RowView($0)!, replacing: [(2, .double(9))]) }
        updated.withUnsafeBytes { raw in
            let row = RowView(raw)!
            XCTAssertEqual(row.int(0), 7)
            XCTAssertEqual(row.value(schema.properties[1]), .string("keep"))
            XCTAssertEqual(row.double(2), 9)
            XCTAssertTrue(row.isNull(3))
        }
    }

    func testAPatchedRowIsTheRowLaidOutAnew() {
        let original: [Value] = [.int(300), .string("four"), .double(1.5), .data(Data([1, 2, 3]))]
        let replacements: [[(id: Int, value: Value)]] = [
            [(2, .double(-7))],
            [(0, .int(-301)), (1, .string("five")), (3, .data(Data([9, 9, 9])))],
            [(0, .int(0x7fff))],
        ]
        // Empty values lend no bytes to copy.
        RowEncoder.encode([.int(0), .string(""), .double(0), .data(Data())]).withUnsafeBytes { raw in
            let row = RowView(raw)!
            let r: [(id: Int, value: Value)] = [(0, .int(0)), (1, .string("")), (3, .data(Data()))]
            XCTAssertEqual(RowEncoder.withPatched(row, replacing: r) { Array($0) }, RowEncoder.encode(slotCount: 4, in: row, replacing: r))
        }
        RowEncoder.encode(original).withUnsafeBytes { raw in
            let row = RowView(raw)!
            for r in replacements {
                let patched = RowEncoder.withPatched(row, replacing: r) { Array($0) }
                XCTAssertEqual(patched, RowEncoder.encode(slotCount: 4, in: row, replacing: r), "\(r)")
            }
        }
    }

    func testARowIsNotPatchedWhenAValueChangesLengthOrNullness() {
        let refused: [[(id: Int, value: Value)]] = [
            [(0, .int(70_000))],
            [(1, .string("longer"))],
            [(1, .null)],
            [(2, .double(2)), (3, .data(Data()))],
            [(4, .int(1))],
        ]
        RowEncoder.encode([.int(300), .string("four"), .double(1.5), .data(Data([1]))]).withUnsafeBytes { raw in
            let row = RowView(raw)!
            for r in refused { XCTAssertNil(RowEncoder.withPatched(row, replacing: r) { _ in () }, "\(r)") }
        }
        RowEncoder.encode([.int(1), .null]).withUnsafeBytes { raw in
            XCTAssertNil(RowEncoder.withPatched(RowView(raw)!, replacing: [(1, .string(""))]) { _ in () }, "null to empty")
        }
    }

    func testDamagedRowsAreRejectedNotMisread() {
        XCTAssertNil([UInt8]().withUnsafeBytes { RowView($0) })
        XCTAssertNil([UInt8]([0, 5, 1]).withUnsafeBytes { RowView($0) }, "slot table longer than the row")
        XCTAssertNil([UInt8]([0, 1, 200]).withUnsafeBytes { RowView($0) }, "payload end past the row")
        XCTAssertNil([UInt8]([0, 2, 3, 1, 7, 7, 7]).withUnsafeBytes { RowView($0) }, "a slot ending before the one ahead of it")
        XCTAssertNil([UInt8]([0, 3, 9, 2, 3, 7, 7, 7]).withUnsafeBytes { RowView($0) }, "an early slot ending past the row")
        // Slot ends of 2 and 4 bytes are checked the same way.
        let wide: [UInt8] = [1, 2, 1, 0, 2, 0, 7, 8]
        XCTAssertEqual(wide.withUnsafeBytes { RowView($0).map { Array($0.slotBytes(1)) } }, [8])
        XCTAssertNil([UInt8]([1, 2, 2, 0, 1, 0, 7, 8]).withUnsafeBytes { RowView($0) }, "2-byte ends out of order")
        XCTAssertNil([UInt8]([1, 2, 1, 0, 3, 1, 7, 8]).withUnsafeBytes { RowView($0) }, "a 2-byte end past the row")
        XCTAssertNil([UInt8]([2, 1, 2, 0, 0, 0, 7]).withUnsafeBytes { RowView($0) }, "a 4-byte end past the row")
        XCTAssertNil([UInt8]([3, 1, 1, 0, 0, 0, 0, 0, 0, 0, 7]).withUnsafeBytes { RowView($0) }, "no 8-byte ends")
    }

    /// Rows with a slot count of more than one varint byte, a null bitmap and wide ends.
    func testRowsOfManySlotsWithNullsAndWideEndsReadEverySlot() {
        for count in [1, 127, 128, 300, 5_000] {
            // Every third slot null, so the row has a null bitmap; a long string so ends are
            // four bytes wide.
            var values: [Value] = (0..<count).map { $0 % 3 == 1 ? .null : .int(Int64($0) * 1_000_003) }
            values[count - 1] = .string(String(repeating: "z", count: 70_000))
            withRow(values) { row in
                XCTAssertTrue(row.hasSlot(count - 1))
                XCTAssertFalse(row.hasSlot(count))
                for slot in 0..<(count - 1) {
                    if slot % 3 == 1 {
                        XCTAssertTrue(row.isNull(slot), "slot \(slot) of \(count)")
                    } else {
                        XCTAssertFalse(row.isNull(slot), "slot \(slot) of \(count)")
                        XCTAssertEqual(row.int(slot), Int64(slot) * 1_000_003, "slot \(slot) of \(count)")
                    }
                }
                XCTAssertEqual(row.slotBytes(count - 1).count, 70_000)
            }
        }
    }

    func testAnIntegerSlotLongerThanEightBytesReadsItsFirstEight() {
        let row: [UInt8] = [0, 1, 9, 1, 0, 0, 0, 0, 0, 0, 0, 0xff]
        XCTAssertEqual(row.withUnsafeBytes { RowView($0)?.int(0) }, 1)
    }
}
