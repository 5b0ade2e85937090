import Foundation
import XCTest
import Strata

/// A value type stored as an embedded object.
struct MOPlace: CustomPersistable {
    typealias PersistedType = Address
    let city: String
    init(city: String) { self.city = city }
    init(persistedValue: Address) { city = persistedValue.city }
    var persistableValue: Address { Address(value: ["city": city]) }
}

final class MOAtlas: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var places: Map<String, MOPlace>
    @Persisted var home: MOPlace?
    /// Non-optional: a new object's is made from a new `Address`, as RealmSwift's.
    @Persisted var office: MOPlace
}

/// A `CustomPersistable` stored as an object is an optional link underneath, as in
/// RealmSwift: a map may declare its values non-optional (`Map<String, MOPlace>`).
final class MappedObjectTests: StrataTestCase {
    func testAMapOfACustomTypeStoredAsAnObject() throws {
        let realm = try openRealm(types: [MOAtlas.self, Address.self, Coordinates.self, Phone.self])
        let places = try XCTUnwrap(realm.schema["MOAtlas"]?["places"])
        XCTAssertTrue(places.isMap && places.isOptional && places.type == .object)
        try realm.write {
            let atlas = realm.create(MOAtlas.self, value: ["id": 1])
            atlas.places["oslo"] = MOPlace(city: "Oslo")
            atlas.home = MOPlace(city: "Bergen")
        }
        let atlas = try XCTUnwrap(realm.object(ofType: MOAtlas.self, forPrimaryKey: 1))
        XCTAssertEqual(atlas.places["oslo"]?.city, "Oslo")
        XCTAssertEqual(atlas.home?.city, "Bergen")
        try realm.write { atlas.places["oslo"] = MOPlace(city: "Tromsø") }
        XCTAssertEqual(atlas.places.values.map(\.city), ["Tromsø"])
        assertConsistent()
    }

    func testANonOptionalCustomTypeStoredAsAnObjectDefaultsToANewObject() throws {
        XCTAssertEqual(MOAtlas().office.city, "", "a new object's value is made from a new Address")
        let realm = try openRealm(types: [MOAtlas.self, Address.self, Coordinates.self, Phone.self])
        try realm.write { realm.add(MOAtlas()) }
        let atlas = try XCTUnwrap(realm.objects(MOAtlas.self).first)
        XCTAssertEqual(atlas.office.city, "")
        try realm.write { atlas.office = MOPlace(city: "Molde") }
        XCTAssertEqual(atlas.office.city, "Molde")
    }

    /// The custom value itself may be given where its object is (init(value:), create), in
    /// a property, a map's values and a list's elements.
    func testAValueGivenAsTheCustomTypeIsStoredAsItsObject() throws {
        let values: [String: Any] = ["id": 1, "office": MOPlace(city: "Oslo"), "home": MOPlace(city: "Bergen"),
                                     "places": ["north": MOPlace(city: "Tromsø")]]
        let unmanaged = MOAtlas(value: values)
        XCTAssertEqual(unmanaged.office.city, "Oslo")
        XCTAssertEqual(unmanaged.home?.city, "Bergen")
        XCTAssertEqual(unmanaged.places["north"]?.city, "Tromsø")
        let realm = try openRealm(types: [MOAtlas.self, Address.self, Coordinates.self, Phone.self])
        let atlas = try realm.write { realm.create(MOAtlas.self, value: values) }
        XCTAssertEqual(atlas.office.city, "Oslo")
        XCTAssertEqual(atlas.home?.city, "Bergen")
        XCTAssertEqual(atlas.places["north"]?.city, "Tromsø")
    }

    /// Null for a non-optional custom type stored as an object reads as its default, as
    /// RealmSwift's (the link underneath is optional).
    func testNullForANonOptionalCustomTypeStoredAsAnObjectReadsAsItsDefault() throws {
        let values: [String: Any] = ["id": 1, "office": NSNull(), "places": ["gone": NSNull()]]
        let unmanaged = MOAtlas(value: values)
        XCTAssertEqual(unmanaged.office.city, "")
        let realm = try openRealm(types: [MOAtlas.self, Address.self, Coordinates.self, Phone.self])
        let atlas = try realm.write { realm.create(MOAtlas.self, value: values) }
        XCTAssertEqual(atlas.office.city, "")
        XCTAssertEqual(atlas.places["gone"]?.city, "")
        XCTAssertNil(atlas.home)
    }
}

/// Type-safe queries reach the properties of a custom type's object through
/// `persistableValue`, optional or not.
final class MappedObjectQueryTests: StrataTestCase {
    func testAQueryReachesTheStoredObjectsPropertiesThroughPersistableValue() throws {
        let realm = try openRealm(types: [MOAtlas.self, Address.self, Coordinates.self, Phone.self])
        try realm.write {
            realm.create(MOAtlas.self, value: ["id": 1, "office": MOPlace(city: "Oslo"), "home": MOPlace(city: "Bergen")])
            realm.create(MOAtlas.self, value: ["id": 2, "office": MOPlace(city: "Bergen")])
        }
        let atlases = realm.objects(MOAtlas.self)
        XCTAssertEqual(atlases.where { $0.office.persistableValue.city == "Oslo" }.map(\.id), [1])
        XCTAssertEqual(atlases.where { $0.office.persistableValue.city != "Oslo" }.map(\.id), [2])
        XCTAssertEqual(atlases.where { $0.home.persistableValue.city == "Bergen" }.map(\.id), [1])
        XCTAssertEqual(atlases.where { $0.places["x"].persistableValue.city == "Bergen" }.map(\.id), [])
        let (format, arguments) = (Query<MOAtlas>._constructForTesting().office.persistableValue.city == "Oslo")._constructPredicate()
        XCTAssertEqual(format, "(office.city == %@)")
        XCTAssertEqual(arguments.map { "\($0)" }, ["Oslo"])
    }
}

