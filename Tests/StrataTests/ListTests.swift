import Foundation
import XCTest
@testable import Strata

final class Walker: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var dogs: List<Pup>
    @Persisted var nicknames: List<String>
    @Persisted var scores: List<Int?>
}

final class Pup: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted(originProperty: "dogs") var walkers: LinkingObjects<Walker>
}

final class ListTests: StrataTestCase {
    private func names(_ list: List<Pup>) -> [String] { list.map(\.name) }

    func testTheIssueExampleWorks() throws {
        let realm = try openRealm(types: [Walker.self])
        try realm.write {
            let jane = realm.create(Walker.self, value: [1, "Jane", [["Buster"], ["Buddy"]], ["J"], [1, nil]])
            jane.dogs.move(from: 0, to: 1)
        }
        let jane = try XCTUnwrap(realm.object(ofType: Walker.self, forPrimaryKey: 1))
        XCTAssertEqual(names(jane.dogs), ["Buddy", "Buster"])
        XCTAssertEqual(Array(jane.nicknames), ["J"])
        XCTAssertEqual(Array(jane.scores), [1, nil])
        let buster = try XCTUnwrap(realm.objects(Pup.self).filter("name == 'Buster'").first)
        XCTAssertEqual(buster.walkers.count, 1)
        XCTAssertEqual(buster.walkers.first?.name, "Jane")
        try realm.write { realm.delete(realm.object(ofType: Walker.self, forPrimaryKey: 1)!) }
        XCTAssertEqual(buster.walkers.count, 0)
        assertConsistent()
    }

    func testAListTakesAnyRealmCollectionAsItsValue() throws {
        let realm = try openRealm(types: [Walker.self])
        try realm.write {
            realm.create(Walker.self, value: [1, "Jane", [["Rex", 3], ["Bo", 5]], ["J", "Jay"]])
            let jane = realm.object(ofType: Walker.self, forPrimaryKey: 1)!
            let pups = realm.objects(Pup.self).sorted(byKeyPath: "age", ascending: false)
            // Results, a List and AnyRealmCollection, as RealmSwift takes them.
            realm.create(Walker.self, value: ["id": 2, "dogs": pups, "nicknames": jane.nicknames])
            realm.create(Walker.self, value: ["id": 3, "dogs": AnyRealmCollection(jane.dogs)])
            realm.create(Walker.self, value: ["id": 5, "dogs": realm.objects(Pup.self).filter("age > 4")])
        }
        func walker(_ id: Int) throws -> Walker { try XCTUnwrap(realm.object(ofType: Walker.self, forPrimaryKey: id)) }
        XCTAssertEqual(names(try walker(2).dogs), ["Bo", "Rex"])
        XCTAssertEqual(Array(try walker(2).nicknames), ["J", "Jay"])
        XCTAssertEqual(names(try walker(3).dogs), ["Rex", "Bo"])
        XCTAssertEqual(names(try walker(5).dogs), ["Bo"])
        // The same objects are linked, not copies.
        XCTAssertEqual(realm.objects(Pup.self).count, 2)
        // Anything else still fails with a clear error.
        XCTAssertThrowsError(try realm.write { _ = try realm.throwingCreate(Walker.self, value: ["id": 6, "dogs": "Rex"]) }) { error in
            XCTAssertTrue("\(error)".contains("expected an array for a list"), "\(error)")
        }
    }

    /// As RealmSwift: an unmanaged object's collection property keeps its own collection, and
    /// assigning one copies its elements into it.
    func testAssigningACollectionToAnUnmanagedObjectCopiesItsElements() throws {
        let pound = DogPound()
        let ratings = pound.ratings
        let given = List<Int>()
        given.append(objectsIn: [4, 5])
        pound.ratings = given
        XCTAssertTrue(pound.ratings === ratings, "the property keeps its list")
        XCTAssertEqual(Array(ratings), [4, 5])
        given.append(6)
        XCTAssertEqual(Array(pound.ratings), [4, 5], "a copy, not the list given")
        pound.ratings = pound.ratings
        XCTAssertEqual(Array(pound.ratings), [4, 5], "itself: unchanged")
        let dog = Dog(value: ["id": 1])
        let favourites = MutableSet<Dog>()
        favourites.insert(dog)
        pound.favourites = favourites
        XCTAssertFalse(pound.favourites === favourites)
        XCTAssertEqual(pound.favourites.count, 1)
        let pantry = Pantry()
        let stock = Map<String, Int>()
        stock["tea"] = 2
        pantry.stock = stock
        stock["jam"] = 1
        XCTAssertEqual(Array(pantry.stock.keys), ["tea"])
        let realm = try openRealm(types: [DogPound.self, Dog.self, Pantry.self, Companion.self])
        try realm.write { realm.add(pound) }
        XCTAssertEqual(Array(realm.objects(DogPound.self).first!.ratings), [4, 5])
    }

