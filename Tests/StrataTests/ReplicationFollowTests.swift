import Foundation
import Strata
import StrataReplication
import StrataStorage
import StrataTestSupport
import XCTest

/// `strata replicate follow` and `ReplicationFollower` against a real PostgreSQL server: an
/// origin's commits pushed, then applied to followers that must end up holding what the origin
/// holds (`strata export` equal), one local commit per origin version.
final class ReplicationFollowTests: PostgresTestCase {
    private var origin: URL { fileURL("origin.strata") }
    private var follower: URL { fileURL("follower.strata") }

    private func originRealm() throws -> Realm {
        try Realm(configuration: configuration("origin.strata", types: relicTypes))
    }

    /// Pushes the origin; returns its origin id.
    @discardableResult
    private func push() throws -> String {
        let pushed = try ReplicationPusher(configuration: Realm.Configuration(fileURL: origin), to: conninfo).push()
        return pushed.origin
    }

    /// Runs `strata replicate follow` once into `file`, requiring exit status 0.
    @discardableResult
    private func follow(_ id: String, into file: URL? = nil) throws -> WorkerProcess {
        let run = try strata(["replicate", "follow", (file ?? follower).path, "--from", conninfo, "--origin", id])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        return run
    }

    /// Fails unless `strata export` of `file` prints what it prints for the origin.
    private func assertSameExport(_ file: URL? = nil, line: UInt = #line) throws {
        let expected = try strata(["export", origin.path])
        let actual = try strata(["export", (file ?? follower).path])
        XCTAssertEqual(expected.process.terminationStatus, 0, expected.transcript, line: line)
        XCTAssertFalse(expected.lines.isEmpty, line: line)
        XCTAssertEqual(actual.lines, expected.lines, actual.transcript, line: line)
    }

    func testAnEmptyFollowerStartsAtTheSnapshotAndHoldsWhatTheOriginHolds() throws {
        try RelicFile.fill(try originRealm(), count: 40, seed: 7)
        let id = try push()
        let first = try follow(id)
        XCTAssertTrue(first.lines.first?.contains("origin \(id): applied versions 8 to 8 (1 commit)") == true, first.transcript)
        try assertSameExport()
        assertConsistent("follower.strata")

        // Inserts, updates, list, set and map changes, deletes and a cleared class.
        let realm = try originRealm()
        try realm.write {
            let keeper = realm.object(ofType: Keeper.self, forPrimaryKey: 1)!
            keeper.relics.removeFirst()
            keeper.relics.append(realm.object(ofType: Relic.self, forPrimaryKey: 3)!)
            keeper.tags.insert("new tag")
            keeper.marks["m0"] = nil
            keeper.marks["late"] = 99
        }
        try realm.write { realm.objects(Relic.self).filter("id < 5").forEach { $0.count += 1; $0.sizes.append(7) } }
        try realm.write { realm.delete(realm.object(ofType: Relic.self, forPrimaryKey: 30)!) }
        try realm.write { realm.create(Relic.self, value: ["id": 100, "label": "late relic"]) }
        try realm.write { realm.delete(realm.objects(Keeper.self)) }
        try push()
        let second = try follow(id)
        XCTAssertTrue(second.lines.first?.contains("applied versions 9 to 13 (5 commits); the log holds 13") == true, second.transcript)
        try assertSameExport()
        assertConsistent("follower.strata")
        let again = try follow(id)
        XCTAssertTrue(again.lines.first?.contains("the file already holds every version of the log (up to 13)") == true, again.transcript)

        // Each origin version is one local commit whose entry names it, with the origin's changes.
        let txn = try StorageFile.open(path: follower.path, options: .init(readOnly: true)).beginRead()
        defer { txn.abort() }
        let newest = try XCTUnwrap(try txn.history.entry(txn.version))
        XCTAssertEqual(newest.description, "Replicated from origin \(id) version 13")
        XCTAssertEqual(newest.changes.classes["Keeper"]?.cleared, true)
        let info = try strataObject(["info", follower.path, "--json"])
        let replication = try XCTUnwrap(info["replication"] as? [String: Any])
        XCTAssertEqual(replication["role"] as? String, "follower")
        XCTAssertEqual(replication["applied"] as? Int, 13)
    }

