import Foundation
import StrataTestSupport
import XCTest
@testable import StrataStorage

/// Rows that a damaged branch page hides from every lookup and walk: a full scan of the table
/// in a read transaction reports the damage at its end instead of returning fewer objects,
/// and an object whose lookup fails is known to be damaged, not deleted.
final class HiddenRowsTests: StorageFileTestCase {
    private static let count = 2000

    private func writeDogs() throws { try Kennel.write(Self.count, to: path) }

    func testAScanThatMeetsFewerRowsThanTheTableCountsReportsDamage() throws {
        try writeDogs()
        XCTAssertGreaterThan(try BranchPageDamage.dropLastChildOfEachBranchPage(path: path), 0, "the rows fill more than one leaf page")
        let read = try StorageFile.open(path: path, options: .init(readOnly: true)).beginRead()
        defer { read.abort() }
        let table = try XCTUnwrap(try read.table("Dog"))
        XCTAssertEqual(try read.rows.count(table), Self.count)
        let scan = read.rows.scan(table)
        var met = 0
        XCTAssertThrowsError(try { while try scan.next() != nil { met += 1 } }()) { error in
            let e = error as? StorageError
            XCTAssertEqual(e?.code, .invalidDatabase)
            XCTAssertTrue(e?.message.contains("is damaged: a walk over 'Dog' meets \(met) objects, but the table counts \(Self.count)") == true, "\(error)")
        }
        XCTAssertGreaterThan(met, 0)
        XCTAssertLessThan(met, Self.count)

        // The last dog's row is hidden from its lookup too: the file still counts it, so it
        // is damaged, not deleted.
        let last = ObjectKey(Self.count)
        XCTAssertNil(try read.rows.read(table, last))
        XCTAssertThrowsError(try read.rows.isKnownWithoutRow(table, last)) { error in
            XCTAssertEqual((error as? StorageError)?.code, .invalidDatabase, "\(error)")
        }
        XCTAssertThrowsError(try IntegrityCheck.run(read)) { error in
            XCTAssertTrue("\(error)".contains("but the table counts \(Self.count)"), "\(error)")
        }
    }

    /// In a write transaction the scan is not compared with the count (the table may change
    /// between its batches), but a lookup that fails still tells damage from deletion.
    func testInAWriteAHiddenObjectIsStillKnownToBeDamaged() throws {
        try writeDogs()
        XCTAssertGreaterThan(try BranchPageDamage.dropLastChildOfEachBranchPage(path: path), 0)
        let write = try StorageFile.open(path: path, options: .init()).beginWrite()
        defer { write.abort() }
        let table = try XCTUnwrap(try write.table("Dog"))
        let keys = try write.rows.allKeys(table)
        XCTAssertLessThan(keys.count, Self.count)
        XCTAssertNil(try write.rows.read(table, ObjectKey(Self.count)))
        XCTAssertTrue(try write.rows.isKnownWithoutRow(table, ObjectKey(Self.count)))
    }

    func testAWholeTableScansWithoutError() throws {
        try writeDogs()
        let read = try StorageFile.open(path: path, options: .init(readOnly: true)).beginRead()
        defer { read.abort() }
        let table = try XCTUnwrap(try read.table("Dog"))
        XCTAssertEqual(try read.rows.allKeys(table).count, Self.count)
        XCTAssertFalse(try read.rows.isKnownWithoutRow(table, ObjectKey(Self.count + 1)), "a key never written is deleted, not damaged")
    }
}
