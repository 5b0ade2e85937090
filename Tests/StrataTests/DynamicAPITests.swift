import Foundation
import XCTest
@testable import Strata

final class DynOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age: Int8 = 0
    @Persisted var rating = 2.5
    @Persisted var best: DynPet?
    @Persisted var pets: List<DynPet>
    @Persisted var nicknames: List<String>
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var friends: MutableSet<DynPet>
    @Persisted var petsByName: Map<String, DynPet?>
}

final class DynPet: Object {
    @Persisted var name = ""
    @Persisted var legs = 4
}

/// The dynamic API: `Realm.dynamicObjects`, `dynamicObject(ofType:forPrimaryKey:)`,
/// `dynamicCreate` and `Object.dynamicList`, reading and writing stored classes by name
/// through live `DynamicObject`s, as RealmSwift's do.
final class DynamicAPITests: StrataTestCase {
    private func openWithOwners() throws -> Realm {
        let realm = try openRealm(types: [DynOwner.self, DynPet.self])
        try realm.write {
            realm.create(DynOwner.self, value: ["id": 1, "name": "Ann", "age": 30, "best": ["name": "Rex"],
                                               "pets": [["name": "Rex"], ["name": "Tweety", "legs": 2]],
                                               "nicknames": ["A", "Annie"], "tags": ["x", "y"], "scores": ["math": 9]])
            realm.create(DynOwner.self, value: ["id": 2, "name": "Bob", "age": 41])
        }
        return realm
    }

    func testDynamicObjectsReadEveryKindOfProperty() throws {
        let realm = try openWithOwners()
        let owners = realm.dynamicObjects("DynOwner")
        XCTAssertEqual(owners.count, 2)
        let ann = try XCTUnwrap(owners.filter("name == 'Ann'").first)
        XCTAssertEqual(ann["name"] as? String, "Ann")
        XCTAssertEqual(ann.name as? String, "Ann", "dynamic member lookup")
        XCTAssertEqual(ann["age"] as? Int, 30, "an Int8 reads as a number castable to Int")
        XCTAssertEqual(ann["rating"] as? Double, 2.5)
        let best = try XCTUnwrap(ann["best"] as? DynPet, "as RealmSwift: a link to a class the program declares is its accessor")
        XCTAssertEqual(best.name, "Rex")
        let pets = try XCTUnwrap(ann["pets"] as? List<DynamicObject>)
        XCTAssertEqual(pets.map { $0["name"] as? String }, ["Rex", "Tweety"])
        XCTAssertEqual(pets.filter("legs == 2").first?["name"] as? String, "Tweety")
        XCTAssertEqual(ann["nicknames"] as? [String], ["A", "Annie"])
        XCTAssertEqual(Set(ann["tags"] as? [String] ?? []), ["x", "y"])
        XCTAssertEqual((ann["scores"] as? [String: Any?])?["math"] as? Int, 9)
        XCTAssertNil(owners.filter("id == 2").first?["best"] ?? nil)
        XCTAssertEqual(realm.dynamicObjects("DynPet").count, 3)
    }

    func testDynamicResultsSortAggregateAndMatchTypedObjects() throws {
        let realm = try openWithOwners()
        let owners = realm.dynamicObjects("DynOwner")
        XCTAssertEqual(owners.sorted(byKeyPath: "age", ascending: false).map { $0["name"] as? String }, ["Bob", "Ann"])
        XCTAssertEqual(owners.max(ofProperty: "age") as Int8?, 41)
        XCTAssertEqual(owners.filter("ANY pets.legs == 2").count, 1)
        let typed = try XCTUnwrap(realm.object(ofType: DynOwner.self, forPrimaryKey: 1))
        let dynamic = try XCTUnwrap(realm.dynamicObject(ofType: "DynOwner", forPrimaryKey: 1))
        XCTAssertEqual(dynamic, realm.dynamicObject(ofType: "DynOwner", forPrimaryKey: 1), "the same stored object")
        XCTAssertEqual(dynamic["name"] as? String, typed.name)
        XCTAssertTrue(dynamic.isSameObject(as: typed) && typed.isSameObject(as: dynamic), "a dynamic and a typed accessor of one object")
        XCTAssertNil(realm.dynamicObject(ofType: "DynOwner", forPrimaryKey: 99))
        XCTAssertTrue(owners.contains(dynamic))
    }

