import Foundation
import StrataTestSupport
import XCTest
import Strata

/// `strata versions` and `strata watch` against files other processes are using.
///
/// Deadlines here only stop a hung child; nothing is timed.
final class VersionsWatchCLITests: StrataTestCase {
    private var path: String { fileURL().path }

    private func insert(_ from: Int, _ count: Int) throws {
        try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "\(from)", "--count", "\(count)"]).waitForSuccess()
    }

    func testVersionsNamesTheProcessThatPinsAnOldVersionAndTheSpaceItHolds() throws {
        try insert(1, 3)
        let holder = try WorkerProcess.stress(["worker", "serve", "--file", path])
        defer { holder.kill() }
        try holder.expectLine(startingWith: "READY")
        holder.send("state")
        let pinned = try XCTUnwrap(field("version", in: try holder.expectLine(startingWith: "STATE")))
        try insert(100, 30)

        let report = try strataObject(["versions", path, "--json"])
        XCTAssertEqual(report["oldestPinnedVersion"] as? Int, Int(pinned))
        XCTAssertEqual(report["oldestPinnedBy"] as? Int, Int(holder.pid))
        XCTAssertEqual(report["newestVersion"] as? Int, Int(pinned)! + 30)
        XCTAssertGreaterThan(try XCTUnwrap(report["bytesHeld"] as? Int), 0, "30 later commits freed pages the snapshot still needs")
        let processes = try XCTUnwrap(report["processes"] as? [[String: Any]])
        XCTAssertEqual(processes.count, 1, "the command leaves itself out: \(processes)")
        XCTAssertEqual(processes.first?["name"] as? String, "strata-stress")
        XCTAssertEqual(processes.first?["snapshots"] as? Int, 1)

        let text = try strata(["versions", path])
        XCTAssertEqual(text.process.terminationStatus, 0, text.transcript)
        XCTAssertTrue(text.lines.contains { $0.hasPrefix("oldest pin      version \(pinned)") && $0.contains("pid \(holder.pid)") }, text.transcript)
        XCTAssertTrue(text.lines.filter { !$0.hasPrefix("file ") }.allSatisfy { $0.count <= 80 }, text.transcript)

        holder.kill()
        try holder.waitForExit()
        let after = try strataObject(["versions", path, "--json"])
        XCTAssertEqual((after["processes"] as? [Any])?.count, 0, "the killed process's entry is gone")
        XCTAssertNil(after["oldestPinnedVersion"] as? Int)
        XCTAssertEqual(after["bytesHeld"] as? Int, 0)
    }

    func testVersionsOfAMissingFileFailsWithAHint() throws {
        let run = try strata(["versions", fileURL("missing.strata").path])
        XCTAssertEqual(run.process.terminationStatus, 1, run.transcript)
        XCTAssertTrue(run.errorOutput.contains("versions:"), run.transcript)
    }

    func testWatchPrintsEveryCommitOfAnotherProcessAsItHappens() throws {
        try insert(1, 1)
        let watcher = try WorkerProcess(try BuiltProducts.executable("strata"), ["watch", path, "--json", "--count", "4"])
        defer { watcher.kill() }
        // The watcher is ready once it appears in the registry.
        let deadline = Date(timeIntervalSinceNow: 60)
        while try Realm.openProcesses(for: Realm.Configuration(fileURL: fileURL())).allSatisfy({ $0.pid != watcher.pid }) && Date() < deadline {
            usleep(10_000)
        }
        try insert(10, 3)
        let realm = try openRealm(types: [StressItem.self])
        try realm.write(withDescription: "by hand") { realm.objects(StressItem.self).first!.value = 5 }
        try watcher.waitForSuccess()
        let entries = try watcher.lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(entries.map { $0["version"] as? Int }, [3, 4, 5, 6].map { Optional($0) }, watcher.transcript)
        XCTAssertEqual(entries.prefix(3).map { $0["process"] as? String }, Array(repeating: "strata-stress", count: 3))
        XCTAssertEqual(entries.last?["description"] as? String, "by hand")
        XCTAssertEqual(entries.last?["pid"] as? Int, Int(getpid()))
    }

    func testWatchSinceReplaysTheRetainedEntriesFirst() throws {
        try insert(1, 3)
        let run = try strata(["watch", path, "--since", "1", "--count", "2"])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        XCTAssertEqual(run.lines.map { $0.split(separator: " ").first.map(String.init) }, ["2", "3"], run.transcript)
    }
}