/// An embedded object of plain properties, and a value type stored as one.
final class MOTag: EmbeddedObject {
    @Persisted var label = ""
    @Persisted var weight = 0
}

struct MOLabel: CustomPersistable {
    typealias PersistedType = MOTag
    let label: String, weight: Int
    init(_ label: String, _ weight: Int) { (self.label, self.weight) = (label, weight) }
    init(persistedValue: MOTag) { (label, weight) = (persistedValue.label, persistedValue.weight) }
    var persistableValue: MOTag { MOTag(value: ["label": label, "weight": weight]) }
}

final class MOLabelled: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tag: MOLabel
    @Persisted var optTag: MOLabel?
    @Persisted var tags: List<MOLabel>
    @Persisted var tagMap: Map<String, MOLabel?>
}

/// An embedded object with a link, and one with a list, and custom types stored as them:
/// memberwise equality is not defined on them.
final class MOLinked: EmbeddedObject {
    @Persisted var label = ""
    @Persisted var target: MOLabelled?
}

final class MOListed: EmbeddedObject {
    @Persisted var labels: List<String>
}

struct MOLinkedValue: CustomPersistable {
    typealias PersistedType = MOLinked
    init() {}
    init(persistedValue: MOLinked) {}
    var persistableValue: MOLinked { MOLinked() }
}

struct MOListedValue: CustomPersistable {
    typealias PersistedType = MOListed
    init() {}
    init(persistedValue: MOListed) {}
    var persistableValue: MOListed { MOListed() }
}

final class MOUnequal: Object {
    @Persisted var linked: MOLinkedValue?
    @Persisted var listed: MOListedValue?
}

extension TrapProbes {
    func testMemberwiseEqualityThroughALink() throws {
        let realm = try openRealm(types: [MOUnequal.self, MOLinked.self, MOListed.self, MOLabelled.self, MOTag.self])
        _ = realm.objects(MOUnequal.self).where { $0.linked == MOLinkedValue() }.count
    }

    func testMemberwiseEqualityOfAList() throws {
        let realm = try openRealm(types: [MOUnequal.self, MOLinked.self, MOListed.self, MOLabelled.self, MOTag.self])
        _ = realm.objects(MOUnequal.self).where { $0.listed == MOListedValue() }.count
    }
}

/// A custom type stored as an embedded object compared with a value: RealmSwift's memberwise
/// equality, property by property, inside one object of a collection.
final class MemberwiseEqualityTests: StrataTestCase {
    func testEmbeddedObjectsCompareWithAValuePropertyByProperty() throws {
        let realm = try openRealm(types: [MOLabelled.self, MOTag.self])
        let a = MOLabel("a", 1), b = MOLabel("a", 2), c = MOLabel("c", 1)
        try realm.write {
            realm.create(MOLabelled.self, value: ["id": 1, "tag": a, "optTag": a, "tags": [a], "tagMap": ["x": a]])
            realm.create(MOLabelled.self, value: ["id": 2, "tag": b, "tags": [b, c]])
            realm.create(MOLabelled.self, value: ["id": 3, "tag": c, "optTag": c])
        }
        func ids(_ query: (Query<MOLabelled>) -> Query<Bool>) -> [Int] { realm.objects(MOLabelled.self).where(query).map(\.id) }
        XCTAssertEqual(ids { $0.tag == a }, [1])
        XCTAssertEqual(ids { $0.tag != a }, [2, 3])
        XCTAssertEqual(ids { $0.optTag == a }, [1])
        XCTAssertEqual(ids { $0.optTag != a }, [2, 3], "a nil link differs from every value")
        XCTAssertEqual(ids { $0.tags == a }, [1])
        XCTAssertEqual(ids { $0.tags != a }, [2], "some element differs")
        XCTAssertEqual(ids { $0.tags == MOLabel("a", 1) || $0.tag.persistableValue.label == "c" }, [1, 3])
        XCTAssertEqual(ids { $0.tags == MOLabel("c", 2) }, [], "each property equal in one element, not across elements")
        XCTAssertEqual(ids { $0.tagMap.values == a }, [1])
        XCTAssertEqual(ids { $0.tagMap.values != a }, [])
        XCTAssertEqual(ids { $0.tag.persistableValue == MOTag(value: ["label": "a", "weight": 1]) }, [],
                       "an embedded object given as itself compares by identity")
        let (format, arguments) = (Query<MOLabelled>._constructForTesting().tag == a)._constructPredicate()
        XCTAssertEqual(format, "(tag == %@)")
        XCTAssertEqual(arguments.count, 1)
    }

    func testAnEmbeddedClassWithALinkOrAListHasNoMemberwiseEquality() throws {
        try assertProbeTraps("testMemberwiseEqualityThroughALink",
                             saying: "Unsupported property 'MOLinked.target' for memberwise equality query: object links are not implemented.")
        try assertProbeTraps("testMemberwiseEqualityOfAList",
                             saying: "Unsupported property 'MOListed.labels' for memberwise equality query: equality on collections is not implemented.")
    }
}
