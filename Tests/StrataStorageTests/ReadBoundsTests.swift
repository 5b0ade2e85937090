import CLMDB
import XCTest
@testable import LMDB
@testable import StrataStorage

/// What a write transaction accepts of values outside the map (in the pages it changed, which
/// LMDB keeps in its own memory): bytes at an address, readable at both ends, and at most a
/// page unless an overflow header counts them.
final class ReadBoundsTests: StorageFileTestCase {
    private func writeBounds() throws -> ReadBounds {
        _ = try StorageFile.open(path: path, options: .init())  // installs the fault guard
        // A map of one page at 4096: every buffer of this test lies outside it.
        return try XCTUnwrap(ReadBounds(fileBytes: 4096, pageSize: Int(sysconf(Int32(_SC_PAGESIZE))), map: (4096, 4096), forWriting: true))
    }

    func testValuesOutsideTheMapAreCheckedWhereTheyLie() throws {
        let bounds = try writeBounds()
        let page = UnsafeMutableRawBufferPointer.allocate(byteCount: 3 * 4096, alignment: 4096)
        defer { page.deallocate() }
        page.initializeMemory(as: UInt8.self, repeating: 0)
        let start = page.baseAddress! + 4096 + 16
        XCTAssertTrue(bounds.holds(MDB_val(mv_size: 100, mv_data: start)), "a small value in a page")
        XCTAssertFalse(bounds.holds(MDB_val(mv_size: 100, mv_data: nil)), "bytes at no address")
        XCTAssertFalse(bounds.holds(MDB_val(mv_size: 6000, mv_data: start)), "more than a page, no overflow header")
        // The same bytes under the header of two overflow pages (flags 0x04 at byte 10, pages at 12).
        page.storeBytes(of: UInt16(0x04), toByteOffset: 4096 + 10, as: UInt16.self)
        page.storeBytes(of: UInt32(2), toByteOffset: 4096 + 12, as: UInt32.self)
        XCTAssertTrue(bounds.holds(MDB_val(mv_size: 6000, mv_data: start)))
        XCTAssertFalse(bounds.holds(MDB_val(mv_size: 1 << 32, mv_data: start)), "ends where nothing is mapped")
        XCTAssertFalse(bounds.holds(MDB_val(mv_size: 8, mv_data: UnsafeMutableRawPointer(bitPattern: 0x10))), "an address nothing is mapped at")
        // A size past `Int.max` wraps its end below its start, where both ends are readable.
        XCTAssertFalse(bounds.holds(MDB_val(mv_size: -4000, mv_data: start + 4096)), "a size past Int.max")
    }
}
