import Foundation
import XCTest
@testable import StrataStorage
import StrataValues

/// Mixed slots: the value's type code before its bytes, read back as the kind written, and
/// checked by the integrity check.
final class MixedSlotTests: StorageFileTestCase {
    private let holder = ClassSchema(name: "Holder", properties: [
        PropertySchema(name: "value", type: .mixed, isOptional: true, id: 0),
        PropertySchema(name: "count", type: .int, id: 1),
    ])

    private static let kinds: [Value] = [
        .bool(false), .int(0), .int(-1), .int(.min), .float(-0.5), .double(.infinity), .string(""), .string("é"),
        .data(Data()), .date(Date(timeIntervalSinceReferenceDate: -3)), .uuid(UUID()), .objectId(ObjectId("5f5e10000a0b0c0102000001")),
        .decimal128(BID128(integer: 12)),
    ]

    func testEveryKindIsTaggedAndReadsBackAsTheKindWritten() throws {
        let mixed = MixedSlots(holder)
        for kind in Self.kinds {
            let row = RowEncoder.encode([kind, .int(3)], mixed)
            row.withUnsafeBytes { raw in
                let view = RowView(raw)!
                XCTAssertEqual(view.slotBytes(0).first, kind.storedType?.rawValue, "\(kind)")
                XCTAssertTrue(ValueCodec.isWellFormedMixed(view.slotBytes(0)), "\(kind)")
                XCTAssertEqual(view.value(holder.properties[0]), kind)
                XCTAssertEqual(view.value(holder.properties[1]), .int(3))
            }
            // Replacing the slot in place keeps the tag of the new kind.
            let replaced = row.withUnsafeBytes { RowEncoder.encode(slotCount: 2, in: RowView($0)!, replacing: [(0, .bool(true))], mixed) }
            replaced.withUnsafeBytes { XCTAssertEqual(RowView($0)!.value(holder.properties[0]), .bool(true)) }
            XCTAssertNil(row.withUnsafeBytes { RowEncoder.withPatched(RowView($0)!, replacing: [(0, kind)], mixed) { _ in () } })
        }
        RowEncoder.encode([.null, .int(1)], mixed).withUnsafeBytes { XCTAssertEqual(RowView($0)!.value(holder.properties[0]), .null) }
    }

    func testTheIntegrityCheckNamesAMalformedMixedValue() throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        defer { txn.abort() }
        try txn.store(classes: [holder])
        let table = try XCTUnwrap(try txn.table("Holder"))
        let good = try txn.objects.insert(table, values: [.string("fine"), .int(1)])
        let bad = try txn.objects.insert(table, values: [.int(5), .int(2)])
        XCTAssertEqual(try IntegrityCheck.run(txn).objects, 2)
        // The int tag (2) followed by nine bytes: no int is that long.
        var key = ObjectKeyCoding.encode(bad)
        try withUnsafeBytes(of: &key) { k in
            try RowEncoder.encode([.data(Data([2, 1, 2, 3, 4, 5, 6, 7, 8, 9])), .int(2)], seal: RowSeal(seed: table.rowSeed, key: bad)).withUnsafeBytes {
                try txn.lmdb.put(table.rows, key: k, value: $0)
            }
        }
        XCTAssertThrowsError(try IntegrityCheck.run(txn)) { error in
            XCTAssertTrue("\(error)".contains("'Holder' object \(bad): the mixed value of 'value' is malformed"), "\(error)")
        }
        XCTAssertEqual(try txn.rows.read(table, good)?.value(holder.properties[0]), .string("fine"))
    }
}