    func testAFollowerGetsNotificationsAndRefusesLocalWrites() throws {
        try RelicFile.fill(try originRealm(), count: 8, seed: 1)
        let id = try push()
        try follow(id)
        let local = try Realm(configuration: configuration("follower.strata", types: relicTypes))
        let relics = local.objects(Relic.self)
        var counts: [Int] = []
        let token = relics.observe { change in
            if case .update(let results, _, _, _) = change { counts.append(results.count) }
        }
        defer { token.invalidate() }
        drain()
        let realm = try originRealm()
        try realm.write { realm.create(Relic.self, value: ["id": 500]) }
        try push()
        try follow(id)
        spin { !counts.isEmpty }
        XCTAssertEqual(counts.last, relics.count)
        XCTAssertNotNil(local.object(ofType: Relic.self, forPrimaryKey: 500))

        XCTAssertThrowsError(try local.write { local.create(Relic.self, value: ["id": 501]) }) { error in
            XCTAssertTrue("\(error)".contains("is a follower of replication origin \(id): only the commits it replays"), "\(error)")
        }
        XCTAssertNil(local.object(ofType: Relic.self, forPrimaryKey: 501))
        let pushFollower = try strata(["replicate", "push", follower.path, "--to", conninfo])
        XCTAssertEqual(pushFollower.process.terminationStatus, 1, pushFollower.transcript)
        XCTAssertTrue(pushFollower.errorOutput.contains("is a follower of origin \(id): push the origin itself"), pushFollower.transcript)
    }

    func testAFollowerKilledMidRunResumesWithNothingAppliedTwice() throws {
        let realm = try originRealm()
        try realm.write { realm.create(Keeper.self, value: ["id": 0, "name": "k"]) }
        let id = try push()
        for n in 1...120 {
            try realm.write {
                realm.create(Relic.self, value: ["id": n, "label": "relic \(n)"])
                realm.object(ofType: Keeper.self, forPrimaryKey: 0)!.marks["m\(n % 9)"] = n
            }
        }
        try push()
        let running = try WorkerProcess(try BuiltProducts.executable("strata"),
                                        ["replicate", "follow", follower.path, "--from", conninfo, "--origin", id, "--batch", "5", "--follow"])
        try running.expectLine(startingWith: "applying the log of origin \(id)")
        try running.expectLine(startingWith: "origin \(id): applied versions")
        running.kill()
        try follow(id)
        try assertSameExport()
        assertConsistent("follower.strata")
        // One local commit per origin version, each exactly once.
        let txn = try StorageFile.open(path: follower.path, options: .init(readOnly: true)).beginRead()
        defer { txn.abort() }
        var replayed: [UInt64] = []
        try txn.history.forEach(after: nil, newestFirst: false) { entry in
            if let version = entry.description?.split(separator: " ").last.flatMap({ UInt64($0) }) { replayed.append(version) }
            return true
        }
        XCTAssertEqual(replayed, Array(replayed.first!...realm.version))
    }

    func testAMigrationOnTheOriginReachesTheFollowerAsASnapshot() throws {
        try closingRealms {
            let realm = try Realm(configuration: configuration("origin.strata", types: [PersonV0.self]))
            try realm.write { for n in 1...3 { realm.create(PersonV0.self, value: ["firstName": "p\(n)", "age": n]) } }
        }
        let id = try push()
        try follow(id)
        try closingRealms {
            var config = configuration("origin.strata", types: [PersonV1.self])
            config.schemaVersion = 1
            config.migrationBlock = { migration, _ in
                migration.enumerateObjects(ofType: "Person") { old, new in new?["fullName"] = "\(old?["firstName"] ?? "")!" }
            }
            _ = try Realm(configuration: config)
        }
        try push()
        try follow(id)
        try assertSameExport()
        assertConsistent("follower.strata")
        let info = try strataObject(["info", follower.path, "--json"])
        XCTAssertEqual(info["schemaVersion"] as? Int, 1)
    }

    func testAFollowerStartsFromACopyOfTheOrigin() throws {
        try RelicFile.fill(try originRealm(), count: 12, seed: 3)
        let id = try push()
        let realm = try originRealm()
        try realm.write { realm.create(Relic.self, value: ["id": 200]) }
        try realm.writeCopy(toFile: follower)
        let early = try strata(["replicate", "follow", follower.path, "--from", conninfo, "--origin", id])
        XCTAssertEqual(early.process.terminationStatus, 1, early.transcript)
        XCTAssertTrue(early.errorOutput.contains("The follower holds version \(realm.version) of origin \(id), but the log ends at version \(realm.version - 1)"),
                      early.transcript)
        try realm.write { realm.create(Relic.self, value: ["id": 201]) }
        try push()
        let run = try follow(id)
        XCTAssertTrue(run.lines.first?.contains("applied versions \(realm.version) to \(realm.version) (1 commit)") == true, run.transcript)
        try assertSameExport()
    }

