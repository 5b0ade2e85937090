import Foundation
import XCTest
@testable import Strata

/// A top-level class as a file stores it before it is made embedded.
final class PlaceV0: Object {
    override class func _realmObjectName() -> String? { "Place" }
    @Persisted var city = ""
}

final class HolderV0: Object {
    override class func _realmObjectName() -> String? { "Holder" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var place: PlaceV0?
}

/// The same class made embedded.
final class PlaceV1: EmbeddedObject {
    override class func _realmObjectName() -> String? { "Place" }
    @Persisted var city = ""
}

final class HolderV1: Object {
    override class func _realmObjectName() -> String? { "Holder" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var place: PlaceV1?
}

/// Embedded classes through migrations and through `strata export` → `strata import`.
final class EmbeddedStackTests: StrataTestCase {
    private func config(_ version: UInt64, _ types: [ObjectBase.Type], block: MigrationBlock? = nil) -> Realm.Configuration {
        Realm.Configuration(fileURL: fileURL(), schemaVersion: version, migrationBlock: block, objectTypes: types)
    }

    /// Two holders, each with its own place, and `orphans` places nothing links to.
    private func seed(orphans: Int = 0) throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [HolderV0.self, PlaceV0.self]))
            try realm.write {
                realm.create(HolderV0.self, value: ["id": 1, "place": ["city": "Oslo"]])
                realm.create(HolderV0.self, value: ["id": 2, "place": ["city": "Bergen"]])
                for _ in 0..<orphans { realm.create(PlaceV0.self, value: ["city": "Nowhere"]) }
            }
        }
    }

    func testMakingAClassEmbeddedNeedsAMigration() throws {
        try seed()
        XCTAssertThrowsError(try Realm(configuration: config(0, [HolderV1.self, PlaceV1.self]))) { error in
            XCTAssertTrue("\(error)".contains("Class 'Place' has been changed from top-level to embedded."), "\(error)")
        }
    }

    func testAMigrationMakesAClassEmbeddedWhenEveryObjectHasOneOwner() throws {
        try seed()
        let realm = try Realm(configuration: config(1, [HolderV1.self, PlaceV1.self]))
        let holder = try XCTUnwrap(realm.object(ofType: HolderV1.self, forPrimaryKey: 1))
        XCTAssertEqual(holder.place?.city, "Oslo")
        try realm.write { realm.delete(holder) }
        XCTAssertEqual(realm.objects(HolderV1.self).filter("place.city == 'Bergen'").count, 1)
        let schema = realm.core.reading { try realm.core.transaction().schema }
        XCTAssertEqual(schema.classes["Place"]?.isEmbedded, true)
        assertConsistent()
    }

    func testAMigrationRefusesToMakeAnObjectWithoutAnOwnerEmbedded() throws {
        try seed(orphans: 1)
        XCTAssertThrowsError(try Realm(configuration: config(1, [HolderV1.self, PlaceV1.self]))) { error in
            XCTAssertTrue("\(error)".contains("Cannot convert 'Place' to embedded: an object has 0 owners"), "\(error)")
        }
        let realm = try Realm(configuration: config(0, [HolderV0.self, PlaceV0.self]))
        XCTAssertEqual(realm.objects(PlaceV0.self).count, 3, "the file is unchanged")
    }

    func testAMigrationBlockCanDeleteTheObjectsWithoutAnOwner() throws {
        try seed(orphans: 2)
        let realm = try Realm(configuration: config(1, [HolderV1.self, PlaceV1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Place") { old, new in
                if (old?["city"] as? String) == "Nowhere", let new { migration.delete(new) }
            }
        })
        XCTAssertEqual(realm.objects(HolderV1.self).compactMap(\.place?.city).sorted(), ["Bergen", "Oslo"])
        assertConsistent()
    }

    func testAMigrationCannotLeaveAnEmbeddedObjectWithoutAnOwner() throws {
        try seed()
        try closingRealms { _ = try Realm(configuration: config(1, [HolderV1.self, PlaceV1.self])) }
        XCTAssertThrowsError(try Realm(configuration: config(2, [HolderV1.self, PlaceV1.self]) { migration, _ in
            migration.create("Place", value: ["city": "Alone"])
        })) { error in
            XCTAssertTrue("\(error)".contains("'Place' is embedded: after the migration an object has 0 owners"), "\(error)")
        }
    }

    func testExportThenImportRoundTripsEmbeddedObjectsExactly() throws {
        try closingRealms {
            let realm = try openRealm(types: embeddedTypes)
            try realm.write {
                realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo", "location": ["latitude": 59.9], "phones": [["number": "1"]]],
                                                  "addresses": [["city": "Bergen"], ["city": "Moss"]]] as [String: Any])
                realm.create(Tenant.self, value: ["id": 2])
            }
        }
        let export = try assertExportImportRoundTrip(fileURL().path, into: "copy.strata")
        XCTAssertTrue(export.lines[0].contains("\"embedded\":true"), export.transcript)
        try closingRealms {
            let realm = try openRealm("copy.strata", types: embeddedTypes)
            let tenant = try XCTUnwrap(realm.object(ofType: Tenant.self, forPrimaryKey: 1))
            XCTAssertEqual(tenant.address?.location?.latitude, 59.9)
            XCTAssertEqual(tenant.address?.phones.map(\.number), ["1"])
            XCTAssertEqual(tenant.addresses.map(\.city), ["Bergen", "Moss"])
        }
    }

    func testImportRefusesAnEmbeddedObjectWithoutAnOwner() throws {
        try closingRealms {
            let realm = try openRealm(types: embeddedTypes)
            try realm.write { realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo"]]) }
        }
        let export = try strata(["export", fileURL().path])
        let orphan = export.lines.filter { !$0.contains("\"class\":\"Tenant\"") }
        let run = try strataImport(orphan, into: "copy.strata")
        XCTAssertNotEqual(run.process.terminationStatus, 0, run.transcript)
        XCTAssertTrue(run.transcript.contains("Address is embedded: no line links to this object"), run.transcript)
    }
}
