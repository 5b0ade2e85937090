import Foundation
import XCTest
@testable import StrataStorage

/// A leaf node whose size field damage made larger than the file: reading it would run past
/// the end of the file into the map (SIGBUS), so it is refused as damage before any byte of
/// it is read (`Transaction.readLimit`).
final class DamagedNodeSizeTests: StorageFileTestCase {
    private let dog = ClassSchema(name: "Dog", properties: [PropertySchema(name: "name", type: .string, id: 0)])
    private static let marker = "the dog whose node is damaged"

    /// Writes three dogs, the second named `marker`, and returns its object key.
    private func writeDogs() throws -> ObjectKey {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [dog])
        let table = try XCTUnwrap(try txn.table("Dog"))
        _ = try txn.objects.insert(table, values: [.string("first dog")])
        let key = try txn.objects.insert(table, values: [.string(Self.marker)])
        _ = try txn.objects.insert(table, values: [.string("last dog")])
        try txn.commit(processName: "test", pid: 1)
        return key
    }

    /// Sets the data size of the leaf node holding `marker` to `size` (LMDB's node header: the
    /// size's low and high 16 bits at bytes 0 and 2, the key size at 6, from the node offsets
    /// that follow the 16-byte page header up to `lower`, at byte 12).
    private func damageTheMarkersNodeSize(to size: UInt32) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let pageSize = 4096
        let at = try XCTUnwrap(bytes.range(of: Data(Self.marker.utf8))?.lowerBound, "the marker is in the file")
        let page = at / pageSize * pageSize
        let lower = Int(bytes[page + 12]) | Int(bytes[page + 13]) << 8
        let nodes = stride(from: page + 16, to: page + lower, by: 2).map { page + (Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8) }
        let node = try XCTUnwrap(nodes.filter { $0 < at }.max(), "a node holds the marker")
        let field = [UInt16(size & 0xFFFF), UInt16(size >> 16)].flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        bytes.replaceSubrange(node..<node + 4, with: field)
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    func testANodeLargerThanTheFileIsDamageNotACrash() throws {
        try checkDamage(size: 0x7FFF_FFF0)
    }

    /// A size within the file that runs past the node's page (which is no overflow page).
    func testANodeRunningPastItsPageIsDamage() throws {
        try checkDamage(size: 4096)
    }

    private func checkDamage(size: UInt32) throws {
        let key = try writeDogs()
        try damageTheMarkersNodeSize(to: size)
        let read = try StorageFile.open(path: path, options: .init(readOnly: true)).beginRead()
        defer { read.abort() }
        let table = try XCTUnwrap(try read.table("Dog"))
        XCTAssertThrowsError(try read.rows.read(table, key)) { error in
            XCTAssertEqual((error as? StorageError)?.code, .invalidDatabase, "\(error)")
        }
        // A walk hands out the dog before the damaged one, then fails, and stays failed.
        let scan = read.rows.scan(table)
        let first = try XCTUnwrap(try scan.next())
        XCTAssertEqual(first.0, key - 1)
        XCTAssertEqual(first.1.value(dog.properties[0]), .string("first dog"))
        XCTAssertThrowsError(try scan.next()) { error in
            XCTAssertEqual((error as? StorageError)?.code, .invalidDatabase, "\(error)")
        }
        XCTAssertNil(try scan.next(), "a walk that failed ends")
        // A walk through `forEach` fails the same way after the same first dog.
        var met: [ObjectKey] = []
        XCTAssertThrowsError(try read.rows.forEach(table, rows: .call) { k, _ in met.append(k); return true }) { error in
            XCTAssertEqual((error as? StorageError)?.code, .invalidDatabase, "\(error)")
        }
        XCTAssertEqual(met, [key - 1])
        XCTAssertNotNil(try read.rows.read(table, key + 1), "the other dogs still read")
    }
}