    func testTheMutableCollectionApi() throws {
        let realm = try openRealm(types: [Walker.self])
        let walker = Walker(value: ["id": 1])
        let pups = (0..<5).map { Pup(value: ["name": "p\($0)", "age": $0]) }
        walker.dogs.append(pups[0])
        XCTAssertEqual(walker.dogs.count, 1, "unmanaged lists work before add")
        try realm.write { realm.add(walker) }
        XCTAssertNotNil(pups[0].realm, "adding the owner adds the list's objects")
        let dogs = walker.dogs
        try realm.write {
            dogs.append(objectsIn: pups[1...3])
            dogs.insert(pups[4], at: 0)
        }
        XCTAssertEqual(names(dogs), ["p4", "p0", "p1", "p2", "p3"])
        try realm.write {
            dogs.remove(at: 1)
            dogs.swapAt(0, 3)
            dogs.replace(index: 1, object: pups[0])
            dogs[2] = pups[4]
        }
        XCTAssertEqual(names(dogs), ["p3", "p0", "p4", "p4"])
        XCTAssertEqual(dogs.index(of: pups[4]), 2)
        XCTAssertEqual(dogs.first?.name, "p3")
        XCTAssertEqual(dogs.last?.name, "p4")
        try realm.write {
            dogs.removeFirst()
            dogs.removeLast(2)
            dogs.insert(contentsOf: [pups[1], pups[1]], at: 1)
        }
        XCTAssertEqual(names(dogs), ["p0", "p1", "p1"])
        XCTAssertEqual(dogs.filter("name == 'p1'").count, 2, "an object may appear twice")
        XCTAssertEqual(dogs.sorted(byKeyPath: "age", ascending: false).map(\.name), ["p1", "p1", "p0"])
        XCTAssertEqual(dogs.sum(ofProperty: "age") as Int, 2)
        XCTAssertEqual(pups[1].walkers.count, 1, "backlinks count each owner once")
        try realm.write { dogs.removeAll() }
        XCTAssertEqual(dogs.count, 0)
        XCTAssertEqual(realm.objects(Pup.self).count, 5, "removing from a list keeps the objects")
        assertConsistent()
    }

    /// `move(fromOffsets:toOffset:)` against the same moves on an array (the elements at the
    /// offsets, in order, go before the element that was at the destination), managed and not.
    func testMovesAndRemovesBySetsOfOffsets() throws {
        func moved(_ values: [String], _ offsets: IndexSet, _ destination: Int) -> [String] {
            var rest = values.indices.filter { !offsets.contains($0) }.map { values[$0] }
            rest.insert(contentsOf: offsets.map { values[$0] }, at: destination - offsets.count(in: 0..<destination))
            return rest
        }
        let realm = try openRealm(types: [Walker.self])
        let initial = ["a", "b", "c", "d", "e"]
        let walker = try realm.write { realm.create(Walker.self, value: ["id": 1, "nicknames": initial]) }
        let unmanaged = Walker(value: ["nicknames": initial])
        let cases: [(IndexSet, Int)] = [([1], 0), ([0], 5), ([0, 2], 4), ([3, 4], 1), ([1, 2, 3], 2), ([0, 4], 2), ([], 3), ([2], 2)]
        for (offsets, destination) in cases {
            try realm.write {
                walker.nicknames.removeAll()
                walker.nicknames.append(objectsIn: initial)
                walker.nicknames.move(fromOffsets: offsets, toOffset: destination)
            }
            XCTAssertEqual(Array(walker.nicknames), moved(initial, offsets, destination), "\(Array(offsets)) to \(destination)")
            unmanaged.nicknames.removeAll()
            unmanaged.nicknames.append(objectsIn: initial)
            unmanaged.nicknames.move(fromOffsets: offsets, toOffset: destination)
            XCTAssertEqual(Array(unmanaged.nicknames), moved(initial, offsets, destination), "unmanaged: \(Array(offsets)) to \(destination)")
        }
        XCTAssertEqual(Array(walker.nicknames), initial, "the last case moves nothing")
        try realm.write { walker.nicknames.remove(atOffsets: [0, 2, 4]) }
        XCTAssertEqual(Array(walker.nicknames), ["b", "d"])
    }

