import Foundation
import XCTest
import Strata

final class Landlord: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var homes: Map<String, Address?>
}

/// A map of embedded objects (RealmSwift's `Map<String, EmbeddedObject?>`): each value is owned
/// by its map, added with it, and deleted when replaced, removed, or with its owner.
final class EmbeddedMapTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Landlord.self, Address.self]) }

    func testValuesAreOwnedByTheirMap() throws {
        let realm = try open()
        let landlord = Landlord(value: ["id": 1])
        landlord.homes["oslo"] = Address(value: ["street": "Storgata 1", "city": "Oslo"])
        try realm.write { realm.add(landlord) }
        let oslo = try XCTUnwrap(landlord.homes["oslo"] ?? nil)
        XCTAssertEqual(oslo.city, "Oslo")
        try realm.write {
            landlord.homes["bergen"] = Address(value: ["city": "Bergen"])
            landlord.homes["oslo"] = Address(value: ["city": "Oslo 2"])
        }
        XCTAssertTrue(oslo.isInvalidated, "the replaced value is deleted")
        XCTAssertEqual(landlord.homes.values.map { $0?.city }, ["Bergen", "Oslo 2"])
        XCTAssertEqual(realm.objects(Landlord.self).filter("homes.@count == 2").count, 1)
        XCTAssertEqual(realm.objects(Landlord.self).filter("ANY homes.city == 'Bergen'").count, 1)
        let bergen = try XCTUnwrap(landlord.homes["bergen"] ?? nil)
        try realm.write { landlord.homes.removeObject(for: "bergen") }
        XCTAssertTrue(bergen.isInvalidated, "a removed value is deleted")
        let remaining = try XCTUnwrap(landlord.homes["oslo"] ?? nil)
        try realm.write { landlord.homes["none"] = .some(nil) }
        XCTAssertEqual(landlord.homes.count, 2)
        assertConsistent()
        try realm.write { realm.delete(landlord) }
        XCTAssertTrue(remaining.isInvalidated, "deleted with its owner")
        assertConsistent()
    }

    func testAManagedValueCannotBeSharedByTwoMaps() throws {
        let realm = try open()
        let first = try realm.write { realm.create(Landlord.self, value: ["id": 1, "homes": ["a": ["city": "A"]]]) }
        let home = try XCTUnwrap(first.homes["a"] ?? nil)
        XCTAssertEqual(home.city, "A")
        XCTAssertThrowsError(try realm.write { try realm.throwingAdd(Landlord(value: ["id": 3, "homes": ["b": home]])) })
        XCTAssertNil(realm.object(ofType: Landlord.self, forPrimaryKey: 3))
        XCTAssertFalse(home.isInvalidated)
        assertConsistent()
    }
}
