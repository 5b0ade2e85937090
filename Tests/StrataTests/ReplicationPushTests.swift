import Foundation
import Strata
import StrataReplication
import StrataStorage
import StrataTestSupport
import XCTest

/// `strata replicate push` and `ReplicationPusher` against a real PostgreSQL server, one
/// throwaway cluster for the class; each test pushes to a database of its own.
final class ReplicationPushTests: PostgresTestCase {
    /// The versions `strata_log` holds for `origin`, in order, one per row.
    private func loggedVersions(_ origin: String) throws -> [UInt64] {
        try PostgresConnection(conninfo).execute("SELECT version FROM strata_log WHERE origin = $1 ORDER BY version", [.text(origin)])
            .rows.compactMap { $0[0].flatMap(UInt64.init) }
    }

    /// The file's origin id, as its first push printed it.
    private func origin(in line: String) throws -> String {
        try XCTUnwrap(line.split(separator: " ").dropFirst().first.map { String($0.dropLast()) }, line)
    }

    /// Adds dogs `ids`, one commit each.
    private func addDogs(_ ids: ClosedRange<Int>) throws {
        let realm = try Realm(configuration: configuration(types: [Dog.self]))
        for id in ids { try realm.write { realm.add(Dog(value: ["id": id, "name": "dog \(id)"])) } }
    }

    func testPushThenPushAgainHoldsEveryVersionOnceWithItsEntry() throws {
        try addDogs(1...5)
        let first = try strata(["replicate", "push", fileURL().path, "--to", conninfo, "--batch", "2"])
        XCTAssertEqual(first.process.terminationStatus, 0, first.transcript)
        let origin = try origin(in: try XCTUnwrap(first.lines.first))
        // The schema's commit, five dog commits, then the commit that gave the file its origin id.
        XCTAssertTrue(first.lines[0].hasSuffix("pushed versions 1 to 7 (7 commits)"), first.transcript)
        XCTAssertEqual(try loggedVersions(origin), Array(1...7))

        try addDogs(6...9)
        let again = try ReplicationPusher(configuration: configuration(types: [Dog.self]), to: conninfo).push()
        XCTAssertEqual(again.origin, origin, "the origin id is kept in the file")
        XCTAssertEqual(again.versions, 8...11)
        let idle = try strata(["replicate", "push", fileURL().path, "--to", conninfo])
        XCTAssertTrue(idle.lines.first?.hasSuffix("the log already holds every version (up to 11)") == true, idle.transcript)
        XCTAssertEqual(try loggedVersions(origin), Array(1...11))

        // Each row holds its commit's history entry, byte for byte, and its process.
        let rows = try PostgresConnection(conninfo).execute(
            "SELECT version, encode(entry, 'hex'), process, pid FROM strata_log WHERE origin = $1 ORDER BY version", [.text(origin)]).rows
        let file = try StorageFile.open(path: fileURL().path, options: .init(readOnly: true))
        let txn = try file.beginRead()
        defer { txn.abort() }
        for row in rows {
            let entry = try XCTUnwrap(try txn.history.entry(UInt64(row[0]!)!))
            XCTAssertEqual(row[1], entry.encoded().map { String(format: "%02x", $0) }.joined(), "version \(row[0]!)")
            XCTAssertEqual(row[2], entry.processName)
            XCTAssertEqual(row[3], String(entry.pid))
        }
    }

    func testAKilledFollowingPusherResumesWithoutGapOrDuplicate() throws {
        try addDogs(1...3)
        let arguments = ["replicate", "push", fileURL().path, "--to", conninfo, "--follow", "--batch", "1"]
        let pusher = try WorkerProcess(try BuiltProducts.executable("strata"), arguments)
        let origin = String(try pusher.expectLine(startingWith: "following").split(separator: " ").last!)
        try pusher.expectLine(startingWith: "origin \(origin): pushed versions")
        let realm = try Realm(configuration: configuration(types: [Dog.self]))
        for id in 4...40 {
            try realm.write { realm.add(Dog(value: ["id": id])) }
            if id == 20 { pusher.kill() }  // whatever it was doing, mid-batch or between
        }
        try pusher.waitForExit()
        XCTAssertEqual(pusher.process.terminationReason, .uncaughtSignal)
        let held = try loggedVersions(origin)
        XCTAssertEqual(held, Array(1...UInt64(held.count)), "what the killed pusher committed has no gap")

        let restarted = try WorkerProcess(try BuiltProducts.executable("strata"), arguments)
        defer { restarted.kill() }
        try restarted.expectLine(startingWith: "following")
        var last = ""
        while !last.contains(" to \(realm.version) (") {
            last = try restarted.expectLine(startingWith: "origin \(origin): pushed versions", timeout: 60)
        }
        XCTAssertEqual(try loggedVersions(origin), Array(1...realm.version))
    }

