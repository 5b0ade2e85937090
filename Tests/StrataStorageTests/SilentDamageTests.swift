import Foundation
import XCTest
@testable import StrataStorage

/// Damage LMDB 0.9 does not see, meets without returning an error, or reports as something
/// else: an older version of a table's page copied over the current one (its records' seals
/// still match), a loop in a table's pages (`MDB_CURSOR_FULL`), and a table whose root page
/// is gone, met while a transaction first reads the table (`mdb_stat` and `mdb_cursor_open`
/// return success and leave the transaction refused, `MDB_BAD_TXN`). Each is
/// `.invalidDatabase` saying the file is damaged: no old row is read as the current one, and
/// no count is answered from a table that could not be read.
final class SilentDamageTests: StorageFileTestCase {
    private static let count = 2000
    private static let pageSize = 4096

    private func writeDogs() throws { try Kennel.write(Self.count, to: path) }

    /// Rewrites the file's bytes with `change`.
    private func damage(_ change: (inout Data) -> Void) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        change(&bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    private func assertDamaged<T>(_ body: @autoclosure () throws -> T, _ line: UInt = #line) {
        XCTAssertThrowsError(try body(), line: line) { error in
            let e = error as? StorageError
            XCTAssertEqual(e?.code, .invalidDatabase, "\(error)", line: line)
            XCTAssertTrue(e?.message.contains("damaged") == true, "\(error)", line: line)
        }
    }

    func testAnOlderVersionOfAPageInPlaceOfTheCurrentOneIsDamaged() throws {
        try writeDogs()
        let file = try StorageFile.open(path: path, options: .init())
        let write = try file.beginWrite()
        let table = try XCTUnwrap(try write.table("Dog"))
        try write.objects.update(table, 1, Kennel.dog.properties[0], to: .string("a dog renamed in the second commit"))
        try write.commit(processName: "test", pid: 1)
        try damage { bytes in
            // The page holding dog 1's row as the first commit wrote it (freed by the second,
            // which wrote the row to a new page) is copied over that new page.
            func page(of text: String) -> Int { bytes.range(of: Data(text.utf8))!.lowerBound / Self.pageSize }
            let old = page(of: "dog number 1 of the kennel"), new = page(of: "a dog renamed")
            bytes.replaceSubrange((new * Self.pageSize)..<((new + 1) * Self.pageSize), with: bytes[(old * Self.pageSize)..<((old + 1) * Self.pageSize)])
        }
        let reopened = try StorageFile.open(path: path, options: .init())
        let read = try reopened.beginRead()
        let damaged = try XCTUnwrap(try read.table("Dog"))
        assertDamaged(try read.rows.read(damaged, 1))
        assertDamaged(try read.rows.allKeys(damaged))
        read.abort()
        // A write reads the file's pages with the same checks, so it changes nothing on them.
        let rewrite = try reopened.beginWrite()
        defer { rewrite.abort() }
        let inWrite = try XCTUnwrap(try rewrite.table("Dog"))
        assertDamaged(try rewrite.rows.read(inWrite, 1))
        assertDamaged(try rewrite.objects.update(inWrite, 1, Kennel.dog.properties[0], to: .string("renamed again")))
    }

    /// The main database's page from the commit before, copied over the current one, names
    /// every table's root as it was then: LMDB would read the older commit's rows, each page
    /// in its place. The open walks the main database and finds its page out of place.
    func testAnOlderMainDatabasePageIsFoundAtOpen() throws {
        try writeDogs()
        do {
            let write = try StorageFile.open(path: path, options: .init()).beginWrite()
            try write.objects.update(try XCTUnwrap(try write.table("Dog")), 1, Kennel.dog.properties[0], to: .string("renamed"))
            try write.commit(processName: "test", pid: 1)
        }
        try damage { bytes in
            // Each meta page: its transaction id at byte 144, the main database's root at 128.
            func word(_ offset: Int) -> Int { bytes[offset..<(offset + 8)].reversed().reduce(0) { $0 << 8 | Int($1) } }
            let newer = word(144) > word(Self.pageSize + 144) ? 0 : Self.pageSize
            let older = Self.pageSize - newer
            let current = word(newer + 128) * Self.pageSize, previous = word(older + 128) * Self.pageSize
            XCTAssertNotEqual(current, previous)
            bytes.replaceSubrange(current..<(current + Self.pageSize), with: bytes[previous..<(previous + Self.pageSize)])
        }
        // Without the `.lock` file (a copy of the file alone), whose record of the newest
        // version would also refuse the older commit.
        try FileManager.default.removeItem(atPath: path + ".lock")
        assertDamaged(try StorageFile.open(path: path, options: .init(readOnly: true)))
    }

    /// A row whose size damage enlarged, in a page a write has already changed (LMDB copied
    /// it, damage included, into memory of its own), is refused as in the file. (The write
    /// replaces a row of the same size, which moves no other node: a write that may move
    /// them checks them first, `testAWriteThatMayMoveADamagedRowIsRefused`.)
    func testAWriteRefusesAnEnlargedRowInAPageItChanged() throws {
        try writeDogs()
        try enlargeDogFivesRow()
        try withWrite { write, table in
            try write.objects.update(table, 6, Kennel.dog.properties[0], to: .string("dog number 6 of the KENNEL"))
            assertDamaged(try write.rows.read(table, 5))
        }
    }

    /// A write that may move the nodes of a page (here a longer row, which LMDB deletes and
    /// adds again, splitting the page when it no longer fits) checks every node of it first:
    /// LMDB would copy a node whose size damage enlarged by that size.
    func testAWriteThatMayMoveADamagedRowIsRefused() throws {
        try writeDogs()
        try enlargeDogFivesRow()
        try withWrite { write, table in
            assertDamaged(try write.objects.update(table, 6, Kennel.dog.properties[0], to: .string(String(repeating: "a much longer name ", count: 20))))
        }
    }

    /// Runs `body` in a write transaction on the file, with its Dog table, then aborts it.
    private func withWrite(_ body: (StorageTransaction, Table) throws -> Void) throws {
        let write = try StorageFile.open(path: path, options: .init()).beginWrite()
        defer { write.abort() }
        try body(write, try XCTUnwrap(try write.table("Dog")))
    }

    /// Makes dog 5's row node (its 8-byte key after the node's 8-byte header) claim 4 GiB.
    private func enlargeDogFivesRow() throws {
        var enlarged = 0
        try damage { bytes in
            let key = withUnsafeBytes(of: ObjectKeyCoding.encode(5)) { Data($0) }
            for page in stride(from: 2 * Self.pageSize, to: bytes.count, by: Self.pageSize) where bytes[page + 10] == 2 {
                let lower = Int(bytes[page + 12]) | Int(bytes[page + 13]) << 8
                for pointer in stride(from: page + 16, to: page + lower, by: 2) {
                    let node = page + (Int(bytes[pointer]) | Int(bytes[pointer + 1]) << 8)
                    guard node + 16 <= page + Self.pageSize, bytes[node + 6] == 8, bytes[(node + 8)..<(node + 16)] == key else { continue }
                    bytes.replaceSubrange(node..<(node + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
                    enlarged += 1
                }
            }
        }
        XCTAssertEqual(enlarged, 1)
    }

    func testATableWhosePagesLoopIsDamaged() throws {
        try writeDogs()
        var looped = 0
        try damage { bytes in
            // Each branch page's first child (LMDB's node: the page number in its first six
            // bytes, at the offset the page's first 2-byte pointer gives) becomes the page itself.
            for page in stride(from: 2 * Self.pageSize, to: bytes.count, by: Self.pageSize) {
                let flags = UInt16(bytes[page + 10]) | UInt16(bytes[page + 11]) << 8
                guard flags == 1 else { continue }
                let node = page + (Int(bytes[page + 16]) | Int(bytes[page + 17]) << 8)
                let number = page / Self.pageSize
                for i in 0..<6 { bytes[node + i] = UInt8(truncatingIfNeeded: number >> (i < 4 ? 8 * i : 8 * (i - 4) + 32)) }
                looped += 1
            }
        }
        XCTAssertGreaterThan(looped, 0, "the rows fill more than one leaf page")
        let read = try StorageFile.open(path: path, options: .init(readOnly: true)).beginRead()
        defer { read.abort() }
        let table = try XCTUnwrap(try read.table("Dog"))
        assertDamaged(try read.rows.read(table, 1))
        assertDamaged(try read.rows.allKeys(table))
    }

    func testATableWhoseRootPageIsGoneIsDamagedFromItsFirstRead() throws {
        try writeDogs()
        var changed = 0
        try damage { bytes in
            // The main database's record of the rows database: a node flagged F_SUBDATA (2)
            // whose key is the database's name, its value an MDB_db whose root is at byte 40.
            let name = Data("rows.Dog".utf8)
            var from = bytes.startIndex
            while let found = bytes.range(of: name, in: from..<bytes.endIndex) {
                from = found.upperBound
                let key = found.lowerBound
                guard key >= 8, bytes[key - 4] & 2 != 0, Int(bytes[key - 2]) == name.count else { continue }
                withUnsafeBytes(of: UInt64(0xFFFF_FFFF).littleEndian) { bytes.replaceSubrange((found.upperBound + 40)..<(found.upperBound + 48), with: $0) }
                changed += 1
            }
        }
        XCTAssertGreaterThan(changed, 0, "the main database names the rows database")
        for first in ["count", "walk", "lookup"] {
            let read = try StorageFile.open(path: path, options: .init(readOnly: true)).beginRead()
            defer { read.abort() }
            let table = try XCTUnwrap(try read.table("Dog"))
            switch first {
            case "count": assertDamaged(try read.rows.count(table))
            case "walk": assertDamaged(try read.rows.allKeys(table))
            default: assertDamaged(try read.rows.read(table, 1))
            }
            // What follows in the same snapshot says so too.
            assertDamaged(try read.rows.count(table))
            assertDamaged(try read.rows.read(table, 2))
        }
    }
}
