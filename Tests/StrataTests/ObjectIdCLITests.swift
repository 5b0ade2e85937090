import Foundation
import XCTest
import Strata

/// Objects keyed by `ObjectId` that link to each other by it.
final class OIDNode: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted(indexed: true) var ref: ObjectId?
    @Persisted var next: OIDNode?
    @Persisted var ids: List<ObjectId>
}

/// `ObjectId` values in `strata query`, `export` and `import`, run as the built executable.
final class ObjectIdCLITests: StrataTestCase {
    private let first = ObjectId("5f5e10000a0b0c0102000001")
    private let second = ObjectId("ffffffffffffffffffffffff")

    private func makeFile(_ name: String = "test.strata") throws -> String {
        try closingRealms {
            let realm = try openRealm(name, types: [OIDNode.self])
            try realm.write {
                let a = realm.create(OIDNode.self, value: ["_id": first, "ref": ObjectId(), "ids": [second, first]])
                realm.create(OIDNode.self, value: ["_id": second, "next": a])
            }
        }
        return fileURL(name).path
    }

    func testQueriesTakeOidLiteralsAndPrintTheDigits() throws {
        let file = try makeFile()
        let run = try strata(["query", file, "OIDNode", "_id == oid(\(first.stringValue))", "--json"])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        XCTAssertEqual(run.lines.count, 1, run.transcript)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(object["_id"] as? String, first.stringValue)
        XCTAssertEqual(object["ref"] as? String, ObjectId().stringValue)

        let byArgument = try strata(["query", file, "OIDNode", "next._id == %@", first.stringValue])
        XCTAssertEqual(byArgument.process.terminationStatus, 0, byArgument.transcript)
        XCTAssertTrue(byArgument.lines.contains { $0.contains(second.stringValue) }, byArgument.transcript)

        let bad = try strata(["query", file, "OIDNode", "_id == oid(xyz)"])
        XCTAssertNotEqual(bad.process.terminationStatus, 0, bad.transcript)
        XCTAssertTrue(bad.errorOutput.contains("'xyz' is not a valid ObjectId"), bad.transcript)
    }

    func testExportThenImportRoundTripsEveryObjectIdExactly() throws {
        let source = try makeFile()
        let export = try assertExportImportRoundTrip(source, into: "copy.strata")
        XCTAssertTrue(export.lines.contains { $0.contains("\"\(first.stringValue)\"") && $0.contains("\"ids\":[\"\(second.stringValue)\"") },
                      export.transcript)
        try closingRealms {
            let realm = try openRealm("copy.strata", types: [OIDNode.self])
            let b = try XCTUnwrap(realm.object(ofType: OIDNode.self, forPrimaryKey: second))
            XCTAssertEqual(b.next?._id, first)
            XCTAssertNil(b.ref)
            XCTAssertEqual(realm.object(ofType: OIDNode.self, forPrimaryKey: first).map { Array($0.ids) }, [second, first])
        }
    }

    func testImportRefusesTextThatIsNotAnObjectId() throws {
        let source = try makeFile()
        let lines = try strata(["export", source]).lines
        let broken = lines.map { $0.replacingOccurrences(of: first.stringValue, with: "not-an-object-id") }
        let jsonl = fileURL("bad.jsonl").path
        try broken.map { $0 + "\n" }.joined().write(toFile: jsonl, atomically: true, encoding: .utf8)
        let run = try strata(["import", fileURL("copy.strata").path, jsonl])
        XCTAssertEqual(run.process.terminationStatus, 1, run.transcript)
        XCTAssertTrue(run.errorOutput.contains("OIDNode._id: expected an ObjectId (24 hexadecimal digits), got a string"), run.transcript)
    }
}
