import Foundation
import XCTest
@testable import Strata

final class Traveller: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var cities: MutableSet<String>
    @Persisted var luckyNumbers: MutableSet<Int?>
    @Persisted var companions: MutableSet<Companion>
}

final class Companion: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

/// `MutableSet`: unique members, set algebra with managed and unmanaged operands, queries,
/// deletion of member objects and reading back from a reopened file.
final class MutableSetTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Traveller.self, Companion.self]) }

    func testValueForKeyGivesTheMembersValuesAsASet() throws {
        let realm = try open()
        let traveller = try realm.write {
            realm.create(Traveller.self, value: ["id": 1, "companions": [["name": "Ann", "age": 3], ["name": "Bob", "age": 3]]])
        }
        XCTAssertEqual(Set(traveller.companions.value(forKey: "name").compactMap { $0 as? String }), ["Ann", "Bob"])
        XCTAssertEqual(traveller.companions.value(forKey: "age").compactMap { $0 as? Int }, [3], "one object per distinct value")
        XCTAssertEqual(AnyRealmCollection(traveller.companions).value(forKey: "name") as? Set<String>, ["Ann", "Bob"])
    }

    func testASetTakesAnyRealmCollectionAsItsValue() throws {
        let realm = try open()
        try realm.write {
            let first = realm.create(Traveller.self, value: ["id": 1, "cities": ["Oslo", "Rome", "Oslo"],
                                                             "companions": [["name": "Ann"], ["name": "Bob"]]])
            realm.create(Traveller.self, value: ["id": 2, "companions": realm.objects(Companion.self),
                                                 "cities": first.cities])
        }
        let second = try XCTUnwrap(realm.object(ofType: Traveller.self, forPrimaryKey: 2))
        XCTAssertEqual(Set(second.companions.map(\.name)), ["Ann", "Bob"])
        XCTAssertEqual(Set(second.cities), ["Oslo", "Rome"])
        XCTAssertEqual(realm.objects(Companion.self).count, 2, "the same objects, not copies")
    }
    func testDuplicatesAreInsertedOnceManagedAndUnmanaged() throws {
        let realm = try open()
        let traveller = Traveller(value: ["id": 1])
        traveller.cities.insert(objectsIn: ["Oslo", "Rome", "Oslo"])
        XCTAssertEqual(traveller.cities.count, 2, "an unmanaged set keeps each member once")
        try realm.write { realm.add(traveller) }
        XCTAssertEqual(traveller.cities.count, 2)
        try realm.write {
            traveller.cities.insert("Rome")
            traveller.cities.insert(objectsIn: ["Lima", "Lima", "Oslo"])
        }
        XCTAssertEqual(Array(traveller.cities), ["Lima", "Oslo", "Rome"], "members are kept in value order")
        XCTAssertTrue(traveller.cities.contains("Lima"))
        XCTAssertFalse(traveller.cities.contains("Paris"))
        XCTAssertEqual(traveller.cities.index(of: "Rome"), 2)
        XCTAssertNil(traveller.cities.index(of: "Paris"))
        assertConsistent()
    }

    func testAnEmptySetAndRemovingWhatIsNotAMember() throws {
        let realm = try open()
        try realm.write { realm.create(Traveller.self, value: ["id": 1]) }
        let traveller = try XCTUnwrap(realm.object(ofType: Traveller.self, forPrimaryKey: 1))
        XCTAssertEqual(traveller.cities.count, 0)
        XCTAssertTrue(traveller.cities.isEmpty)
        XCTAssertNil(traveller.cities.first)
        XCTAssertEqual(Array(traveller.cities), [])
        XCTAssertTrue(traveller.cities.isSubset(of: MutableSet<String>()))
        XCTAssertFalse(traveller.cities.intersects(traveller.cities))
        try realm.write {
            traveller.cities.remove("Oslo")
            traveller.cities.removeAll()
        }
        XCTAssertEqual(traveller.cities.count, 0)
        assertConsistent()
    }

    func testOptionalMembersAndReadingBackAfterReopening() throws {
        try closingRealms {
            let realm = try open()
            try realm.write {
                realm.create(Traveller.self, value: ["id": 1, "cities": ["b", "a", "b"], "luckyNumbers": [7, nil, 3, nil, 7]])
            }
        }
        let realm = try open()
        let traveller = try XCTUnwrap(realm.object(ofType: Traveller.self, forPrimaryKey: 1))
        XCTAssertEqual(Array(traveller.cities), ["a", "b"])
        XCTAssertEqual(Array(traveller.luckyNumbers), [nil, 3, 7], "nil is a member once, ordered first")
        XCTAssertEqual(traveller.luckyNumbers.min(), 3)
        XCTAssertEqual(traveller.luckyNumbers.max(), 7)
        XCTAssertEqual(traveller.luckyNumbers.sum(), 10)
        XCTAssertEqual(traveller.luckyNumbers.average() as Double?, 5)
        try realm.write { traveller.luckyNumbers.remove(nil) }
        XCTAssertEqual(Array(traveller.luckyNumbers), [3, 7])
        try realm.write { traveller.cities = MutableSet() }
        XCTAssertEqual(traveller.cities.count, 0, "assigning a set replaces the members")
        assertConsistent()
    }

    func testSetAlgebraWithManagedAndUnmanagedOperands() throws {
        let realm = try open()
        try realm.write {
            realm.create(Traveller.self, value: ["id": 1, "cities": ["a", "b", "c"]])
            realm.create(Traveller.self, value: ["id": 2, "cities": ["b", "c", "d"]])
        }
        let one = try XCTUnwrap(realm.object(ofType: Traveller.self, forPrimaryKey: 1)).cities
        let two = try XCTUnwrap(realm.object(ofType: Traveller.self, forPrimaryKey: 2)).cities
        let unmanaged = MutableSet<String>()
        unmanaged.insert(objectsIn: ["c", "x"])
        XCTAssertTrue(one.intersects(two))
        XCTAssertTrue(one.intersects(unmanaged))
        XCTAssertFalse(one.isSubset(of: two))
        try realm.write { one.formIntersection(two) }
        XCTAssertEqual(Array(one), ["b", "c"])
        XCTAssertTrue(one.isSubset(of: two))
        try realm.write { one.formUnion(unmanaged) }
        XCTAssertEqual(Array(one), ["b", "c", "x"])
        try realm.write { one.subtract(two) }
        XCTAssertEqual(Array(one), ["x"])
        unmanaged.formUnion(two)
        XCTAssertEqual(Set(unmanaged), ["b", "c", "d", "x"])
        unmanaged.subtract(one)
        unmanaged.formIntersection(two)
        XCTAssertEqual(Set(unmanaged), ["b", "c", "d"])
        XCTAssertTrue(unmanaged.isSubset(of: two))
        assertConsistent()
    }

    func testASetOfObjectsAddsUnmanagedMembersAndLosesDeletedOnes() throws {
        let realm = try open()
        let ann = Companion(value: ["name": "Ann", "age": 30])
        let traveller = Traveller(value: ["id": 1])
        traveller.companions.insert(objectsIn: [ann, ann, Companion(value: ["name": "Bo", "age": 20])])
        try realm.write { realm.add(traveller) }
        XCTAssertNotNil(ann.realm, "adding the owner adds the set's objects")
        XCTAssertEqual(traveller.companions.count, 2)
        XCTAssertTrue(traveller.companions.contains(ann))
        XCTAssertFalse(traveller.companions.contains(Companion()), "an unmanaged object is not a member")
        try realm.write { traveller.companions.insert(ann) }
        XCTAssertEqual(traveller.companions.count, 2)
        XCTAssertEqual(traveller.companions.filter("age > 25").map(\.name), ["Ann"])
        XCTAssertEqual(traveller.companions.sorted(byKeyPath: "age").map(\.name), ["Bo", "Ann"])
        XCTAssertEqual(traveller.companions.sum(ofProperty: "age") as Int, 50)
        XCTAssertEqual(traveller.companions.max(ofProperty: "age") as Int?, 30)
        try realm.write { realm.delete(ann) }
        XCTAssertEqual(traveller.companions.map(\.name), ["Bo"], "deleting an object removes it from sets")
        try realm.write { traveller.companions.removeAll() }
        XCTAssertEqual(realm.objects(Companion.self).count, 1, "removing from a set keeps the objects")
        assertConsistent()
    }

    func testQueriesOnSets() throws {
        let realm = try open()
        try realm.write {
            realm.create(Traveller.self, value: ["id": 1, "cities": ["a", "b", "c"]])
            realm.create(Traveller.self, value: ["id": 2, "cities": ["a"]])
            realm.create(Traveller.self, value: ["id": 3])
        }
        func ids(_ query: String) -> [Int] { realm.objects(Traveller.self).filter(query).map(\.id).sorted() }
        XCTAssertEqual(ids("ANY cities == 'a'"), [1, 2])
        XCTAssertEqual(ids("cities.@count > 2"), [1])
        XCTAssertEqual(ids("'b' IN cities"), [1])
        XCTAssertEqual(ids("cities.@count == 0"), [3])
    }

    func testChangeNotificationsReportPositionsInTheSetsOrder() throws {
        let realm = try open()
        try realm.write { realm.create(Traveller.self, value: ["id": 1, "cities": ["b"]]) }
        let cities = try XCTUnwrap(realm.object(ofType: Traveller.self, forPrimaryKey: 1)).cities
        var initial: [String]?
        var updates: [[[Int]]] = []
        let token = cities.observe { change in
            switch change {
            case .initial(let set): initial = Array(set)
            case let .update(_, deletions, insertions, modifications): updates.append([deletions, insertions, modifications])
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { token.invalidate() }
        runRunLoop { initial != nil }
        XCTAssertEqual(initial, ["b"])
        try realm.write { cities.insert(objectsIn: ["a", "c"]) }
        runRunLoop { updates.count == 1 }
        try realm.write { cities.insert("a") }
        try realm.write { cities.remove("b") }
        runRunLoop { updates.count == 2 }
        XCTAssertEqual(updates, [[[], [0, 2], []], [[1], [], []]], "inserting a member again changes nothing")
    }
}
