import Foundation
import Strata
import StrataReplication
import StrataStorage
import StrataTestSupport
import XCTest

/// `strata replicate mirror` and `ReplicationMirror` against a real PostgreSQL server: one
/// typed table per class, kept in step with a Strata file, that SQL reads as the file holds it.
final class ReplicationMirrorTests: PostgresTestCase {
    private func realm() throws -> Realm { try Realm(configuration: configuration(types: relicTypes)) }

    @discardableResult
    private func mirror(_ schema: String = "public") throws -> WorkerProcess {
        let run = try strata(["replicate", "mirror", fileURL().path, "--to", conninfo, "--schema", schema])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        return run
    }

    private func sql(_ query: String) throws -> [[String?]] { try PostgresConnection(conninfo).execute(query).rows }

    /// Fails unless every `Relic` row of the mirror holds the id, label, count and keeper
    /// (by `_key`) the file's relic holds.
    private func assertRelicsMatch(_ realm: Realm, line: UInt = #line) throws {
        realm.refresh()
        let expected = realm.objects(Relic.self).sorted(byKeyPath: "id").map { r in
            ["\(r.id)", r.label, "\(r.count)", r.keeper.map { "\($0.id)" }]
        }
        let actual = try sql("""
            SELECT r.id::text, r.label, r.count::text, k.id::text FROM "Relic" r LEFT JOIN "Keeper" k ON r.keeper = k._key ORDER BY r.id
            """)
        XCTAssertEqual(actual, Array(expected), line: line)
    }

    func testTablesHoldEveryObjectAndFollowTheCommitsAfterThem() throws {
        let realm = try realm()
        try RelicFile.fill(realm, count: 24, seed: 11)
        let first = try mirror()
        XCTAssertTrue(first.lines.first?.contains("every table written") == true, first.transcript)
        try assertRelicsMatch(realm)
        let relic = try XCTUnwrap(realm.object(ofType: Relic.self, forPrimaryKey: 5))
        let row = try XCTUnwrap(try sql("""
            SELECT flag::text, ratio::text, weight::text, encode(blob, 'base64'), extract(epoch FROM found)::bigint::text,
                   uuid::text, oid, price::text, anything::text, note, sizes::text FROM "Relic" WHERE id = 5
            """).first)
        XCTAssertEqual(row[0], "\(relic.flag)")
        XCTAssertEqual(Float(row[1]!), relic.ratio)
        XCTAssertEqual(Double(row[2]!), relic.weight)
        XCTAssertEqual(row[3], relic.blob.base64EncodedString())
        XCTAssertEqual(row[4], "\(Int(relic.found.timeIntervalSince1970))")
        XCTAssertEqual(row[5], relic.uuid.uuidString.lowercased())
        XCTAssertEqual(row[6], relic.oid.stringValue)
        XCTAssertEqual(row[7], relic.price.stringValue)
        XCTAssertEqual(row[8], #"{"type": "string", "value": "any 5"}"#)
        XCTAssertEqual(row[9], relic.note)
        XCTAssertEqual(row[10], "[" + relic.sizes.map(String.init).joined(separator: ", ") + "]")
        let keeper = try XCTUnwrap(try sql(#"SELECT relics::text, tags::text, marks->>'m1' FROM "Keeper" WHERE id = 0"#).first)
        XCTAssertEqual(keeper[1], #"["tag 0", "tag 1", "tag 2", "tag 3", "tag 4"]"#)
        XCTAssertEqual(keeper[2], "1")

        try realm.write {
            realm.object(ofType: Relic.self, forPrimaryKey: 1)!.label = "renamed"
            realm.delete(realm.object(ofType: Relic.self, forPrimaryKey: 2)!)
            realm.create(Relic.self, value: ["id": 99, "label": "new", "keeper": realm.object(ofType: Keeper.self, forPrimaryKey: 3)!])
        }
        try realm.write { realm.delete(realm.objects(Keeper.self).filter("id == 3")) }
        let second = try mirror()
        XCTAssertTrue(second.lines.first?.contains("changes written") == true, second.transcript)
        try assertRelicsMatch(realm)
        let idle = try mirror()
        XCTAssertTrue(idle.lines.first?.contains("(changes written, 0 objects)") == true, idle.transcript)
        XCTAssertEqual(try sql(#"SELECT count(*) FROM "Keeper""#).first?[0], "3")
    }

    func testAMigrationWritesEveryTableAgainWithTheNewColumns() throws {
        try closingRealms {
            let realm = try Realm(configuration: configuration(types: [PersonV0.self]))
            try realm.write { for n in 1...3 { realm.create(PersonV0.self, value: ["firstName": "p\(n)", "age": n]) } }
        }
        try mirror("reports")
        try closingRealms {
            var config = configuration(types: [PersonV1.self])
            config.schemaVersion = 1
            config.migrationBlock = { migration, _ in
                migration.enumerateObjects(ofType: "Person") { old, new in new?["fullName"] = "\(old?["firstName"] ?? "")!" }
            }
            _ = try Realm(configuration: config)
        }
        let run = try mirror("reports")
        XCTAssertTrue(run.lines.first?.contains("every table written, 3 objects") == true, run.transcript)
        XCTAssertEqual(try sql(#"SELECT "fullName" FROM reports."Person" ORDER BY age"#).map { $0[0] }, ["p1!", "p2!", "p3!"])
    }

    func testAKilledMirrorLeavesTheLastVersionItCommittedAndCatchesUp() throws {
        let realm = try realm()
        try realm.write { realm.create(Keeper.self, value: ["id": 0, "name": "k"]) }
        let running = try WorkerProcess(try BuiltProducts.executable("strata"),
                                        ["replicate", "mirror", fileURL().path, "--to", conninfo, "--follow"])
        try running.expectLine(startingWith: "mirroring")
        try running.expectLine(startingWith: "schema public: mirrors version")
        for n in 1...60 { try realm.write { realm.create(Relic.self, value: ["id": n, "label": "r\(n)", "keeper": realm.objects(Keeper.self).first!]) } }
        running.kill()
        let mirrored = try XCTUnwrap(try sql("SELECT version FROM public.strata_mirror").first?[0].flatMap { UInt64($0) })
        XCTAssertLessThanOrEqual(mirrored, realm.version)
        try mirror()
        try assertRelicsMatch(realm)
        XCTAssertEqual(try sql("SELECT version FROM public.strata_mirror").first?[0], "\(realm.version)")
    }
}
