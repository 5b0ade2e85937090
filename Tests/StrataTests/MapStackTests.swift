import Foundation
import XCTest
import Strata

// Versions of one stored class "Larder", told apart in Swift.
final class LarderV0: Object {
    override class func _realmObjectName() -> String? { "Larder" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var shelf: List<String>
}

final class LarderV1: Object {
    override class func _realmObjectName() -> String? { "Larder" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var shelf: List<String>
    @Persisted var counts: Map<String, Int>
}

final class LarderAsMap: Object {
    override class func _realmObjectName() -> String? { "Larder" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var shelf: Map<String, String>
}

final class DogRun: Object {
    @Persisted var dogs: Map<String, Companion>
}

/// Maps through migrations, object notifications and the schema's checks.
final class MapStackTests: StrataTestCase {
    private func config(_ version: UInt64, _ types: [ObjectBase.Type], block: MigrationBlock? = nil) -> Realm.Configuration {
        Realm.Configuration(fileURL: fileURL(), schemaVersion: version, migrationBlock: block, objectTypes: types)
    }

    private func seed() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [LarderV0.self]))
            try realm.write { realm.create(LarderV0.self, value: ["id": 1, "shelf": ["jam", "tea"]]) }
        }
    }

    func testAMigrationRemovesAMapProperty() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [LarderV1.self]))
            try realm.write { realm.create(LarderV1.self, value: ["id": 1, "counts": ["a": 1]]) }
        }
        let realm = try Realm(configuration: config(1, [LarderV0.self]))
        XCTAssertEqual(realm.objects(LarderV0.self).count, 1)
        assertConsistent()
    }

    func testAMigrationSetsANewMapFromADictionary() throws {
        try seed()
        let realm = try Realm(configuration: config(1, [LarderV1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Larder") { _, new in new?["counts"] = ["tea": 1, "jam": 3] }
        })
        let larder = try XCTUnwrap(realm.object(ofType: LarderV1.self, forPrimaryKey: 1))
        XCTAssertEqual(Array(larder.counts.keys), ["jam", "tea"])
        XCTAssertEqual(larder.counts["jam"], 3)
        assertConsistent()
    }

    func testAMapInTheBlockIsAMapTheBlockChanges() throws {
        try seed()
        let realm = try Realm(configuration: config(1, [LarderV1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Larder") { old, new in
                XCTAssertEqual(Array(old!["shelf"] as! List<String>), ["jam", "tea"])
                let counts = new!["counts"] as! Map<String, Int>
                counts["tea"] = 2
                counts["jam"] = 5
                counts.removeObject(for: "tea")
                XCTAssertEqual((new!["counts"] as! Map<String, Int>)["jam"], 5, "every read hands out the same map")
                new!["counts"] = ["oil": 1, "jam": 4]
                XCTAssertEqual(counts.count, 2, "the map handed out holds the whole map assigned")
                counts["oil"] = 2
            }
        })
        let larder = try XCTUnwrap(realm.object(ofType: LarderV1.self, forPrimaryKey: 1))
        XCTAssertEqual(Array(larder.counts.keys), ["jam", "oil"])
        XCTAssertEqual(larder.counts["jam"], 4)
        XCTAssertEqual(larder.counts["oil"], 2)
        assertConsistent()
    }

    func testAMigrationRefusesAnArrayForAMap() throws {
        try seed()
        XCTAssertThrowsError(try Realm(configuration: config(1, [LarderV1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Larder") { _, new in new?["counts"] = [1, 2] }
        })) { error in
            XCTAssertTrue("\(error)".contains("for map 'Larder.counts': give a dictionary with string keys"), "\(error)")
        }
        XCTAssertEqual(try Realm(configuration: config(0, [LarderV0.self])).objects(LarderV0.self).count, 1)
    }

    func testTurningAListIntoAMapIsAChangeOfType() throws {
        try seed()
        XCTAssertThrowsError(try Realm(configuration: config(0, [LarderAsMap.self]))) { error in
            XCTAssertTrue("\(error)".contains("'array<string>' to 'map<string, string>'"), "\(error)")
        }
    }

    func testAMapOfObjectsMustHaveOptionalValues() throws {
        XCTAssertThrowsError(try openRealm(types: [DogRun.self, Companion.self])) { error in
            XCTAssertTrue("\(error)".contains("is a map of objects and its values must be optional"), "\(error)")
        }
    }

    func testAnObjectNotificationReportsTheMapProperty() throws {
        let realm = try openRealm(types: [Pantry.self, Companion.self])
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1]) }
        var changed: [[String]] = []
        let token = pantry.observe { change in
            if case .change(_, let properties) = change { changed.append(properties.map(\.name)) }
        }
        defer { token.invalidate() }
        try realm.write { pantry.stock["a"] = 1 }
        runRunLoop { !changed.isEmpty }
        XCTAssertEqual(changed, [["stock"]])
    }
}
