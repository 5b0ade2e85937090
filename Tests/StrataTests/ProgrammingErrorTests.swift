import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// Programming errors that RealmSwift traps on trap in Strata too, with a message that says
/// what to do; committed data survives. Each runs in a worker process, which must die.
final class ProgrammingErrorTests: StrataTestCase {
    private func assertTraps(_ kind: String, saying message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let worker = try WorkerProcess.stress(["worker", "misuse", "--file", fileURL().path, "--kind", kind])
        try worker.expectLine(startingWith: "COMMITTED")
        try worker.waitForExit()
        XCTAssertEqual(worker.process.terminationReason, .uncaughtSignal, worker.transcript, file: file, line: line)
        XCTAssertFalse(worker.lines.contains("NO-TRAP"), worker.transcript, file: file, line: line)
        XCTAssertTrue(worker.errorOutput.contains(message), worker.transcript, file: file, line: line)
        let realm = try openRealm(types: [StressItem.self])
        XCTAssertEqual(realm.objects(StressItem.self).filter("id == 1").count, kind == "deleted-object" ? 0 : 1,
                       "the commit before the trap is intact", file: file, line: line)
    }

    func testWritingOutsideATransactionTraps() throws {
        try assertTraps("write-outside-transaction", saying: "outside of a write transaction")
    }

    func testANestedWriteTraps() throws {
        try assertTraps("nested-write", saying: "already in a write transaction")
    }

    func testUsingAnObjectFromAnotherThreadTraps() throws {
        try assertTraps("wrong-thread", saying: "incorrect thread")
    }

    func testSortingTheValuesOfAnUnmanagedListTraps() throws {
        try assertTraps("sort-unmanaged-list", saying: "need a managed collection")
    }

    func testReadingADeletedObjectTraps() throws {
        try assertTraps("deleted-object", saying: "deleted or invalidated")
    }
}
