import Foundation
import StrataTestSupport
import XCTest
import Strata
import Synchronization

/// The worker's model (Stress/Models.swift), declared again here: the schema is matched by
/// class name, so both processes read and write the same table.
final class StressItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tag = ""
    @Persisted var value = 0
}

/// Two or more processes on one file, each a `strata-stress worker` started with `Process`.
///
/// Deadlines in these tests only stop a hung child; nothing is timed.
final class MultiProcessTests: StrataTestCase {
    private var path: String { fileURL().path }

    private func open() throws -> Realm { try openRealm(types: [StressItem.self]) }

    /// Adds items `ids` from this process, one write each.
    private func insert(_ realm: Realm, _ ids: ClosedRange<Int>, tag: String = "test") throws {
        for id in ids {
            try realm.write { realm.add(StressItem(value: ["id": id, "tag": tag, "value": id * 10])) }
        }
    }

    private func ids(_ realm: Realm) -> [Int] { realm.objects(StressItem.self).map(\.id).sorted() }

    /// The `version=` of a worker's line as a number.
    private func version(_ line: String) throws -> UInt64 {
        try XCTUnwrap(field("version", in: line).flatMap { UInt64($0) }, "no version in '\(line)'")
    }

    func testSecondProcessSeesCommitsAfterRefreshAndNothingIsLost() throws {
        let realm = try open()
        try insert(realm, 1...5)
        let worker = try WorkerProcess.stress(["worker", "serve", "--file", path])
        defer { worker.kill() }
        XCTAssertEqual(try version(worker.expectLine(startingWith: "READY")), realm.version,
                       "the second process opens at the first one's newest commit")
        worker.send("state")
        XCTAssertEqual(field("ids", in: try worker.expectLine(startingWith: "STATE")), "1-5")

        // This process holds a snapshot while the other one commits.
        XCTAssertEqual(realm.objects(StressItem.self).count, 5)
        worker.send("insert 101 5 worker")
        let workerVersion = try version(worker.expectLine(startingWith: "OK"))
        XCTAssertEqual(workerVersion, realm.version + 5, "one version per write")
        XCTAssertEqual(realm.objects(StressItem.self).count, 5, "the held snapshot does not move")
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(realm.version, workerVersion)
        XCTAssertEqual(ids(realm), Array(1...5) + Array(101...105))
        let written = try XCTUnwrap(realm.object(ofType: StressItem.self, forPrimaryKey: 103))
        XCTAssertEqual(written.tag, "worker")
        XCTAssertEqual(written.value, 1030)

        // Now the other process holds a snapshot while this one commits.
        worker.send("state")
        XCTAssertEqual(field("count", in: try worker.expectLine(startingWith: "STATE")), "10")
        try insert(realm, 6...10)
        worker.send("state")
        XCTAssertEqual(field("count", in: try worker.expectLine(startingWith: "STATE")), "10",
                       "the worker's snapshot does not move until it refreshes")
        worker.send("refresh")
        let refreshed = try worker.expectLine(startingWith: "REFRESHED")
        XCTAssertEqual(field("changed", in: refreshed), "true")
        XCTAssertEqual(try version(refreshed), realm.version)
        worker.send("state")
        let state = try worker.expectLine(startingWith: "STATE")
        XCTAssertEqual(field("ids", in: state), "1-10,101-105")
        XCTAssertEqual(field("tags", in: state), "test:10,worker:5")
        worker.send("quit")
        try worker.expectLine(startingWith: "BYE")
        try worker.waitForSuccess()

        XCTAssertFalse(realm.refresh(), "nothing was committed after this process's last write")
        XCTAssertEqual(ids(realm), Array(1...10) + Array(101...105))
    }