    func testDeletingAnObjectRemovesEveryOccurrenceFromEveryList() throws {
        let realm = try openRealm(types: [Walker.self])
        try realm.write {
            realm.create(Walker.self, value: ["id": 1, "dogs": [["name": "a"], ["name": "b"]]])
            let a = realm.objects(Pup.self).filter("name == 'a'").first!
            let other = realm.create(Walker.self, value: ["id": 2])
            other.dogs.append(objectsIn: [a, a])
            realm.object(ofType: Walker.self, forPrimaryKey: 1)!.dogs.append(a)
        }
        let a = try XCTUnwrap(realm.objects(Pup.self).filter("name == 'a'").first)
        XCTAssertEqual(a.walkers.count, 2)
        try realm.write { realm.delete(a) }
        XCTAssertEqual(names(realm.object(ofType: Walker.self, forPrimaryKey: 1)!.dogs), ["b"])
        XCTAssertEqual(realm.object(ofType: Walker.self, forPrimaryKey: 2)!.dogs.count, 0)
        try realm.write { realm.deleteAll() }
        XCTAssertTrue(realm.isEmpty)
        assertConsistent()
    }

    func testListsOfPrimitivesAndReplacingAListByAssignmentOrUpdate() throws {
        let realm = try openRealm(types: [Walker.self])
        try realm.write { realm.create(Walker.self, value: ["id": 1, "nicknames": ["a", "b"], "scores": [3, nil, 5]]) }
        let walker = try XCTUnwrap(realm.object(ofType: Walker.self, forPrimaryKey: 1))
        XCTAssertEqual(walker.scores.max(), 5)
        try realm.write {
            walker.nicknames.append("c")
            walker.nicknames.remove(at: 0)
        }
        XCTAssertEqual(Array(walker.nicknames), ["b", "c"])
        XCTAssertEqual(walker.nicknames.index(of: "c"), 1)
        try realm.write { realm.create(Walker.self, value: ["id": 1, "nicknames": ["z"]], update: .modified) }
        XCTAssertEqual(Array(walker.nicknames), ["z"], "an update replaces the list")
        XCTAssertEqual(walker.scores.count, 3, "lists not given are kept")
        let replacement = List<String>()
        replacement.append(objectsIn: ["x", "y"])
        try realm.write { walker.nicknames = replacement }
        XCTAssertEqual(Array(walker.nicknames), ["x", "y"])
        assertConsistent()
    }

    func testListsWithManyMembersStayCorrectAcrossChunks() throws {
        let realm = try openRealm(types: [Walker.self])
        let walker = Walker(value: ["id": 1])
        try realm.write { realm.add(walker) }
        try realm.write {
            walker.nicknames.append(objectsIn: (0..<2000).map { "n\($0)" })
            walker.nicknames.insert("first", at: 0)
            walker.nicknames.remove(at: 1000)
        }
        XCTAssertEqual(walker.nicknames.count, 2000)
        XCTAssertEqual(walker.nicknames[0], "first")
        XCTAssertEqual(walker.nicknames[1000], "n1000")
        XCTAssertEqual(walker.nicknames[1999], "n1999")
        assertConsistent()
    }

    func testBadListInputThrowsAndChangesNothing() throws {
        let realm = try openRealm(types: [Walker.self])
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Walker.self, value: ["id": 1, "dogs": [["name": 3]]]) })
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Walker.self, value: ["id": 1, "nicknames": "notAnArray"]) })
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Walker.self, value: ["id": 1, "nicknames": [1]]) })
        XCTAssertEqual(realm.objects(Walker.self).count, 0)
        assertConsistent()
    }
}
