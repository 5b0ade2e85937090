import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// Migrations with several processes: a process holding the old schema, a migration killed
/// half way, a process opening while another migrates.
final class MigrationProcessTests: StrataTestCase {
    private func seed(count: Int = 5) throws {
        let insert = try WorkerProcess.stress(["worker", "insert", "--file", fileURL().path, "--from", "1",
                                               "--count", "\(count)", "--tag", "t", "--nosync"])
        try insert.waitForSuccess()
    }

    func testAProcessWithTheOldSchemaGetsAClearErrorInsteadOfMisreadingRows() throws {
        try seed()
        let old = try WorkerProcess.stress(["worker", "old-schema", "--file", fileURL().path])
        XCTAssertEqual(field("count", in: try old.expectLine(startingWith: "READY")), "5")
        let migrate = try WorkerProcess.stress(["worker", "migrate", "--file", fileURL().path])
        try migrate.expectLine(startingWith: "MIGRATING from=0")
        XCTAssertEqual(try migrate.expectLine(startingWith: "MIGRATED"), "MIGRATED count=5 version=1")
        try migrate.waitForSuccess()

        old.send("write")
        let refused = try old.expectLine(startingWith: "WRITE-ERROR")
        XCTAssertTrue(refused.hasPrefix("WRITE-ERROR code=10 "), refused)
        XCTAssertTrue(refused.contains("'StressItem'") && refused.contains("changed by a migration") && refused.contains("schema version 1"), refused)

        old.send("read")   // a read cannot throw: the process traps with the same message
        try old.waitForExit()
        XCTAssertEqual(old.process.terminationReason, .uncaughtSignal, old.transcript)
        XCTAssertTrue(old.errorOutput.contains("changed by a migration"), old.transcript)
        XCTAssertFalse(old.lines.contains { $0.hasPrefix("STATE") }, old.transcript)
    }

    func testDeleteFilesRefusesWhileAnotherProcessHasTheFileOpen() throws {
        try seed(count: 1)
        let old = try WorkerProcess.stress(["worker", "old-schema", "--file", fileURL().path])
        try old.expectLine(startingWith: "READY")
        XCTAssertThrowsError(try Realm.deleteFiles(for: configuration())) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .alreadyOpen)
            XCTAssertTrue("\(error)".contains("pid \(old.pid)"), "\(error)")
        }
        old.send("quit")
        try old.waitForSuccess()
        XCTAssertTrue(try Realm.deleteFiles(for: configuration()))
    }

    func testAMigrationKilledHalfWayLeavesTheFileAtTheOldVersionAndAnOpenerWaitsForIt() throws {
        try seed()
        let hung = try WorkerProcess.stress(["worker", "migrate", "--file", fileURL().path, "--hang"])
        try hung.expectLine(startingWith: "MIGRATING from=0")
        // Opens while the migration holds the write lock: it waits, then migrates itself.
        let second = try WorkerProcess.stress(["worker", "migrate", "--file", fileURL().path])
        hung.kill()
        try hung.waitForExit()
        XCTAssertEqual(hung.process.terminationReason, .uncaughtSignal)
        try second.expectLine(startingWith: "MIGRATING from=0")
        XCTAssertEqual(try second.expectLine(startingWith: "MIGRATED"), "MIGRATED count=5 version=1")
        try second.waitForSuccess()
    }

    func testAfterASIGKILLMidMigrationTheOldSchemaStillReadsEveryRow() throws {
        try seed()
        let hung = try WorkerProcess.stress(["worker", "migrate", "--file", fileURL().path, "--hang"])
        try hung.expectLine(startingWith: "MIGRATING from=0")
        hung.kill()
        try hung.waitForExit()
        XCTAssertEqual(try schemaVersionAtURL(fileURL()), 0)
        let read = try WorkerProcess.stress(["worker", "read", "--file", fileURL().path])
        let state = try read.expectLine(startingWith: "STATE")
        XCTAssertEqual(field("count", in: state), "5", state)
        XCTAssertEqual(field("tags", in: state), "t:5", state)
        try read.waitForSuccess()
    }
}
