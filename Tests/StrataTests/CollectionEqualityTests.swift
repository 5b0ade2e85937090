import Foundation
import XCTest
import Strata

/// `==` and `isEqual` of lists and sets: unmanaged ones compare by their contents
/// (lists in order, sets as sets), managed ones by the stored collection they read, and an
/// unmanaged one never equals a managed one.
final class CollectionEqualityTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Scoreboard.self]) }

    /// As RealmSwift's objects: equal when they are the same stored object and their class
    /// has a primary key (or they are frozen); otherwise only to themselves.
    func testObjectsAreEqualByStoredObjectOnlyWithAPrimaryKeyOrFrozen() throws {
        let realm = try openRealm(types: [Note.self, Dog.self])
        let note = Note(value: ["text": "a"])
        try realm.write {
            realm.add(note)
            realm.add(Dog(value: ["id": 1]))
        }
        let read = try XCTUnwrap(realm.objects(Note.self).first)
        XCTAssertNotEqual(note, read, "no primary key: identity")
        XCTAssertTrue(note.isSameObject(as: read))
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 1), realm.objects(Dog.self).first)
        XCTAssertEqual(read.freeze(), realm.objects(Note.self).freeze().first, "frozen: the stored object")
    }

    func testUnmanagedListsCompareTheirElementsInOrder() {
        let a = List<Int>(), b = List<Int>()
        XCTAssertEqual(a, b, "two empty lists are equal")
        a.append(objectsIn: [1, 2])
        b.append(objectsIn: [1, 2])
        XCTAssertFalse(a === b)
        XCTAssertEqual(a, b)
        XCTAssertTrue(a.isEqual(b))
        b.move(from: 1, to: 0)
        XCTAssertNotEqual(a, b, "the same elements in another order")
        XCTAssertFalse(a.isEqual(b))
        XCTAssertFalse(a.isEqual("not a list"))
    }

    func testMapsCompareTheirEntriesOrTheStoredMap() throws {
        let a = Map<String, Int>(), b = Map<String, Int>()
        XCTAssertEqual(a, b, "two empty maps are equal")
        a["x"] = 1
        b["x"] = 1
        XCTAssertEqual(a, b)
        XCTAssertTrue(a.isEqual(b))
        b["y"] = 2
        XCTAssertNotEqual(a, b)
        let realm = try openRealm(types: [Tagged.self])
        let tagged = try realm.write { realm.create(Tagged.self, value: ["stock": ["x": 1]]) }
        XCTAssertEqual(tagged.stock, realm.objects(Tagged.self).first?.stock, "the same stored map through two accessors")
        XCTAssertNotEqual(tagged.stock, a, "a managed map never equals an unmanaged one")
    }

    func testAListRangeReadsAndReplacesItsElements() throws {
        let list = List<Int>()
        list.append(objectsIn: [1, 2, 3, 4, 5])
        XCTAssertEqual(Array(list[1..<3]), [2, 3])
        let other = List<Int>()
        other.append(objectsIn: [9, 8])
        list[1..<4] = other[0..<2]
        XCTAssertEqual(Array(list), [1, 9, 8, 5])
    }

    func testUnmanagedSetsCompareTheirMembers() {
        let a = MutableSet<String>(), b = MutableSet<String>()
        a.insert(objectsIn: ["x", "y"])
        b.insert(objectsIn: ["y", "x"])
        XCTAssertEqual(a, b, "members inserted in another order")
        b.insert("z")
        XCTAssertNotEqual(a, b)
    }

    func testManagedCollectionsCompareTheStoredCollection() throws {
        let realm = try open()
        let (one, two) = try realm.write {
            (realm.create(Scoreboard.self, value: ["id": 1, "scores": [1], "tags": ["t"]]),
             realm.create(Scoreboard.self, value: ["id": 2, "scores": [1], "tags": ["t"]]))
        }
        let again = try XCTUnwrap(realm.object(ofType: Scoreboard.self, forPrimaryKey: 1))
        XCTAssertEqual(one.scores, again.scores, "two accessors of one stored list")
        XCTAssertTrue(one.tags.isEqual(again.tags))
        XCTAssertNotEqual(one.scores, two.scores, "equal elements in another object's list")
        XCTAssertNotEqual(one.tags, two.tags)
        let unmanaged = List<Int?>()
        unmanaged.append(1)
        XCTAssertNotEqual(one.scores, unmanaged, "an unmanaged list never equals a managed one")
    }
}

/// `value(forKey:)` of a collection property on results: each object's own collection.
final class CollectionValueForKeyTests: StrataTestCase {
    func testResultsReadEachObjectsCollection() throws {
        let realm = try openRealm(types: [Scoreboard.self])
        try realm.write {
            realm.create(Scoreboard.self, value: ["id": 1, "scores": [1, 2], "tags": ["a"], "prices": ["p": 1.5]])
            realm.create(Scoreboard.self, value: ["id": 2, "scores": [3]])
        }
        let boards = realm.objects(Scoreboard.self).sorted(byKeyPath: "id")
        let scores = try XCTUnwrap(boards.value(forKey: "scores") as? [List<Int?>])
        XCTAssertEqual(scores.map { Array($0) }, [[1, 2], [3]])
        let tags = try XCTUnwrap(boards.value(forKeyPath: "tags") as? [MutableSet<String>])
        XCTAssertEqual(tags.map(\.count), [1, 0])
        let prices = try XCTUnwrap(boards.value(forKey: "prices") as? [Map<String, Double>])
        XCTAssertEqual(prices.first?["p"], 1.5)
    }
}