    func testDynamicWritesAreSeenByTypedAccessors() throws {
        let realm = try openWithOwners()
        let ann = try XCTUnwrap(realm.dynamicObject(ofType: "DynOwner", forPrimaryKey: 1))
        let typed = try XCTUnwrap(realm.object(ofType: DynOwner.self, forPrimaryKey: 1))
        let pet = try XCTUnwrap(realm.dynamicObjects("DynPet").filter("name == 'Tweety'").first)
        try realm.write {
            ann["name"] = "Anna"
            ann.age = 31
            ann["best"] = pet
            ann["nicknames"] = ["Nan"]
            ann["tags"] = ["z"]
            ann["scores"] = ["art": 7]
            ann.dynamicList("pets").append(realm.dynamicCreate("DynPet", value: ["name": "Nemo", "legs": 0]))
        }
        XCTAssertEqual(typed.name, "Anna")
        XCTAssertEqual(typed.age, 31)
        XCTAssertEqual(typed.best?.name, "Tweety")
        XCTAssertEqual(Array(typed.nicknames), ["Nan"])
        XCTAssertEqual(Array(typed.tags), ["z"])
        XCTAssertEqual(typed.scores["art"], 7)
        XCTAssertEqual(typed.pets.map(\.name), ["Rex", "Tweety", "Nemo"])
        try realm.write { ann["best"] = nil }
        XCTAssertNil(typed.best)
    }

    func testDynamicCreateFillsDefaultsAndUpdatesByPrimaryKey() throws {
        let realm = try openWithOwners()
        let carl = try realm.write { realm.dynamicCreate("DynOwner", value: ["id": 3, "pets": [["name": "Fido"]]]) }
        XCTAssertEqual(carl["name"] as? String, "")
        XCTAssertEqual(carl["rating"] as? Double, 2.5, "the model's initial value, the class being declared")
        XCTAssertEqual((carl["pets"] as? List<DynamicObject>)?.first?["legs"] as? Int, 4)
        try realm.write { realm.dynamicCreate("DynOwner", value: ["id": 3, "name": "Carl"], update: .modified) }
        XCTAssertEqual(realm.object(ofType: DynOwner.self, forPrimaryKey: 3)?.name, "Carl")
        XCTAssertEqual(realm.object(ofType: DynOwner.self, forPrimaryKey: 3)?.pets.count, 1, "properties not given are kept")
        try realm.write { realm.dynamicCreate("DynOwner", value: [4, "Dee", 5, 1.0, nil, [], [], [], [:], [], [:]] as [Any?]) }
        XCTAssertEqual(realm.object(ofType: DynOwner.self, forPrimaryKey: 4)?.name, "Dee")
    }

    func testDynamicListIsTheStoredList() throws {
        let realm = try openWithOwners()
        let typed = try XCTUnwrap(realm.object(ofType: DynOwner.self, forPrimaryKey: 1))
        let pets = typed.dynamicList("pets")
        XCTAssertEqual(pets.count, 2)
        XCTAssertEqual(typed.dynamicList("nicknames").count, 2, "a list of values counts")
        try realm.write { pets.remove(at: 0) }
        XCTAssertEqual(typed.pets.map(\.name), ["Tweety"])
        let frozen = pets.freeze()
        try realm.write { typed.pets.removeAll() }
        XCTAssertEqual(frozen.map { $0["name"] as? String }, ["Tweety"], "frozen at its version")
        XCTAssertEqual(pets.count, 0)
    }

