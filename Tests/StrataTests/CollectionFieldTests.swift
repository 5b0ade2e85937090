import Foundation
import XCTest
@testable import Strata

/// Collections declared as `let` fields, RealmSwift's form from before `@Persisted`.
final class LetKennel: Object {
    @Persisted(primaryKey: true) var id = 0
    let dogs = List<Dog>()
    let tags = MutableSet<String>()
    let scores = Map<String, Int>()
    let byName = Map<String, Dog>()
}

final class LetWalker: Object {
    @Persisted var name = ""
    let pups = List<LetPup>()
    @Persisted var favourite: LetPup?
}

final class LetPup: Object {
    @Persisted var name = ""
    let walkers = LinkingObjects(fromType: LetWalker.self, property: "pups")
    let admirers = LinkingObjects(fromType: LetWalker.self, property: "favourite")
}

/// A list, set or map held in a `let` field is a stored property: written with its object,
/// read back through the field of any accessor, live once managed, and queried by name.
final class CollectionFieldTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [LetKennel.self, Dog.self]) }

    func testTheFieldsAreStoredCollectionProperties() throws {
        let realm = try open()
        let properties = try XCTUnwrap(realm.schema["LetKennel"]).properties
        XCTAssertEqual(properties.map(\.name), ["id", "dogs", "tags", "scores", "byName"])
        XCTAssertEqual(properties.map(\.type), [.int, .object, .string, .int, .object])
        XCTAssertEqual(properties.map(\.isArray), [false, true, false, false, false])
        XCTAssertEqual(properties.map(\.isSet), [false, false, true, false, false])
        XCTAssertEqual(properties.map(\.isMap), [false, false, false, true, true])
    }

    func testAnUnmanagedObjectsCollectionsAreAddedAndTheSameInstancesGoLive() throws {
        let realm = try open()
        let kennel = LetKennel(value: ["id": 1])
        kennel.dogs.append(Dog(value: ["id": 1, "name": "Rex"]))
        kennel.tags.insert("big")
        kennel.scores["rex"] = 9
        let dogs = kennel.dogs
        try realm.write { realm.add(kennel) }
        XCTAssertNotNil(dogs.realm, "the instance the field held is now the managed list")
        try realm.write {
            dogs.append(Dog(value: ["id": 2, "name": "Ace"]))
            kennel.tags.insert("loud")
            kennel.scores["ace"] = 4
        }
        let read = try XCTUnwrap(realm.object(ofType: LetKennel.self, forPrimaryKey: 1))
        XCTAssertFalse(read === kennel)
        XCTAssertEqual(read.dogs.map(\.name), ["Rex", "Ace"])
        XCTAssertEqual(Set(read.tags), ["big", "loud"])
        XCTAssertEqual(read.scores["rex"], 9)
        XCTAssertEqual(read.scores["ace"], 4)
        try realm.write { read.byName["rex"] = read.dogs[0] }
        XCTAssertEqual(kennel.byName["rex"]?.name, "Rex", "a let map of non-optional objects, RealmSwift's older form")
        XCTAssertEqual(realm.objects(LetKennel.self).filter("ANY dogs.name == 'Ace' AND tags.@count == 2").count, 1)
        XCTAssertEqual((read["dogs"] as? List<Dog>)?.count, 2, "key-value coding by the field's name")
        assertConsistent()
    }

    func testAnAccessorIsNotKeptAliveByItsOwnCollections() throws {
        let realm = try open()
        try realm.write { realm.create(LetKennel.self, value: ["id": 9]) }
        weak var released: LetKennel?
        var dogs: List<Dog>?
        do {
            let kennel = try XCTUnwrap(realm.object(ofType: LetKennel.self, forPrimaryKey: 9))
            released = kennel
            dogs = kennel.dogs
            XCTAssertEqual(kennel.tags.count + kennel.scores.count, 0)
        }
        XCTAssertNil(released, "its collections hold it weakly: no cycle")
        try realm.write { dogs?.append(Dog(value: ["id": 50, "name": "Kept"])) }
        XCTAssertEqual(dogs?.first?.name, "Kept", "a collection outliving its accessor reads and writes its stored object")
        XCTAssertEqual(realm.object(ofType: LetKennel.self, forPrimaryKey: 9)?.dogs.count, 1)
        XCTAssertFalse(dogs?.isInvalidated ?? true)
        realm.invalidate()
        XCTAssertTrue(dogs?.isInvalidated ?? false, "invalidate() invalidates a collection read before it")
    }

    func testInitialisingFromValuesFillsTheFields() throws {
        let realm = try open()
        let kennel = LetKennel(value: ["id": 2, "dogs": [["id": 3, "name": "Bo"]], "tags": ["a", "a", "b"], "scores": ["x": 1]])
        XCTAssertEqual(kennel.dogs.first?.name, "Bo")
        XCTAssertEqual(kennel.tags.count, 2)
        XCTAssertEqual(kennel.scores["x"], 1)
        try realm.write { realm.create(LetKennel.self, value: ["id": 3, "dogs": [["id": 4, "name": "Zed"]]]) }
        let created = try XCTUnwrap(realm.object(ofType: LetKennel.self, forPrimaryKey: 3))
        XCTAssertEqual(created.dogs.map(\.name), ["Zed"])
        let copy = LetKennel(value: created)
        XCTAssertNil(copy.dogs.realm, "a copy's list is its own, unmanaged")
        XCTAssertEqual(copy.dogs.map(\.name), ["Zed"])
    }

    func testKeyPathsNameLetFieldsAndReadOnThroughTheirElements() {
        XCTAssertEqual(_name(for: \LetKennel.dogs), "dogs")
        XCTAssertEqual(_name(for: \LetKennel.tags), "tags")
        XCTAssertEqual(_name(for: \LetKennel.dogs[0].name), "dogs.name")
        XCTAssertEqual(_name(for: \LetKennel.byName[""]?.name), "byName.name")
        XCTAssertEqual(_name(for: \LetPup.walkers[0].name), "walkers.name")
        XCTAssertEqual(_name(for: \LetWalker.favourite?.walkers[0].pups), "favourite.walkers.pups")
    }

    func testLinkingObjectsInALetFieldAreLiveOnEveryAccessor() throws {
        let realm = try openRealm(types: [LetWalker.self, LetPup.self])
        XCTAssertEqual(realm.schema["LetPup"]?.properties.map(\.name), ["name"], "inverse relationships are computed, not stored")
        let rex = LetPup(value: ["name": "Rex"])
        XCTAssertEqual(rex.walkers.count, 0, "empty while unmanaged")
        try realm.write {
            realm.add(LetWalker(value: ["name": "Ann", "pups": [rex], "favourite": rex]))
            realm.add(LetWalker(value: ["name": "Bob", "pups": [rex]]))
        }
        XCTAssertEqual(rex.walkers.map(\.name).sorted(), ["Ann", "Bob"], "the added object's field is live")
        let read = try XCTUnwrap(realm.objects(LetPup.self).first)
        XCTAssertEqual(read.walkers.count, 2)
        XCTAssertEqual(read.admirers.map(\.name), ["Ann"])
        XCTAssertEqual(realm.objects(LetPup.self).filter("walkers.@count == 2 AND ANY admirers.name == 'Ann'").count, 1)
        try realm.write { realm.delete(realm.objects(LetWalker.self).filter("name == 'Bob'")) }
        XCTAssertEqual(read.walkers.map(\.name), ["Ann"])
        XCTAssertEqual((read["walkers"] as? LinkingObjects<LetWalker>)?.count, 1)
    }
}
