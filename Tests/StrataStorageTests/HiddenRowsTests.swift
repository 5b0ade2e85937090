import Foundation
import StrataTestSupport
import XCTest
@testable import StrataStorage

/// Rows that a damaged branch page hides from every lookup and walk: a full scan of the table
/// in a read transaction reports the damage at its end instead of returning fewer objects,
/// and an object whose lookup fails is known to be damaged, not deleted.
final class HiddenRowsTests: StorageFileTestCase {
    private let dog = ClassSchema(name: "Dog", properties: [PropertySchema(name: "name", type: .string, id: 0)])
    private static let count = 2000

    /// Writes `count` dogs in one commit: their rows fill several leaf pages under one branch
    /// page, the only branch page of the file.
    private func writeDogs() throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [dog])
        let table = try XCTUnwrap(try txn.table("Dog"))
        for i in 0..<Self.count { _ = try txn.objects.insert(table, values: [.string("dog number \(i) of the kennel")]) }
        try txn.commit(processName: "test", pid: 1)
    }

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