    func testAMixedValueHandsOutItsObjectAsADynamicObject() throws {
        let realm = try openWithOwners()
        let ann = try XCTUnwrap(realm.object(ofType: DynOwner.self, forPrimaryKey: 1))
        let dynamic = try XCTUnwrap(AnyRealmValue.object(ann).dynamicObject)
        XCTAssertEqual(dynamic["name"] as? String, "Ann")
        XCTAssertNil(AnyRealmValue.object(DynOwner()).dynamicObject, "an unmanaged object has no stored class to read")
        XCTAssertNil(AnyRealmValue.int(3).dynamicObject)
    }

    func testDynamicSetsAndMapsOfObjectsAreLive() throws {
        let realm = try openWithOwners()
        let typed = try XCTUnwrap(realm.object(ofType: DynOwner.self, forPrimaryKey: 1))
        let rex = try XCTUnwrap(realm.dynamicObjects("DynPet").filter("name == 'Rex'").first)
        let friends = typed.dynamicMutableSet("friends")
        let byName: Map<String, DynamicObject?> = typed.dynamicMap("petsByName")
        try realm.write {
            friends.insert(rex)
            byName["rex"] = rex
        }
        XCTAssertEqual(typed.friends.map(\.name), ["Rex"])
        XCTAssertEqual(typed.petsByName["rex"]??.name, "Rex")
        let ann = try XCTUnwrap(realm.dynamicObject(ofType: "DynOwner", forPrimaryKey: 1))
        XCTAssertEqual((ann["friends"] as? MutableSet<DynamicObject>)?.count, 1)
        XCTAssertEqual(((ann["petsByName"] as? Map<String, DynamicObject?>)?["rex"] ?? nil)?["name"] as? String, "Rex")
    }

    func testDynamicObjectsNotifyAndDeleteAsTypedOnes() throws {
        let realm = try openWithOwners()
        let owners = realm.dynamicObjects("DynOwner")
        var changes: [RealmCollectionChange<Results<DynamicObject>>] = []
        let token = owners.observe { changes.append($0) }
        defer { token.invalidate() }
        spin { changes.count == 1 }
        let bob = try XCTUnwrap(owners.filter("id == 2").first)
        try realm.write { realm.delete(bob) }
        XCTAssertTrue(bob.isInvalidated)
        XCTAssertEqual(owners.count, 1)
        spin { changes.count == 2 }
        guard changes.count == 2, case .update(_, let deletions, _, _) = changes[1] else {
            return XCTFail("expected the initial results and one update, got \(changes)")
        }
        XCTAssertEqual(deletions, [1])
    }

    /// As RealmSwift prints objects: linked objects and lists nested, under the stored class.
    func testDynamicObjectDescriptionNamesItsProperties() throws {
        let realm = try openWithOwners()
        let ann = try XCTUnwrap(realm.dynamicObject(ofType: "DynOwner", forPrimaryKey: 1))
        XCTAssertTrue(ann.description.hasPrefix("DynOwner {\n\tid = 1;\n\tname = Ann;\n\tage = 30;\n\trating = 2.5;\n\tbest = DynPet {\n\t\tname = Rex;"), ann.description)
        XCTAssertTrue(ann.description.contains("\tpets = List<DynPet> <0x"), ann.description)
        XCTAssertTrue(ann.description.contains("(\n\t\t[0] DynPet {\n\t\t\tname = Rex;"), ann.description)
    }

    func testMisusesTrapWithMessages() throws {
        try assertProbeTraps("testDynamicObjectsOfAnUnknownClass", saying: "Object type 'Nope' is not managed by the Realm")
        try assertProbeTraps("testObjectsOfTheBaseClass", saying: "Object type 'Object' is not managed by the Realm")
        try assertProbeTraps("testDynamicReadOfAnUnknownProperty", saying: "Invalid property name 'nope' for class 'DynOwner'")
        try assertProbeTraps("testDynamicWriteOfAWrongType", saying: "Invalid value 'old' (String) for property 'DynOwner.age'")
        try assertProbeTraps("testDynamicLinkToAnotherClass", saying: "it links to 'DynPet' objects, not 'DynOwner' objects")
        try assertProbeTraps("testDynamicWriteOfAPrimaryKey", saying: "Primary key can't be changed after an object is inserted")
    }
}
