import Foundation
import XCTest
@testable import Strata

final class Badge: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var code = ""
}

final class Appointment: Object {
    @Persisted var title = ""
    @Persisted var at: Date
}

/// RealmSwift's dynamic access by name (ObjectTests.swift's `testDynamicGet`,
/// `testValueForKey`), schema flags and defaults where Strata differed.
final class KeyValueCodingTests: StrataTestCase {
    func testNumbersReadByNameCastToAnyNumericTypeThatHoldsThem() throws {
        let realm = try openRealm(types: [AllTypes.self])
        let object = try realm.write {
            realm.create(AllTypes.self, value: ["int8": 7, "int16": 300, "int32": 70_000, "int64": 5, "float": 1.5, "double": 2.5, "optInt8": 3])
        }
        for candidate in [object, AllTypes(value: ["int8": 7, "int16": 300, "int32": 70_000, "int64": 5, "float": 1.5, "double": 2.5, "optInt8": 3])] {
            XCTAssertEqual(candidate["int8"] as? Int, 7)
            XCTAssertEqual(candidate["int8"] as? Int8, 7)
            XCTAssertEqual(candidate.value(forKey: "int16") as? Int, 300)
            XCTAssertEqual(candidate["int32"] as? Int64, 70_000)
            XCTAssertEqual(candidate["int64"] as? Int, 5)
            XCTAssertEqual(candidate["float"] as? Double, 1.5)
            XCTAssertEqual(candidate["double"] as? Double, 2.5)
            XCTAssertEqual(candidate["optInt8"] as? Int, 3)
            XCTAssertNil(candidate["optInt16"], "null stays nil")
            XCTAssertNil(candidate["int16"] as? Int8, "300 does not fit an Int8")
            XCTAssertEqual(candidate["string"] as? String, "")
            XCTAssertEqual(candidate["bool"] as? Bool, false)
        }
    }

    func testAValueReadByNameCanBeWrittenBack() throws {
        let realm = try openRealm(types: [AllTypes.self])
        let object = try realm.write { realm.create(AllTypes.self, value: ["int8": 7, "double": 2.5]) }
        try realm.write {
            object["int16"] = object["int8"]
            object["float"] = object["double"]
        }
        XCTAssertEqual(object.int16, 7)
        XCTAssertEqual(object.float, 2.5)
    }

    func testLinkingObjectsAreReachableByName() throws {
        let realm = try openRealm(types: shipTypes)
        let ship = try seedShip(realm)
        let aboard = try XCTUnwrap(ship["aboard"] as? LinkingObjects<Sailor>)
        XCTAssertEqual(aboard.map(\.id).sorted(), [1, 2, 3])
        XCTAssertEqual((ship.value(forKey: "aboard") as? LinkingObjects<Sailor>)?.count, 3)
        let unmanaged = try XCTUnwrap(Ship()["aboard"] as? LinkingObjects<Sailor>)
        XCTAssertEqual(unmanaged.count, 0)
    }

    func testKeyPathsReadThroughLinksAndCollectionsAndSetTheLastProperty() throws {
        let realm = try openRealm(types: shipTypes)
        let sailor = try realm.write {
            realm.create(Sailor.self, value: ["id": 1, "name": "Ann", "ship": ["id": 7, "name": "Hind", "roster": [["id": 2, "name": "Bo"]]]])
        }
        XCTAssertEqual(sailor.value(forKeyPath: "ship.name") as? String, "Hind")
        XCTAssertEqual((sailor.ship?["roster"] as? List<Sailor>)?.count, 1, "a managed list reads by name as the list")
        XCTAssertEqual(sailor.value(forKeyPath: "ship.roster.name") as? [String], ["Bo"], "a collection on the way gives each element's value")
        XCTAssertNil(Sailor().value(forKeyPath: "ship.name"), "a nil link on the way reads nil")
        try realm.write { sailor.setValue("Golden Hind", forKeyPath: "ship.name") }
        XCTAssertEqual(realm.object(ofType: Ship.self, forPrimaryKey: 7)?.name, "Golden Hind")
        let unmanaged = Sailor(value: ["ship": Ship()])
        unmanaged.setValue("Pelican", forKeyPath: "ship.name")
        XCTAssertEqual(unmanaged.ship?.name, "Pelican")
    }