    func testWriterKilledInsideAWriteLeavesEarlierCommitsAndReleasesTheLock() throws {
        let writer = try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "1", "--count", "10", "--tag", "early"])
        try writer.waitForSuccess()
        let lastCommit = try version(writer.lines.last { $0.hasPrefix("COMMIT") } ?? "")

        try killInsideAWrite(partialIDs: 1000)

        let realm = try open()
        XCTAssertEqual(realm.version, lastCommit, "the killed write added no version")
        XCTAssertEqual(ids(realm), Array(1...10), "every earlier commit is intact, the partial one absent")
        XCTAssertEqual(realm.objects(StressItem.self).filter("tag == 'partial'").count, 0)
        XCTAssertEqual(realm.objects(StressItem.self).filter("tag == 'early'").count, 10)

        try writeOnAnotherThread(id: 11)
        let after = try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "12", "--count", "1"])
        try after.waitForSuccess()
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(ids(realm), Array(1...12))
        XCTAssertEqual(realm.version, lastCommit + 2)
    }

    func testWriterKilledWhileThisProcessHoldsTheFileOpenDoesNotBlockItsWrites() throws {
        let realm = try open()
        try insert(realm, 1...3)
        let before = realm.version
        XCTAssertEqual(realm.objects(StressItem.self).count, 3)

        try killInsideAWrite(partialIDs: 500)

        XCTAssertFalse(realm.refresh(), "the killed write committed nothing")
        XCTAssertEqual(realm.version, before)
        try writeOnAnotherThread(id: 4)
        try insert(realm, 5...5)
        XCTAssertEqual(ids(realm), [1, 2, 3, 4, 5])
        XCTAssertEqual(realm.version, before + 2)
    }

    func testConcurrentWriterProcessesLoseNothingAndVersionsStrictlyIncrease() throws {
        let realm = try open()  // creates the file and its schema, so workers only add items
        let base = realm.version
        let starts = [1, 1001, 2001], perWorker = 200
        let workers = try starts.enumerated().map { index, start in
            try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "\(start)",
                                      "--count", "\(perWorker)", "--tag", "w\(index + 1)", "--nosync"])
        }
        defer { workers.forEach { $0.kill() } }
        var allVersions: [UInt64] = []
        for worker in workers {
            try worker.waitForSuccess()
            let versions = try worker.lines.filter { $0.hasPrefix("COMMIT") }.map(version)
            XCTAssertEqual(versions.count, perWorker)
            XCTAssertEqual(versions, versions.sorted(), "a worker's versions increase")
            XCTAssertEqual(Set(versions).count, versions.count, "strictly")
            allVersions += versions
        }
        XCTAssertEqual(allVersions.sorted(), Array((base + 1)...(base + UInt64(starts.count * perWorker))),
                       "each write is one version; no two writes share one")

        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(realm.version, base + UInt64(starts.count * perWorker))
        XCTAssertEqual(ids(realm), starts.flatMap { Array($0..<($0 + perWorker)) })
        for (index, _) in starts.enumerated() {
            XCTAssertEqual(realm.objects(StressItem.self).filter("tag == %@", "w\(index + 1)").count, perWorker)
        }
        XCTAssertEqual(realm.objects(StressItem.self).sum(ofProperty: "value") as Int,
                       starts.flatMap { Array($0..<($0 + perWorker)) }.reduce(0, +) * 10)

        let reader = try WorkerProcess.stress(["worker", "read", "--file", path])
        try reader.waitForSuccess()
        let state = try XCTUnwrap(reader.lines.first { $0.hasPrefix("STATE") })
        XCTAssertEqual(field("ids", in: state), "1-200,1001-1200,2001-2200")
        XCTAssertEqual(try version(state), realm.version)
    }

    /// LMDB 0.9 begins a read snapshot by reading the newest transaction id, then copying the
    /// database roots from the meta page that id's parity names: a reader paused in between
    /// while two commits land would read the second one's data under the first one's id.
    /// Snapshots begun over and over on several threads while two processes commit as fast as
    /// they can must each hold exactly the commits their version counts.
    func testSnapshotsBegunWhileOtherProcessesCommitHoldWhatTheirVersionSays() throws {
        let base = try open().version
        let perWorker = 10_000
        let workers = try [1, 100_001].map { start in
            try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "\(start)",
                                      "--count", "\(perWorker)", "--nosync"])
        }
        defer { workers.forEach { $0.kill() } }
        let configuration = configuration(types: [StressItem.self])
        let findings = Mutex<(snapshots: Int, wrong: [String])>((0, []))
        let writing = Atomic(true)
        let readers = DispatchGroup()
        for _ in 0..<4 {
            readers.enter()
            Thread {
                defer { readers.leave() }
                do {
                    let realm = try Realm(configuration: configuration)
                    var snapshots = 0, wrong: [String] = []
                    while writing.load(ordering: .relaxed) {
                        realm.refresh()
                        let commits = Int(realm.version - base), items = realm.objects(StressItem.self).count
                        if items != commits { wrong.append("version \(realm.version) holds \(items) items, not \(commits)") }
                        snapshots += 1
                    }
                    findings.withLock { $0.snapshots += snapshots; $0.wrong += wrong }
                } catch {
                    findings.withLock { $0.wrong.append("\(error)") }
                }
            }.start()
        }
        for worker in workers { try worker.waitForSuccess() }
        writing.store(false, ordering: .relaxed)
        readers.wait()
        let (snapshots, wrong) = findings.withLock { $0 }
        XCTAssertGreaterThan(snapshots, 0)
        XCTAssertEqual(wrong, [], "\(wrong.count) of \(snapshots) snapshots")
        XCTAssertEqual(try open().objects(StressItem.self).count, 2 * perWorker)
    }

    func testBankScenarioKeepsItsInvariantsAcrossProcesses() throws {
        let bank = try WorkerProcess.stress(["bank", "--file", fileURL("bank.strata").path, "--duration", "3",
                                             "--writers", "3", "--readers", "1", "--observers", "1", "--nosync"])
        try bank.waitForSuccess()
        XCTAssertTrue(bank.lines.contains("bank: all invariants hold"), bank.transcript)
    }

    // MARK: Helpers

    /// Starts a worker that begins a write adding items from `partialIDs`, waits until it is
    /// inside the transaction, and kills it with SIGKILL.
    private func killInsideAWrite(partialIDs: Int) throws {
        let holder = try WorkerProcess.stress(["worker", "hold-write", "--file", path, "--from", "\(partialIDs)", "--count", "20"])
        defer { holder.kill() }
        try holder.expectLine(startingWith: "IN-WRITE")
        holder.kill(SIGKILL)
        try holder.waitForExit()
        XCTAssertEqual(holder.process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(holder.process.terminationStatus, SIGKILL)
    }

    /// Opens the file on a new thread and commits item `id` there; fails the test if the
    /// write does not finish (a write lock left held by a dead process would block it).
    private func writeOnAnotherThread(id: Int, timeout: TimeInterval = 120) throws {
        let done = DispatchSemaphore(value: 0)
        let configuration = configuration(types: [StressItem.self])
        nonisolated(unsafe) var failure: Error?
        let thread = Thread {
            do {
                let realm = try Realm(configuration: configuration)
                try realm.write { realm.add(StressItem(value: ["id": id, "tag": "after-kill", "value": id * 10])) }
            } catch { failure = error }
            done.signal()
        }
        thread.start()
        guard done.wait(timeout: .now() + timeout) == .success else {
            throw WorkerError("a write after the kill did not finish within \(Int(timeout)) s: the write lock was not released")
        }
        if let failure { throw failure }
    }
}
