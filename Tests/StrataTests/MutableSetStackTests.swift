import Foundation
import XCTest
import Strata

// Versions of one stored class "Trip", told apart in Swift.
final class TripV0: Object {
    override class func _realmObjectName() -> String? { "Trip" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var stops: List<String>
}

final class TripV1: Object {
    override class func _realmObjectName() -> String? { "Trip" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var stops: List<String>
    @Persisted var tags: MutableSet<String>
}

final class TripAsSet: Object {
    override class func _realmObjectName() -> String? { "Trip" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var stops: MutableSet<String>
}

/// Sets through migrations and through `strata export` → `strata import`.
final class MutableSetStackTests: StrataTestCase {
    private func config(_ version: UInt64, _ types: [ObjectBase.Type], block: MigrationBlock? = nil) -> Realm.Configuration {
        Realm.Configuration(fileURL: fileURL(), schemaVersion: version, migrationBlock: block, objectTypes: types)
    }

    private func seed() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [TripV0.self]))
            try realm.write { realm.create(TripV0.self, value: ["id": 1, "stops": ["b", "a", "b"]]) }
        }
    }

    func testAMigrationAddsASetPropertyAndFillsItUniquely() throws {
        try seed()
        let realm = try Realm(configuration: config(1, [TripV1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Trip") { old, new in new?["tags"] = old?["stops"] }
        })
        let trip = try XCTUnwrap(realm.object(ofType: TripV1.self, forPrimaryKey: 1))
        XCTAssertEqual(Array(trip.stops), ["b", "a", "b"])
        XCTAssertEqual(Array(trip.tags), ["a", "b"], "values written by a migration are kept once, in order")
        XCTAssertEqual(realm.objects(TripV1.self).filter("'a' IN tags").count, 1)
        assertConsistent()
    }

    func testASetInTheBlockIsASetTheBlockChanges() throws {
        try seed()
        let realm = try Realm(configuration: config(1, [TripV1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Trip") { old, new in
                let tags = new!["tags"] as! MutableSet<String>
                tags.insert(objectsIn: old!["stops"] as! List<String>)
                tags.insert("c")
                tags.remove("a")
                XCTAssertEqual(Set(tags), ["b", "c"])
                new!["tags"] = ["x", "y", "x"]
                XCTAssertEqual(Set(tags), ["x", "y"], "the set handed out holds the whole set assigned")
                tags.insert("z")
            }
        })
        let trip = try XCTUnwrap(realm.object(ofType: TripV1.self, forPrimaryKey: 1))
        XCTAssertEqual(Set(trip.tags), ["x", "y", "z"])
        assertConsistent()
    }

    func testTurningAListIntoASetIsAChangeOfType() throws {
        try seed()
        XCTAssertThrowsError(try Realm(configuration: config(0, [TripAsSet.self]))) { error in
            XCTAssertTrue("\(error)".contains("Property 'Trip.stops' has been changed from 'array<string>' to 'set<string>'"), "\(error)")
        }
    }

    func testExportThenImportRoundTripsSetsExactly() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [TripV1.self]))
            try realm.write {
                realm.create(TripV1.self, value: ["id": 1, "stops": ["x"], "tags": ["c", "a", "b"]])
                realm.create(TripV1.self, value: ["id": 2])
            }
        }
        let export = try assertExportImportRoundTrip(fileURL().path, into: "copy.strata")
        XCTAssertTrue(export.lines.contains { $0.contains("\"tags\":[\"a\",\"b\",\"c\"]") }, export.transcript)
        try closingRealms {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: fileURL("copy.strata"), objectTypes: [TripV1.self]))
            let trip = try XCTUnwrap(realm.object(ofType: TripV1.self, forPrimaryKey: 1))
            XCTAssertEqual(Array(trip.tags), ["a", "b", "c"])
            XCTAssertTrue(trip.tags.contains("b"))
        }
    }
}