    func testObjectKeyIdentifiableIdentifiesTheStoredObject() throws {
        let realm = try openRealm(types: [Badge.self])
        let unmanaged = Badge(value: ["code": "a"])
        XCTAssertNotEqual(unmanaged.id, Badge(value: ["code": "a"]).id, "unmanaged objects are their instances")
        try realm.write { realm.add(unmanaged); realm.add(Badge(value: ["code": "b"])) }
        let again = try XCTUnwrap(realm.object(ofType: Badge.self, forPrimaryKey: "a"))
        XCTAssertEqual(again.id, unmanaged.id, "every accessor of a stored object has its id")
        XCTAssertEqual(again.freeze().id, again.id)
        XCTAssertNotEqual(realm.object(ofType: Badge.self, forPrimaryKey: "b")?.id, again.id)
    }

    func testAnUnmanagedObjectsCollectionReadByNameIsItsOwn() throws {
        let ship = Ship()
        (ship["logbook"] as? List<String>)?.append("calm")
        (ship.value(forKey: "roster") as? List<Sailor>)?.append(Sailor(value: ["id": 1]))
        XCTAssertEqual(Array(ship.logbook), ["calm"], "written through the list the object holds")
        XCTAssertEqual(ship.roster.count, 1)
        let realm = try openRealm(types: shipTypes)
        try realm.write { realm.add(ship) }
        XCTAssertEqual(realm.objects(Ship.self).first?.logbook.first, "calm")
    }

    /// Key-value coding is `ObjectBase`'s, as RealmSwift's (from `NSObject`), so code holding
    /// an `ObjectBase` uses it; a `DynamicObject` reads and sets undefined keys by name.
    func testKeyValueCodingOnObjectBaseAndUndefinedKeysOfDynamicObjects() throws {
        let base: ObjectBase = Sailor(value: ["id": 1, "name": "Ann"])
        XCTAssertEqual(base.value(forKey: "name") as? String, "Ann")
        base.setValue("Bo", forKey: "name")
        XCTAssertEqual(base.value(forKeyPath: "name") as? String, "Bo")
        let realm = try openRealm(types: shipTypes)
        try realm.write { realm.add(base as! Sailor) }
        let dynamic = try XCTUnwrap(realm.dynamicObjects("Sailor").first)
        XCTAssertEqual(dynamic.value(forUndefinedKey: "name") as? String, "Bo")
        try realm.write { dynamic.setValue("Cy", forUndefinedKey: "name") }
        XCTAssertEqual((base as! Sailor).name, "Cy")
    }

    func testCollectionOperatorsInKeyPaths() throws {
        let realm = try openRealm(types: shipTypes)
        try realm.write {
            realm.create(Ship.self, value: ["id": 1, "roster": [["id": 1, "name": "Ann", "rank": 1], ["id": 2, "name": "Bo", "rank": 3],
                                                                ["id": 3, "name": "Ann", "rank": 2]]])
        }
        let sailors = realm.objects(Sailor.self)
        XCTAssertEqual((sailors.value(forKeyPath: "@count") as? NSNumber)?.intValue, 3)
        XCTAssertEqual((sailors.value(forKeyPath: "@sum.rank") as? NSNumber)?.intValue, 6)
        XCTAssertEqual((sailors.value(forKeyPath: "@avg.rank") as? NSNumber)?.doubleValue, 2)
        XCTAssertEqual((sailors.value(forKeyPath: "@min.rank") as? NSNumber)?.intValue, 1)
        XCTAssertEqual((sailors.value(forKeyPath: "@max.rank") as? NSNumber)?.intValue, 3)
        XCTAssertEqual((sailors.value(forKeyPath: "@unionOfObjects.name") as? NSArray)?.count, 3)
        XCTAssertEqual((sailors.value(forKeyPath: "@distinctUnionOfObjects.name") as? NSArray)?.count, 2)
        let roster = try XCTUnwrap(realm.objects(Ship.self).first?.roster)
        let maximum: Any? = roster.value(forKeyPath: "@max.rank")
        XCTAssertEqual((maximum as? NSNumber)?.intValue, 3, "lists too (RealmCollection's value(forKeyPath:) -> Any?)")
        let names: [AnyObject] = roster.value(forKeyPath: "name")
        XCTAssertEqual(names as? [String], ["Ann", "Bo", "Ann"], "a list's own value(forKeyPath:) gives an array, as RealmSwift's")
        let pantry = Pantry()
        pantry.pets["rex"] = Companion(value: ["name": "Rex"])
        XCTAssertEqual(pantry.pets.value(forKeyPath: "rex.name") as? String, "Rex", "a map's: the value under the first key, then on")
        XCTAssertNil(pantry.pets.value(forKeyPath: "tom.name"))
        XCTAssertNil(sailors.filter("id > 9").value(forKeyPath: "@avg.rank"), "no values have no average")
        try realm.write {
            for sailor in sailors { sailor.ship = realm.objects(Ship.self).first }
            realm.create(Sailor.self, value: ["id": 4, "name": "Cy", "rank": 9])
        }
        let ships = try XCTUnwrap(sailors.sorted(byKeyPath: "id").value(forKeyPath: "ship.name") as? [Any?])
        XCTAssertEqual(ships.count, 4, "a path through a link reads it on each object")
        XCTAssertEqual(ships[0] as? String, "")
        XCTAssertNil(ships[3] as Any?, "nil where the link is nil")
        XCTAssertEqual((sailors.value(forKeyPath: "@max.ship.id") as? NSNumber)?.intValue, 1, "operators over such a path")
        let unmanaged = List<Sailor>()
        unmanaged.append(Sailor(value: ["id": 7, "ship": ["id": 2, "name": "Swan"]]))
        XCTAssertEqual(unmanaged.value(forKeyPath: "ship.name") as? [String], ["Swan"], "an unmanaged list's too")
    }

