import Foundation
import XCTest
@testable import StrataStorage

final class HistoryEntryTests: XCTestCase {
    func testAnEntryRoundTripsWithItsChangeSet() {
        var changes = ChangeSet()
        changes.classes["Dog"] = ClassChanges(inserted: [1, 5, 900], deleted: [3], modified: [7: 0b101, 1 << 40: 1 << 63], cleared: false)
        changes.classes["Cat"] = ClassChanges(inserted: [], deleted: [], modified: [:], cleared: true)
        let entry = HistoryEntry(version: 42, time: 1_700_000_000.25, pid: 4321, processName: "worker",
                                 description: "import batch", changes: changes)
        let decoded = entry.encoded().withUnsafeBytes { HistoryEntry(decoding: $0) }
        XCTAssertEqual(decoded, entry)
    }

    func testChangeSetNetsOutAnInsertFollowedByADelete() {
        var c = ClassChanges()
        c.recordInsert(10)
        c.recordModify(10, property: 2)
        XCTAssertTrue(c.modified.isEmpty, "a new object is reported as inserted only")
        c.recordDelete(10)
        XCTAssertTrue(c.isEmpty)
        c.recordModify(11, property: 70)
        XCTAssertEqual(c.modified[11], 1 << 63)
    }

    /// Inserts interleaved with modifies and deletes: each modify or delete knows every
    /// insert recorded before it (they are indexed lazily, in runs).
    func testChangeSetKnowsEveryEarlierInsertWhenInsertsAndOtherChangesInterleave() {
        var c = ClassChanges()
        c.recordInsert(10)
        c.recordInsert(11)
        c.recordModify(11, property: 1)
        c.recordInsert(12)
        c.recordDelete(10)
        c.recordModify(12, property: 1)
        c.recordModify(13, property: 1)
        c.recordDelete(12)
        c.recordInsert(14)
        c.recordModify(14, property: 2)
        c.recordDelete(20)
        XCTAssertEqual(c.inserted, [11, 14])
        XCTAssertEqual(c.modified, [13: ClassChanges.bit(1)])
        XCTAssertEqual(c.deleted, [20])
    }

    func testDamagedEntriesDecodeAsNil() {
        let bytes = HistoryEntry(version: 1, time: 0, pid: 1, processName: "p", description: nil, changes: ChangeSet()).encoded()
        for cut in 0..<bytes.count {
            XCTAssertNil(Array(bytes.prefix(cut)).withUnsafeBytes { HistoryEntry(decoding: $0) }, "cut at \(cut)")
        }
    }
}
