import Foundation
import XCTest
import Strata

/// Maps through `strata export` → `strata import`: entries as JSON objects in key order, nil
/// values, object values by key, and malformed map entries rejected with the line named.
final class MapExportTests: StrataTestCase {
    private func seed() throws {
        try closingRealms {
            let realm = try openRealm(types: [Pantry.self, Companion.self])
            try realm.write {
                let pantry = realm.create(Pantry.self, value: ["id": 1, "stock": ["b": 2, "a": 1], "notes": ["x": nil, "y": "dry"]])
                pantry.pets["rex"] = realm.create(Companion.self, value: ["name": "Rex", "age": 3])
                pantry.pets["gone"] = Companion?.none
                realm.create(Pantry.self, value: ["id": 2])
            }
        }
    }

    func testExportThenImportRoundTripsMapsExactly() throws {
        try seed()
        let export = try assertExportImportRoundTrip(fileURL().path, into: "copy.strata")
        XCTAssertTrue(export.lines.contains { $0.contains("\"stock\":{\"a\":1,\"b\":2}") }, export.transcript)
        XCTAssertTrue(export.lines.contains { $0.contains("\"notes\":{\"x\":null,\"y\":\"dry\"}") }, export.transcript)
        try closingRealms {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: fileURL("copy.strata"), objectTypes: [Pantry.self, Companion.self]))
            let pantry = try XCTUnwrap(realm.object(ofType: Pantry.self, forPrimaryKey: 1))
            XCTAssertEqual(pantry.stock.keys, ["a", "b"])
            XCTAssertEqual(pantry.stock["b"], 2)
            XCTAssertEqual(pantry.notes["x"], .some(nil))
            XCTAssertEqual(pantry.pets.keys, ["gone", "rex"])
            XCTAssertEqual(pantry.pets["rex"]??.name, "Rex")
            XCTAssertEqual(pantry.pets["gone"], .some(nil))
            XCTAssertEqual(realm.object(ofType: Pantry.self, forPrimaryKey: 2)?.stock.count, 0)
        }
    }

    func testImportRejectsAMapThatIsNotAnObjectOrHasABadKey() throws {
        try seed()
        let export = try strata(["export", fileURL().path])
        XCTAssertEqual(export.process.terminationStatus, 0, export.transcript)
        let schema = export.lines.filter { !$0.contains("\"values\"") }
        let cases = [
            ("[1,2]", "expected an object of map entries"),
            ("{\"a\":1,\"a\":2}", "the key 'a' appears twice"),
            ("{\"a.b\":1}", "cannot contain '.' or start with '$'"),
            ("{\"a\":\"one\"}", "Pantry.stock"),
        ]
        for (n, (stock, message)) in cases.enumerated() {
            let line = "{\"class\":\"Pantry\",\"key\":0,\"values\":{\"id\":7,\"stock\":\(stock)}}"
            let run = try strataImport(schema + [line], into: "bad\(n).strata")
            XCTAssertNotEqual(run.process.terminationStatus, 0, run.transcript)
            XCTAssertTrue(run.transcript.contains(message), "\(stock): \(run.transcript)")
        }
    }
}