    func testKeyPathNamesAreThePropertiesTheyRead() {
        XCTAssertEqual(_name(for: \Sailor.name), "name")
        XCTAssertEqual(ObjectBase._name(for: \Sailor.ship?.name), "ship.name")
        XCTAssertEqual(_name(for: \Ship.roster), "roster")
        XCTAssertEqual(_name(for: \Ship.roster[0].name), "roster.name", "as RealmSwift: a subscript reads an element")
        XCTAssertEqual(_name(for: \Ship.roster.first?.ship?.name), "roster.ship.name")
        XCTAssertEqual(_name(for: \Ship.aboard), "aboard")
        XCTAssertEqual(_name(for: \Ship.aboard[0].name), "aboard.name", "an inverse relationship reads on as a list")
        XCTAssertEqual(_name(for: \Ship.aboard[0].ship?.roster[0].rank), "aboard.ship.roster.rank")
        XCTAssertEqual(_name(for: \Pantry.pets[""]??.name), "pets.name", "a map of objects reads on through its values")
        XCTAssertEqual(_name(for: \Pantry.stock), "stock")
    }

    /// A query on a managed List of values that names anything but SELF traps saying how the
    /// value is named.
    func testFilteringAListOfValuesByAPropertyTrapsSayingSo() throws {
        try assertProbeTraps("testFilterAListOfValues", saying: "a query on a collection of values names its value SELF")
    }

    func testSettingLinkingObjectsByNameTraps() throws {
        try assertProbeTraps("testSetLinkingObjectsByName", saying: "Cannot set 'Ship.aboard': a LinkingObjects property is read-only")
    }

    func testAToOneLinkIsOptionalInTheSchema() throws {
        let realm = try openRealm(types: shipTypes)
        let sailor = try XCTUnwrap(realm.schema["Sailor"])
        XCTAssertEqual(sailor["ship"]?.isOptional, true)
        XCTAssertEqual(sailor["ship"]?.objectClassName, "Ship")
        XCTAssertEqual(Sailor().objectSchema["ship"]?.isOptional, true)
        XCTAssertEqual(sailor["name"]?.isOptional, false)
        XCTAssertEqual(realm.schema["Ship"]?["roster"]?.isOptional, false, "a list is not optional")
    }

    func testSharedSchemaIsTheClassSchema() throws {
        let schema = try XCTUnwrap(Sailor.sharedSchema())
        XCTAssertEqual(schema.className, "Sailor")
        XCTAssertEqual(schema.properties.map(\.name), ["id", "name", "rank", "ship"])
        XCTAssertEqual(schema.primaryKeyProperty?.name, "id")
        XCTAssertEqual(Sailor().objectSchema.properties.map(\.name), schema.properties.map(\.name))
    }

    func testADateWithoutADefaultStartsNow() throws {
        let before = Date()
        let appointment = Appointment()
        let after = Date()
        XCTAssertGreaterThanOrEqual(appointment.at, before)
        XCTAssertLessThanOrEqual(appointment.at, after)
        let realm = try openRealm(types: [Appointment.self])
        let stored = try realm.write { realm.create(Appointment.self, value: ["title": "dentist"]) }
        XCTAssertGreaterThanOrEqual(stored.at, before)
    }
}