    func testTwoFollowersOfBusyWritersSurviveKillsAndAPostgresRestart() throws {
        let writers = try (0..<2).map { _ in try WorkerProcess.stress(["worker", "history", "--file", origin.path, "--nosync"]) }
        for writer in writers { _ = try writer.expectLine(startingWith: "READY") }
        let id = try push()
        let replicas = [fileURL("replica-a.strata"), fileURL("replica-b.strata")]
        let tool = try BuiltProducts.executable("strata")
        func pusher() throws -> WorkerProcess {
            try WorkerProcess(tool, ["replicate", "push", origin.path, "--to", conninfo, "--batch", "3", "--follow"])
        }
        func follower(_ replica: URL) throws -> WorkerProcess {
            try WorkerProcess(tool, ["replicate", "follow", replica.path, "--from", conninfo, "--origin", id, "--batch", "4", "--follow"])
        }
        func mirror() throws -> WorkerProcess {
            try WorkerProcess(tool, ["replicate", "mirror", replicas[1].path, "--to", conninfo, "--schema", "mirror", "--follow"])
        }
        var running = [try pusher()] + (try replicas.map(follower))
        // The mirror of a follower starts once the follower has a file.
        spin { FileManager.default.fileExists(atPath: replicas[1].path) }
        running.append(try mirror())
        var random = SplitMix64(seed: 0x5eed)
        for step in 0..<80 {
            let writer = writers[step % 2]
            writer.send("step \(random.next())")
            _ = try writer.expectLine(startingWith: "OK")
            if step % 9 == 4 {
                // SIGKILL one of the pusher, the followers and the mirror at random, and start it again.
                let victim = Int(random.next() % 4)
                running[victim].kill()
                running[victim] = switch victim {
                case 0: try pusher()
                case 3: try mirror()
                default: try follower(replicas[victim - 1])
                }
            }
            if step == 40 {
                let cluster = try XCTUnwrap(Self.cluster)
                try cluster.stopServer()
                Thread.sleep(forTimeInterval: 0.3)
                try cluster.start()
            }
        }
        for writer in writers {
            writer.send("quit")
            _ = try writer.expectLine(startingWith: "BYE")
        }
        running.forEach { $0.kill() }
        try push()
        for replica in replicas {
            try follow(id, into: replica)
            try assertSameExport(replica)
            assertConsistent(replica.lastPathComponent)
        }
        // The mirror's tables hold the objects the origin holds: by class, the same keys.
        let run = try strata(["replicate", "mirror", replicas[1].path, "--to", conninfo, "--schema", "mirror"])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        var expected: [String: Set<String>] = [:]
        for line in try strata(["export", origin.path]).lines {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let name = object["class"] as? String, let key = (object["key"] as? String)?.dropFirst(), let k = UInt64(key) else { continue }
            expected[name, default: []].insert(String(Int64(bitPattern: k)))
        }
        for (name, keys) in expected {
            let mirrored = try PostgresConnection(conninfo).execute("SELECT _key FROM mirror.\"\(name)\"").rows.compactMap { $0[0] }
            XCTAssertEqual(Set(mirrored), keys, name)
        }
        let newest = try StorageFile.open(path: origin.path, options: .init(readOnly: true)).beginRead().version
        let counts = try PostgresConnection(conninfo).execute(
            "SELECT count(*), count(DISTINCT version), min(version), max(version) FROM strata_log WHERE origin = $1", [.text(id)]).rows
        XCTAssertEqual(counts.first, ["\(newest)", "\(newest)", "1", "\(newest)"], "every version in the log exactly once")
    }

    func testWrongOriginsAndFilesAreRefusedClearly() throws {
        try RelicFile.fill(try originRealm(), count: 4, seed: 2)
        let id = try push()
        func refused(_ arguments: [String], _ message: String, line: UInt = #line) throws {
            let run = try strata(["replicate", "follow"] + arguments)
            XCTAssertEqual(run.process.terminationStatus, 1, run.transcript, line: line)
            XCTAssertTrue(run.errorOutput.contains(message), run.transcript, line: line)
        }
        try refused([follower.path, "--from", conninfo, "--origin", "no-such-origin"], "The log has no origin no-such-origin")
        try refused([origin.path, "--from", conninfo, "--origin", id], "is the origin \(id) itself")
        try closingRealms {
            let own = try Realm(configuration: configuration("own.strata", types: [Dog.self]))
            try own.write { own.add(Dog(value: ["id": 1])) }
        }
        try refused([fileURL("own.strata").path, "--from", conninfo, "--origin", id], "holds objects of its own ('Dog')")
        try follow(id)
        try refused([follower.path, "--from", conninfo, "--origin", "other"], "The log has no origin other")
        let otherOrigin = "0000-other"
        try PostgresConnection(conninfo).execute("INSERT INTO strata_origin (origin, file) VALUES ($1, 'elsewhere')", [.text(otherOrigin)])
        try refused([follower.path, "--from", conninfo, "--origin", otherOrigin], "follows origin \(id), not \(otherOrigin)")
        let missing = try strata(["replicate", "follow", follower.path, "--from", conninfo])
        XCTAssertEqual(missing.process.terminationStatus, 2, missing.transcript)
    }
}