    func testAFollowingPusherOutlivesAPostgresRestart() throws {
        try addDogs(1...2)
        let pusher = try WorkerProcess(try BuiltProducts.executable("strata"),
                                       ["replicate", "push", fileURL().path, "--to", conninfo, "--follow"])
        defer { pusher.kill() }
        let origin = String(try pusher.expectLine(startingWith: "following").split(separator: " ").last!)
        try pusher.expectLine(startingWith: "origin \(origin): pushed versions 1 to 4")
        let cluster = try XCTUnwrap(Self.cluster)
        try cluster.stopServer()
        let realm = try Realm(configuration: configuration(types: [Dog.self]))
        try realm.write { realm.add(Dog(value: ["id": 3])) }
        try cluster.start()
        try realm.write { realm.add(Dog(value: ["id": 4])) }
        var last = ""
        while !last.contains(" to \(realm.version) (") {
            last = try pusher.expectLine(startingWith: "origin \(origin): pushed versions", timeout: 60)
        }
        XCTAssertEqual(try loggedVersions(origin), Array(1...realm.version))
        XCTAssertTrue(pusher.errorOutput.contains("retrying"), pusher.transcript)
    }

    func testAWrongOrRefusedConnectionExitsWithPostgresMessage() throws {
        try addDogs(1...1)
        let before = try Realm(configuration: configuration(types: [Dog.self])).version
        let cluster = try XCTUnwrap(Self.cluster)
        let refused = try strata(["replicate", "push", fileURL().path, "--to", "host=\(cluster.directory.path) port=1 dbname=postgres"])
        XCTAssertEqual(refused.process.terminationStatus, 1, refused.transcript)
        XCTAssertTrue(refused.errorOutput.contains("PostgreSQL: connection to server on socket \"\(cluster.directory.path)/.s.PGSQL.1\" failed"),
                      refused.transcript)
        let malformed = try strata(["replicate", "push", fileURL().path, "--to", "colour=blue"])
        XCTAssertEqual(malformed.process.terminationStatus, 1, malformed.transcript)
        XCTAssertTrue(malformed.errorOutput.contains("PostgreSQL: invalid connection option \"colour\""), malformed.transcript)
        let noDatabase = try strata(["replicate", "push", fileURL().path, "--to",
                                     cluster.conninfo.replacingOccurrences(of: "dbname=postgres", with: "dbname=absent")])
        XCTAssertEqual(noDatabase.process.terminationStatus, 1, noDatabase.transcript)
        XCTAssertTrue(noDatabase.errorOutput.contains("database \"absent\" does not exist"), noDatabase.transcript)
        XCTAssertEqual(try Realm(configuration: configuration(types: [Dog.self])).version, before,
                       "a push that cannot connect writes nothing to the file (no origin commit)")
    }

    func testAnEncryptedFileIsPushedOnlyWhenADecryptedLogIsAskedFor() throws {
        let key = Data((0..<64).map { UInt8($0) })
        var config = configuration(types: [Dog.self])
        config.encryptionKey = key
        try closingRealms {
            let realm = try Realm(configuration: config)
            try realm.write { realm.add(Dog(value: ["id": 1, "name": "Secret"])) }
        }
        let hexKey = key.map { String(format: "%02x", $0) }.joined()
        let refused = try strata(["replicate", "push", fileURL().path, "--to", conninfo], environment: ["STRATA_KEY": hexKey])
        XCTAssertEqual(refused.process.terminationStatus, 1, refused.transcript)
        XCTAssertTrue(refused.errorOutput.contains("is encrypted, and the PostgreSQL log would hold its commits decrypted"), refused.transcript)
        XCTAssertThrowsError(try ReplicationPusher(configuration: config, to: conninfo))
        let tables = try PostgresConnection(conninfo).execute("SELECT count(*) FROM pg_tables WHERE tablename = 'strata_log'").rows
        XCTAssertEqual(tables.first?[0], "0", "nothing was written to PostgreSQL")

        let allowed = try strata(["replicate", "push", fileURL().path, "--to", conninfo, "--decrypted-log"], environment: ["STRATA_KEY": hexKey])
        XCTAssertEqual(allowed.process.terminationStatus, 0, allowed.transcript)
        XCTAssertTrue(allowed.lines.first?.hasSuffix("pushed versions 1 to 3 (3 commits)") == true, allowed.transcript)
    }

    func testHistoryTheRetentionRemovedIsAGap() throws {
        var configuration = configuration(types: [Dog.self])
        configuration.historyRetention = .count(3)
        let realm = try Realm(configuration: configuration)
        for id in 1...6 { try realm.write { realm.add(Dog(value: ["id": id])) } }
        let push = try strata(["replicate", "push", fileURL().path, "--to", conninfo])
        XCTAssertEqual(push.process.terminationStatus, 1, push.transcript)
        XCTAssertTrue(push.errorOutput.contains("ends at version 0, but the file's oldest retained history entry is version 5"), push.transcript)
        XCTAssertEqual(try PostgresConnection(conninfo).execute("SELECT count(*) FROM strata_log").scalar, "0")
    }
}
