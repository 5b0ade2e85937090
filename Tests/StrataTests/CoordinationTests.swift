import Foundation
import StrataTestSupport
import XCTest
import Strata

/// The `.lock` coordination file with real processes: commits in one process reach the
/// observers of another without a refresh, the registry shows who pins which version, and
/// processes killed with SIGKILL leave nothing behind that blocks or grows the file.
///
/// Deadlines here only stop a hung wait; nothing is timed.
final class CoordinationTests: StrataTestCase {
    private var path: String { fileURL().path }

    private func open() throws -> Realm { try openRealm(types: [StressItem.self]) }

    /// Runs this thread's run loop until `done` holds, failing after `seconds`.
    private func runLoop(until done: () -> Bool, seconds: TimeInterval = 60, _ what: String) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !done() && Date() < deadline {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
        XCTAssertTrue(done(), "timed out waiting for \(what)")
    }

    private func add(_ realm: Realm, _ ids: Range<Int>) throws {
        for id in ids {
            try realm.write { realm.add(StressItem(value: ["id": id, "tag": "main", "value": id])) }
        }
    }

    // MARK: - Notifications across processes

    func testAnotherProcessCommitsReachThisProcessObserversWithoutRefresh() throws {
        let realm = try open()
        try add(realm, 0..<1)
        var inserted = 0, updates = 0
        let token = realm.objects(StressItem.self).sorted(byKeyPath: "id").observe { change in
            if case let .update(_, deletions, insertions, modifications) = change {
                XCTAssertEqual(deletions, [])
                XCTAssertEqual(modifications, [])
                inserted += insertions.count
                updates += 1
            }
        }
        defer { token.invalidate() }
        var didChange = 0
        let realmToken = realm.observe { notification, _ in if notification == .didChange { didChange += 1 } }
        defer { realmToken.invalidate() }
        runLoop(until: { realm.objects(StressItem.self).count == 1 }, "the initial delivery")

        let before = realm.version
        let worker = try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "100", "--count", "5"])
        try worker.waitForSuccess()
        runLoop(until: { inserted == 5 }, "five insertions from the other process")
        XCTAssertEqual(realm.objects(StressItem.self).count, 6, "autorefresh moved the Realm to the newest version")
        XCTAssertEqual(realm.version, before + 5)
        XCTAssertGreaterThanOrEqual(didChange, 1)
        XCTAssertLessThanOrEqual(updates, 5, "commits that arrive together coalesce")
    }

    func testThisProcessCommitsWakeAnObserverInAnotherProcess() throws {
        let realm = try open()
        let observer = try WorkerProcess.stress(["worker", "observe", "--file", path])
        defer { observer.kill() }
        try observer.expectLine(startingWith: "READY")
        try add(realm, 0..<1)
        let line = try observer.expectLine(startingWith: "CHANGE")
        XCTAssertEqual(field("count", in: line), "1")
        XCTAssertEqual(field("insertions", in: line), "1")
        XCTAssertEqual(field("version", in: line), "\(realm.version)")
        try realm.write { realm.objects(StressItem.self).first!.value = 42 }
        let modified = try observer.expectLine(startingWith: "CHANGE")
        XCTAssertEqual(field("modifications", in: modified), "1")
        XCTAssertEqual(field("version", in: modified), "\(realm.version)")
    }

    func testAnotherThreadsCommitRefreshesThisThread() throws {
        let realm = try open()
        var counts: [Int] = []
        let token = realm.objects(StressItem.self).observe { change in
            if case let .update(items, _, _, _) = change { counts.append(items.count) }
        }
        defer { token.invalidate() }
        runLoop(until: { realm.objects(StressItem.self).isEmpty }, "the initial delivery")
        let configuration = realm.configuration
        let writer = Thread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(StressItem(value: ["id": 7])) }
        }
        writer.start()
        runLoop(until: { counts == [1] }, "the other thread's commit")
    }

    func testWithoutAutorefreshTheRealmKeepsItsVersionAndHearsRefreshRequired() throws {
        let realm = try open()
        realm.autorefresh = false
        XCTAssertFalse(realm.autorefresh)
        _ = realm.objects(StressItem.self).count  // holds version 0
        var notifications: [Realm.Notification] = []
        let token = realm.observe { notification, _ in notifications.append(notification) }
        defer { token.invalidate() }
        let worker = try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "1", "--count", "1"])
        try worker.waitForSuccess()
        runLoop(until: { notifications.contains(.refreshRequired) }, ".refreshRequired")
        XCTAssertEqual(realm.objects(StressItem.self).count, 0, "the snapshot did not move")
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(realm.objects(StressItem.self).count, 1)
    }

    // MARK: - The registry

    func testOpenProcessesShowsWhoPinsWhichVersionAndForgetsKilledProcesses() throws {
        let realm = try open()
        try add(realm, 0..<3)
        let worker = try WorkerProcess.stress(["worker", "serve", "--file", path])
        defer { worker.kill() }
        try worker.expectLine(startingWith: "READY")
        worker.send("state")  // reads: pins the version it opened at
        let workerVersion = UInt64(try XCTUnwrap(field("version", in: try worker.expectLine(startingWith: "STATE"))))
        XCTAssertEqual(workerVersion, realm.version)
        try add(realm, 3..<5)
        _ = realm.objects(StressItem.self).count  // this process pins the newest version

        let processes = try Realm.openProcesses(for: realm.configuration)
        let entry = try XCTUnwrap(processes.first { $0.pid == worker.pid }, "\(processes)")
        XCTAssertEqual(entry.name, "strata-stress")
        XCTAssertEqual(entry.pinnedVersion, workerVersion)
        XCTAssertEqual(entry.snapshots, 1)
        XCTAssertNotNil(entry.pinnedSince)
        let me = try XCTUnwrap(processes.first { $0.pid == getpid() })
        XCTAssertEqual(me.pinnedVersion, realm.version)

        worker.kill()
        try worker.waitForExit()
        let after = try Realm.openProcesses(for: realm.configuration)
        XCTAssertNil(after.first { $0.pid == worker.pid }, "the killed process's entry is reclaimed")
        XCTAssertNotNil(after.first { $0.pid == getpid() })
    }

    func testAProcessKilledWhileHoldingASnapshotStopsHoldingTheSpace() throws {
        let realm = try open()
        let blob = String(repeating: "x", count: 2_000)
        try realm.write { for id in 0..<200 { realm.add(StressItem(value: ["id": id, "tag": blob])) } }
        let worker = try WorkerProcess.stress(["worker", "serve", "--file", path])
        defer { worker.kill() }
        try worker.expectLine(startingWith: "READY")
        worker.send("state")
        try worker.expectLine(startingWith: "STATE")

        func rewriteAll(_ times: Int) throws -> Int {
            let before = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            for round in 0..<times {
                try realm.write { for item in realm.objects(StressItem.self) { item.value = round } }
            }
            return (try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int) - before
        }
        let grownWhileHeld = try rewriteAll(20)
        XCTAssertGreaterThan(grownWhileHeld, 0, "the held snapshot keeps every rewritten page")
        worker.kill()
        try worker.waitForExit()
        _ = try Realm.openProcesses(for: realm.configuration)  // reclaims the dead entry and reader slot
        _ = try rewriteAll(2)  // the pages held for the dead reader go back to the free list
        let grownAfter = try rewriteAll(20)
        XCTAssertLessThan(grownAfter, grownWhileHeld / 4, "after the kill, rewrites reuse freed pages (held: \(grownWhileHeld) bytes, after: \(grownAfter))")
    }

    func testManyProcessesStartingAtOnceShareOneCoordinationFile() throws {
        let workers = try (0..<6).map { n in
            try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "\(n * 100)", "--count", "20"])
        }
        for worker in workers { try worker.waitForSuccess() }
        let realm = try open()
        XCTAssertEqual(realm.objects(StressItem.self).count, 120)
        let processes = try Realm.openProcesses(for: realm.configuration)
        XCTAssertEqual(processes.map(\.pid), [getpid()], "exited processes left no entries")
    }

    // MARK: - Crashes

    func testProcessesKilledMidCommitLoseNoCommittedWriteAndReleaseTheWriteLock() throws {
        let realm = try open()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<5 {
            let from = 10_000 * (round + 1)
            let worker = try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "\(from)", "--count", "100000"])
            try worker.expectLine(startingWith: "COMMIT")
            usleep(UInt32.random(in: 1_000...50_000, using: &generator))
            worker.kill()
            try worker.waitForExit()
            let reported = worker.lines.compactMap { $0.hasPrefix("COMMIT") ? field("id", in: $0).flatMap(Int.init) : nil }
            realm.refresh()
            let stored = realm.objects(StressItem.self).filter("id >= %@ AND id < %@", from, from + 100_000).map(\.id).sorted()
            XCTAssertEqual(Array(stored.prefix(reported.count)), reported, "every reported commit is in the file")
            XCTAssertEqual(stored, Array(from..<(from + stored.count)), "each write is whole or absent")
            try realm.write { realm.add(StressItem(value: ["id": round])) }  // the write lock is free again
        }
    }

    func testAnObserverKilledWhileWaitingDoesNotStopTheOthers() throws {
        let realm = try open()
        let doomed = try WorkerProcess.stress(["worker", "observe", "--file", path])
        let survivor = try WorkerProcess.stress(["worker", "observe", "--file", path])
        defer { survivor.kill() }
        try doomed.expectLine(startingWith: "READY")
        try survivor.expectLine(startingWith: "READY")
        doomed.kill()
        try doomed.waitForExit()
        try add(realm, 0..<2)
        var line = try survivor.expectLine(startingWith: "CHANGE")
        while field("count", in: line) != "2" { line = try survivor.expectLine(startingWith: "CHANGE") }
        XCTAssertNil(try Realm.openProcesses(for: realm.configuration).first { $0.pid == doomed.pid })
    }

    // MARK: - The coordination file itself

    func testADamagedCoordinationFileIsRebuiltWhenNobodyUsesIt() throws {
        try Data(repeating: 0xAB, count: 100).write(to: URL(fileURLWithPath: path + ".lock"))
        let realm = try open()
        try add(realm, 0..<1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path + ".lock"))
        XCTAssertEqual(Array(bytes.prefix(8)), Array("STRATALK".utf8))
        XCTAssertEqual(try Realm.openProcesses(for: realm.configuration).map(\.pid), [getpid()])
    }

    func testACoordinationFileDamagedWhileInUseIsRefusedWithAClearError() throws {
        let worker = try WorkerProcess.stress(["worker", "serve", "--file", path])
        defer { worker.kill() }
        try worker.expectLine(startingWith: "READY")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".lock"))
        try handle.write(contentsOf: Data("GARBAGE!".utf8))
        try handle.close()
        XCTAssertThrowsError(try open()) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains(".lock") && message.contains("other processes have it open"), message)
        }
    }

    func testMaximumNumberOfActiveVersionsIsAnErrorNamingThePins() throws {
        let configuration = {
            var configuration = self.configuration(types: [StressItem.self])
            configuration.maximumNumberOfActiveVersions = 2
            return configuration
        }()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(StressItem(value: ["id": 1])) }
        let first = realm.version
        // Two other threads each pin a version.
        let release = DispatchSemaphore(value: 0), pinned = DispatchSemaphore(value: 0)
        var threads: [Thread] = []
        for id in 2...3 {
            let thread = Thread {
                let other = try! Realm(configuration: configuration)
                _ = other.objects(StressItem.self).count
                pinned.signal()
                release.wait()
                withExtendedLifetime(other) {}
            }
            thread.start()
            threads.append(thread)
            pinned.wait()
            if id == 2 { try realm.write { realm.add(StressItem(value: ["id": id])) } }
        }
        XCTAssertThrowsError(try realm.write { realm.add(StressItem(value: ["id": 9])) }) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("maximumNumberOfActiveVersions (2)"), message)
            XCTAssertTrue(message.contains("version \(first):") && message.contains("version \(first + 1):"), message)
        }
        release.signal()
        release.signal()
        while threads.contains(where: { !$0.isFinished }) { usleep(1_000) }
        try realm.write { realm.add(StressItem(value: ["id": 9])) }
        XCTAssertEqual(realm.objects(StressItem.self).count, 3)
    }
}
