import Foundation
@testable import Strata
import StrataStorage
import XCTest

final class LQPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var dogs: List<LQDog>
    @Persisted var tags: List<String>
    @Persisted var scores: List<Int>
    @Persisted var ratings: List<Double?>
    @Persisted var friend: LQPerson?
}

/// A tree: a list of objects of its own class.
final class LQNode: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var value = 0
    @Persisted var children: List<LQNode>
}

final class LQDog: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var owner: LQPerson?
    @Persisted(originProperty: "dogs") var walkers: LinkingObjects<LQPerson>
}

/// Queries through `List` properties, in the string and the type-safe form, on a small graph
/// with repeats, empty lists and nil elements:
///
///     Jane (1)  dogs [Rex, Buddy, Rex]  tags [a, b, a]  scores [1, 5, 5]  ratings [nil, 2.5]
///     Joe  (2)  dogs [Max]              tags [Äb]       scores [4]        ratings [nil]       friend Bob
///     Ann  (3)  dogs []                 tags []         scores []         ratings []          friend Jane
///     Bob  (4)  dogs [Bella, Max]       tags [x]        scores [2, 3]     ratings [1]
///
/// Dogs (id, age, owner): Rex (1, 1, Jane), Buddy (2, 3, Jane), Bella (3, 5, Bob),
/// Max (4, 7, Joe), Lonely (5, 2, Ann; in no list).
final class ListQueryTests: StrataTestCase {
    private var realm: Realm!
    private var people: Results<LQPerson>!
    private var dogs: Results<LQDog>!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [LQPerson.self, LQDog.self])
        try realm.write {
            let jane = realm.create(LQPerson.self, value: ["id": 1, "name": "Jane", "tags": ["a", "b", "a"], "scores": [1, 5, 5],
                                                          "ratings": [nil, 2.5] as [Double?]])
            let joe = realm.create(LQPerson.self, value: ["id": 2, "name": "Joe", "tags": ["Äb"], "scores": [4], "ratings": [nil] as [Double?]])
            let ann = realm.create(LQPerson.self, value: ["id": 3, "name": "Ann"])
            let bob = realm.create(LQPerson.self, value: ["id": 4, "name": "Bob", "tags": ["x"], "scores": [2, 3], "ratings": [1.0]])
            joe.friend = bob
            ann.friend = jane
            func dog(_ id: Int, _ name: String, _ age: Int, _ owner: LQPerson) -> LQDog {
                realm.create(LQDog.self, value: ["id": id, "name": name, "age": age, "owner": owner])
            }
            let rex = dog(1, "Rex", 1, jane), buddy = dog(2, "Buddy", 3, jane), bella = dog(3, "Bella", 5, bob)
            let max = dog(4, "Max", 7, joe)
            _ = dog(5, "Lonely", 2, ann)
            jane.dogs.append(objectsIn: [rex, buddy, rex])
            joe.dogs.append(max)
            bob.dogs.append(objectsIn: [bella, max])
        }
        people = realm.objects(LQPerson.self)
        dogs = realm.objects(LQDog.self)
    }

    private func names(_ r: Results<LQPerson>) -> [String] { r.map(\.name) }
    private func names(_ r: Results<LQDog>) -> [String] { r.map(\.name) }
    private func personNames(_ q: String, _ args: Any..., file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do { return names(try people.throwingFilter(q, args)) } catch {
            XCTFail("\(q): \(error)", file: file, line: line)
            return []
        }
    }
    private func dogNames(_ q: String, _ args: Any...) -> [String] { names(try! dogs.throwingFilter(q, args)) }
    private func dog(_ name: String) -> LQDog { dogs.filter("name == %@", name).first! }
    private var jane: LQPerson { realm.object(ofType: LQPerson.self, forPrimaryKey: 1)! }

    // MARK: Lists of objects

    func testCountOfAListOfObjects() {
        XCTAssertEqual(personNames("dogs.@count > 1"), ["Jane", "Bob"])
        XCTAssertEqual(personNames("dogs.@count == 3"), ["Jane"], "repeats count")
        XCTAssertEqual(personNames("dogs.@size == 0"), ["Ann"])
        XCTAssertEqual(personNames("dogs.@count IN {1, 2}"), ["Joe", "Bob"])
        XCTAssertEqual(names(people.where { $0.dogs.count > 1 }), ["Jane", "Bob"])
        XCTAssertEqual(names(people.where { $0.dogs.count == 3 }), ["Jane"])
        XCTAssertEqual(people.filter("dogs.@count > 1").count, 2)
        XCTAssertEqual(people.filter("dogs.@count > 1").explain(), "scan LQPerson reading dogs then filter dogs.@count > 1")
        XCTAssertEqual(people.where { $0.dogs.count > 1 }.explain(), people.filter("dogs.@count > 1").explain())
        XCTAssertEqual(people.filter("name != 'x' AND dogs.@count > 1").explain(),
                       "scan LQPerson reading name, dogs then filter (name != 'x' AND dogs.@count > 1)")
    }

    func testQuantifiersOverAListOfObjects() {
        XCTAssertEqual(personNames("ANY dogs.name BEGINSWITH 'B'"), ["Jane", "Bob"])
        XCTAssertEqual(personNames("dogs.name == 'Rex'"), ["Jane"], "implicit ANY")
        XCTAssertEqual(personNames("SOME dogs.age > 6"), ["Joe", "Bob"])
        XCTAssertEqual(personNames("ALL dogs.age > 2"), ["Joe", "Ann", "Bob"], "ALL over an empty list is true")
        XCTAssertEqual(personNames("NONE dogs.age > 2"), ["Ann"], "NONE over an empty list is true")
        XCTAssertEqual(personNames("NOT ANY dogs.name == 'Rex'"), ["Joe", "Ann", "Bob"])
        XCTAssertEqual(personNames("'Max' IN dogs.name"), ["Joe", "Bob"])
        XCTAssertEqual(personNames("ANY dogs.name IN {'Rex', 'Bella'}"), ["Jane", "Bob"])
        XCTAssertEqual(names(people.where { $0.dogs.name == "Rex" }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.name.starts(with: "B") }), ["Jane", "Bob"])
        XCTAssertEqual(names(people.where { $0.dogs.age > 6 }), ["Joe", "Bob"])
        XCTAssertEqual(names(people.where { !($0.dogs.age <= 2) }), ["Joe", "Ann", "Bob"], "NOT ANY")
        XCTAssertEqual(people.where { $0.dogs.name == "Rex" }.explain(), people.filter("ANY dogs.name == 'Rex'").explain())
        XCTAssertEqual(people.filter("ANY dogs.name == 'Rex'").explain(), "scan LQPerson reading dogs then filter ANY dogs.name == 'Rex'")
    }

    func testObjectIdentityInAList() {
        let rex = dog("Rex"), max = dog("Max"), bella = dog("Bella"), lonely = dog("Lonely")
        XCTAssertEqual(personNames("%@ IN dogs", rex), ["Jane"])
        XCTAssertEqual(personNames("dogs CONTAINS %@", max), ["Joe", "Bob"])
        XCTAssertEqual(personNames("ANY dogs == %@", max), ["Joe", "Bob"])
        XCTAssertEqual(personNames("ANY dogs != %@", max), ["Jane", "Bob"])
        XCTAssertEqual(personNames("NONE dogs == %@", max), ["Jane", "Ann"])
        XCTAssertEqual(personNames("ALL dogs == %@", rex), ["Ann"], "Jane's list holds Buddy too")
        XCTAssertEqual(personNames("ANY dogs IN %@", [rex, bella]), ["Jane", "Bob"])
        XCTAssertEqual(personNames("%@ IN dogs", lonely), [])
        XCTAssertEqual(names(people.where { $0.dogs.contains(rex) }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs == max }), ["Joe", "Bob"])
        XCTAssertEqual(names(people.where { $0.dogs.containsAny(in: [rex, bella]) }), ["Jane", "Bob"])
        XCTAssertThrowsError(try people.throwingFilter("dogs == 'Rex'"))
    }

    func testAggregatesOverAListOfObjects() {
        XCTAssertEqual(personNames("dogs.@sum.age == 5"), ["Jane"], "Rex counts twice: 1 + 3 + 1")
        XCTAssertEqual(personNames("dogs.@sum.age == 0"), ["Ann"])
        XCTAssertEqual(personNames("dogs.@avg.age == 6"), ["Bob"])
        XCTAssertEqual(personNames("dogs.@avg.age < 2"), ["Jane"], "5 / 3")
        XCTAssertEqual(personNames("dogs.@avg.age == nil"), ["Ann"])
        XCTAssertEqual(personNames("dogs.@min.age == 1"), ["Jane"])
        XCTAssertEqual(personNames("dogs.@max.age == 7"), ["Joe", "Bob"])
        XCTAssertEqual(personNames("dogs.@max.age == nil"), ["Ann"])
        XCTAssertEqual(names(people.where { $0.dogs.age.sum == 5 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.age.avg == 6 }), ["Bob"])
        XCTAssertEqual(names(people.where { $0.dogs.age.min == 1 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.age.max == 7 }), ["Joe", "Bob"])
    }

    /// As RealmSwift: a subquery on a list of the class's own objects inside a subquery on
    /// that list is about each object's own list.
    func testATypeSafeSubqueryInsideOneOnAListOfItsOwnClass() throws {
        let realm = try openRealm(types: [LQNode.self])
        try realm.write {
            realm.create(LQNode.self, value: ["id": 1, "children": [["id": 2, "value": 5, "children": [["id": 3, "value": 7]]]]])
            realm.create(LQNode.self, value: ["id": 4, "children": [["id": 5, "value": 9]]])
        }
        let nodes = realm.objects(LQNode.self)
        let typed = nodes.where { ($0.children.value > 4 && ($0.children.value == 7).count > 0).count > 0 }
        let text = nodes.filter("SUBQUERY(children, $c, $c.value > 4 AND SUBQUERY($c.children, $d, $d.value == 7).@count > 0).@count > 0")
        XCTAssertEqual(typed.map(\.id), text.map(\.id))
        XCTAssertEqual(typed.map(\.id), [1])
    }

    func testSubqueryOverAList() {
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.age > 2).@count > 0"), ["Jane", "Joe", "Bob"])
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.name == 'Rex').@count == 2"), ["Jane"], "repeats count")
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.age > 2 AND $d.name BEGINSWITH 'B').@count == 1"), ["Jane", "Bob"])
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.owner == %@).@count == 3", jane), ["Jane"], "Rex, Buddy, Rex")
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, NONE $d.walkers.name == 'Joe').@count == dogs.@count"), ["Jane", "Ann"])
        XCTAssertEqual(people.filter("SUBQUERY(dogs, $d, ALL $d.walkers.name != 'Joe').@count > 0").explain(),
                       "scan LQPerson reading dogs then filter SUBQUERY(dogs, $d, ALL $d.walkers.name != 'Joe').@count > 0",
                       "a quantifier inside a SUBQUERY is printed")
        XCTAssertEqual(names(people.where { ($0.dogs.age > 2).count > 0 }), ["Jane", "Joe", "Bob"])
        XCTAssertEqual(names(people.where { ($0.dogs.name == "Rex").count == 2 }), ["Jane"])
        XCTAssertEqual(names(people.where { ($0.dogs.walkers.count > 1).count > 0 }),
                       personNames("SUBQUERY(dogs, $d, $d.walkers.@count > 1).@count > 0"),
                       "a collection operator through a second to-many step, inside the subquery")
        XCTAssertEqual(names(people.where { ($0.dogs.walkers.count > 0 && $0.dogs.age > 2).count > 0 }),
                       personNames("SUBQUERY(dogs, $d, $d.walkers.@count > 0 AND $d.age > 2).@count > 0"))
        XCTAssertEqual(names(people.where { ($0.dogs.age > 2 && $0.dogs.name.starts(with: "B")).count == 1 }), ["Jane", "Bob"])
    }

    func testPathsMixingLinksListsAndBacklinks() {
        XCTAssertEqual(personNames("ANY dogs.owner.name == 'Joe'"), ["Joe", "Bob"], "list then link")
        XCTAssertEqual(dogNames("ANY walkers.dogs.name == 'Rex'"), ["Rex", "Buddy"], "backlinks of a list, then the list")
        XCTAssertEqual(dogNames("walkers.@count == 2"), ["Max"])
        XCTAssertEqual(dogNames("walkers.@count == 0"), ["Lonely"])
        XCTAssertEqual(dogNames("@links.LQPerson.dogs.@count == 2"), ["Max"])
        XCTAssertEqual(dogNames("ANY @links.LQPerson.dogs.name == 'Joe'"), ["Max"])
        XCTAssertEqual(dogNames("owner.dogs.@count == 3"), ["Rex", "Buddy"], "a list reached through a link")
        XCTAssertEqual(dogNames("owner.dogs.@count == 0"), ["Lonely"])
        XCTAssertEqual(personNames("friend.dogs.@count == 2"), ["Joe"])
        XCTAssertEqual(personNames("ANY friend.tags == 'x'"), ["Joe"])
        XCTAssertEqual(personNames("ANY dogs.walkers.name == 'Bob'"), ["Joe", "Bob"])
        XCTAssertEqual(personNames("ANY dogs.owner.dogs.name == 'Bella'"), ["Bob"])
        XCTAssertEqual(personNames("dogs.owner.dogs.@count == 3"), ["Bob"], "counted over the path: Bella's owner has 2, Max's 1")
        XCTAssertEqual(names(people.where { $0.dogs.owner.name == "Joe" }), ["Joe", "Bob"])
        XCTAssertEqual(names(dogs.where { $0.walkers.dogs.name == "Rex" }), ["Rex", "Buddy"])
        XCTAssertEqual(names(dogs.where { $0.owner.dogs.count == 3 }), ["Rex", "Buddy"])
        XCTAssertEqual(names(people.where { $0.friend.dogs.count == 2 }), ["Joe"])
        XCTAssertEqual(names(people.where { $0.friend.tags.contains("x") }), ["Joe"])
        XCTAssertEqual(dogs.filter("owner.dogs.@count == 3").explain(), "scan LQDog reading owner then filter owner.dogs.@count == 3")
    }

    // MARK: Lists of values

    func testListsOfStrings() {
        XCTAssertEqual(personNames("tags.@count == 3"), ["Jane"], "repeats count")
        XCTAssertEqual(personNames("tags.@count == 0"), ["Ann"])
        XCTAssertEqual(personNames("ANY tags == 'a'"), ["Jane"])
        XCTAssertEqual(personNames("tags == 'b'"), ["Jane"], "implicit ANY")
        XCTAssertEqual(personNames("'x' IN tags"), ["Bob"])
        XCTAssertEqual(personNames("tags IN {'x', 'b'}"), ["Jane", "Bob"])
        XCTAssertEqual(personNames("ANY tags ==[c] 'äB'"), ["Joe"])
        XCTAssertEqual(personNames("ANY tags ==[cd] 'ab'"), ["Joe"])
        XCTAssertEqual(personNames("ANY tags BEGINSWITH[d] 'A'"), ["Joe"])
        XCTAssertEqual(personNames("ANY tags BEGINSWITH[cd] 'A'"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("tags CONTAINS 'b'"), ["Jane", "Joe"], "CONTAINS on a list of strings is the string operator, ANY")
        XCTAssertEqual(personNames("ALL tags == 'a'"), ["Ann"])
        XCTAssertEqual(personNames("ALL tags IN {'a', 'b'}"), ["Jane", "Ann"])
        XCTAssertEqual(personNames("NONE tags == 'a'"), ["Joe", "Ann", "Bob"])
        XCTAssertEqual(personNames("ANY tags > 'w'"), ["Joe", "Bob"], "by UTF-8 bytes: 'Äb' > 'w'")
        XCTAssertEqual(names(people.where { $0.tags.contains("x") }), ["Bob"])
        XCTAssertEqual(names(people.where { $0.tags == "b" }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.tags != "a" }), ["Jane", "Joe", "Bob"], "ANY tags != 'a'")
        XCTAssertEqual(names(people.where { $0.tags.count == 3 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.tags.containsAny(in: ["x", "b"]) }), ["Jane", "Bob"])
        XCTAssertEqual(people.filter("'x' IN tags").explain(), "scan LQPerson reading tags then filter ANY tags == 'x'")
        XCTAssertEqual(people.where { $0.tags.contains("x") }.explain(), people.filter("'x' IN tags").explain())
        XCTAssertEqual(people.filter("tags.@count == 3").explain(), "scan LQPerson reading tags then filter tags.@count == 3")
    }

    func testListsOfNumbers() {
        XCTAssertEqual(personNames("ANY scores > 4"), ["Jane"])
        XCTAssertEqual(personNames("scores > 3"), ["Jane", "Joe"], "implicit ANY")
        XCTAssertEqual(personNames("ALL scores > 3"), ["Joe", "Ann"])
        XCTAssertEqual(personNames("NONE scores > 3"), ["Ann", "Bob"])
        XCTAssertEqual(personNames("ANY scores BETWEEN {2, 3}"), ["Bob"])
        XCTAssertEqual(personNames("scores IN {2, 4}"), ["Joe", "Bob"])
        XCTAssertEqual(personNames("3 < scores"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("ANY scores > 4.5"), ["Jane"])
        XCTAssertEqual(personNames("scores.@sum == 11"), ["Jane"], "repeats count: 1 + 5 + 5")
        XCTAssertEqual(personNames("scores.@sum == 0"), ["Ann"])
        XCTAssertEqual(personNames("scores.@avg > 3"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("scores.@avg == 2.5"), ["Bob"])
        XCTAssertEqual(personNames("scores.@avg == nil"), ["Ann"])
        XCTAssertEqual(personNames("scores.@min == 1"), ["Jane"])
        XCTAssertEqual(personNames("scores.@max == 5"), ["Jane"])
        XCTAssertEqual(personNames("scores.@max == nil"), ["Ann"])
        XCTAssertEqual(personNames("scores.@count == 2"), ["Bob"])
        XCTAssertEqual(names(people.where { $0.scores > 4 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.scores >= 5 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.scores < 2 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.scores <= 2 }), ["Jane", "Bob"])
        XCTAssertEqual(names(people.where { $0.scores == 4 }), ["Joe"])
        XCTAssertEqual(names(people.where { $0.scores.sum == 11 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.scores.avg > 3 }), ["Jane", "Joe"])
        XCTAssertEqual(names(people.where { $0.scores.min == 1 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.scores.max == 5 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.scores.count == 2 }), ["Bob"])
        XCTAssertEqual(names(people.where { $0.scores.contains(2...3) }), ["Bob"], "@min >= 2 AND @max <= 3")
        XCTAssertEqual(names(people.where { $0.scores.contains(4..<5) }), ["Joe"])
        XCTAssertEqual(names(people.where { $0.ratings.contains(2.0...3.0) }), personNames("ratings.@min >= 2.0 AND ratings.@max <= 3.0"),
                       "a list of optionals: the range of its non-nil values")
        XCTAssertEqual(names(people.where { $0.ratings.contains(2.0...3.0) }), ["Jane"])
        XCTAssertEqual(people.where { $0.scores.sum == 11 }.explain(), people.filter("scores.@sum == 11").explain())
        XCTAssertEqual(people.filter("scores.@sum == 11").explain(), "scan LQPerson reading scores then filter scores.@sum == 11")
    }

    func testSubqueryOverAListOfValues() {
        XCTAssertEqual(personNames("SUBQUERY(tags, $t, $t == 'a').@count == 2"), ["Jane"], "repeats count")
        XCTAssertEqual(personNames("SUBQUERY(tags, $t, $t BEGINSWITH[cd] 'a').@count > 0"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("SUBQUERY(scores, $s, $s > 1 AND $s < 5).@count == 1"), ["Joe"])
        XCTAssertEqual(personNames("SUBQUERY(scores, $s, $s > 1 AND $s < 5).@count == 2"), ["Bob"], "both of 2 and 3")
        XCTAssertEqual(personNames("SUBQUERY(scores, $s, $s IN {5, 3}).@count > 1"), ["Jane"])
        XCTAssertEqual(personNames("SUBQUERY(ratings, $r, $r == nil).@count == 1"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("SUBQUERY(ratings, $r, $r != nil).@count == ratings.@count"), ["Ann", "Bob"], "no nil elements")
        XCTAssertEqual(personNames("SUBQUERY(tags, $t, $t == $t).@count == tags.@count"), ["Jane", "Joe", "Ann", "Bob"])
        XCTAssertEqual(personNames("SUBQUERY(friend.tags, $t, $t == 'x').@count == 1"), ["Joe"], "through a link")
        XCTAssertEqual(personNames("NOT SUBQUERY(scores, $s, $s >= 4).@count > 0"), ["Ann", "Bob"])
        XCTAssertEqual(people.filter("SUBQUERY(tags, $t, $t BEGINSWITH[cd] 'a').@count > 0").explain(),
                       "scan LQPerson reading tags then filter SUBQUERY(tags, $t, $t BEGINSWITH[cd] 'a').@count > 0")
        XCTAssertEqual(names(people.where { ($0.scores > 1 && $0.scores < 5).count == 1 }), ["Joe"])
        XCTAssertEqual(names(people.where { ($0.scores > 1 && $0.scores < 5).count == 2 }), ["Bob"])
        XCTAssertEqual(names(people.where { ($0.tags == "a").count == 2 }), ["Jane"])
        XCTAssertEqual(names(people.where { ($0.ratings == nil).count == 1 }), ["Jane", "Joe"])
        XCTAssertEqual(people.where { ($0.scores > 1 && $0.scores < 5).count == 1 }.explain(),
                       people.filter("SUBQUERY(scores, $x, $x > 1 AND $x < 5).@count == 1").explain())
        XCTAssertEqual(people.filter("SUBQUERY(scores, $x, $x > 1 AND $x < 5).@count == 1").explain(),
                       "scan LQPerson reading scores then filter SUBQUERY(scores, $x, ($x > 1 AND $x < 5)).@count == 1")
    }

    func testListsOfOptionalValues() {
        XCTAssertEqual(personNames("ANY ratings == nil"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("ALL ratings != nil"), ["Ann", "Bob"])
        XCTAssertEqual(personNames("ratings.@count == 1"), ["Joe", "Bob"], "nil elements count")
        XCTAssertEqual(personNames("ratings.@sum == 2.5"), ["Jane"], "nil elements are skipped")
        XCTAssertEqual(personNames("ratings.@avg == 2.5"), ["Jane"])
        XCTAssertEqual(personNames("ratings.@avg == nil"), ["Joe", "Ann"])
        XCTAssertEqual(personNames("ratings.@min == nil"), ["Joe", "Ann"])
        XCTAssertEqual(personNames("ANY ratings > 2"), ["Jane"])
        XCTAssertEqual(personNames("ANY ratings != 1"), ["Jane", "Joe"], "!= matches nil elements")
        XCTAssertEqual(names(people.where { $0.ratings == nil }), ["Jane", "Joe"])
        XCTAssertEqual(names(people.where { $0.ratings > 2 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.ratings.sum == 2.5 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.ratings.avg == nil }), ["Joe", "Ann"])
    }

    func testErrorsOnLists() {
        func message(_ q: String) -> String {
            do { _ = try people.throwingFilter(q); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(message("tags.@sum > 1").contains("needs a numeric property"), message("tags.@sum > 1"))
        XCTAssertTrue(message("ANY tags.length == 1").contains("only a collection operator"), message("ANY tags.length == 1"))
        XCTAssertTrue(message("SUBQUERY(tags, $t, $t.length > 1).@count > 0").contains("'$t' is one value of the list 'tags', so nothing can follow it"))
        XCTAssertTrue(message("SUBQUERY(tags, $t, $t > 1).@count > 0").contains("cannot compare 'tags' (string) with 1"))
        XCTAssertTrue(message("SUBQUERY(tags, $t, tags == 'a').@count > 0").contains("'$t' stands for each value; a key path cannot name a property there"))
        XCTAssertTrue(message("SUBQUERY(scores, $s, $s == nil).@count > 0").contains("not optional"))
        XCTAssertTrue(message("ANY scores == nil").contains("not optional"), message("ANY scores == nil"))
        XCTAssertTrue(message("ANY scores == 'a'").contains("cannot compare"), message("ANY scores == 'a'"))
        XCTAssertTrue(message("ANY dogs.nmae == 'a'").contains("did you mean 'name'"), message("ANY dogs.nmae == 'a'"))
        XCTAssertTrue(message("dogs.@count.age > 1").contains("nothing can follow"))
        XCTAssertTrue(message("ANY name == 'a'").contains("needs a key path through a to-many relationship"))
        XCTAssertTrue(message("tags.@count > 'a'").contains("cannot compare"), message("tags.@count > 'a'"))
    }

    // MARK: Deletes

    func testDeletedMembersLeaveTheLists() throws {
        let rex = dog("Rex")
        try realm.write { realm.delete(rex) }
        XCTAssertEqual(personNames("dogs.@count == 1"), ["Jane", "Joe"], "both of Jane's Rexes are gone")
        XCTAssertEqual(personNames("dogs.name == 'Rex'"), [])
        XCTAssertEqual(personNames("%@ IN dogs", rex), [], "a deleted object is in no list")
        XCTAssertEqual(personNames("dogs.@sum.age == 3"), ["Jane"])
        XCTAssertEqual(personNames("ALL dogs.age > 2"), ["Jane", "Joe", "Ann", "Bob"])
        XCTAssertEqual(names(people.where { $0.dogs.count == 1 }), ["Jane", "Joe"])
        try realm.write { realm.delete(jane) }
        XCTAssertEqual(personNames("friend.dogs.@count == 0"), ["Ann", "Bob"], "Ann's friend link was nullified")
        XCTAssertEqual(dogNames("walkers.@count == 0"), ["Buddy", "Lonely"])
        assertConsistent()
    }

    // MARK: Queries on a List itself

    func testQueriesOnAList() {
        let dogs = jane.dogs
        XCTAssertEqual(names(dogs.filter("age > 2")), ["Buddy"])
        XCTAssertEqual(names(dogs.where { $0.age > 2 }), ["Buddy"])
        XCTAssertEqual(names(dogs.where { $0.name == "Rex" }), ["Rex", "Rex"], "repeats are kept")
        XCTAssertEqual(names(dogs.where { $0.owner.name == "Jane" }), ["Rex", "Buddy", "Rex"])
        XCTAssertEqual(names(dogs.where { $0.walkers.count == 1 }), ["Rex", "Buddy", "Rex"])
        XCTAssertEqual(names(dogs.sorted(byKeyPath: "age", ascending: false)), ["Buddy", "Rex", "Rex"])
        XCTAssertEqual(names(dogs.sorted(by: [SortDescriptor(keyPath: "name")])), ["Buddy", "Rex", "Rex"])
        XCTAssertEqual(names(dogs.distinct(by: ["name"])), ["Rex", "Buddy"])
        XCTAssertEqual(names(dogs.where { $0.age < 5 }.sorted(byKeyPath: "name")), ["Buddy", "Rex", "Rex"])
        XCTAssertEqual(dogs.where { $0.age < 2 }.count, 2)
        XCTAssertEqual(dogs.index(matching: { $0.age > 2 }), 1)
        XCTAssertEqual(names(jane.dogs.first!.walkers.where { $0.tags.contains("a") }), ["Jane"])
        XCTAssertEqual(dogs.filter("age > 2").explain(), "list LQPerson.dogs then filter age > 2", "the list's objects, not a scan")
        XCTAssertEqual(dogs.filter("name == 'Rex' AND id > 1").explain(), "list LQPerson.dogs then filter (name == 'Rex' AND id > 1)")
        XCTAssertEqual(dogs.sorted(byKeyPath: "name").explain(), "list LQPerson.dogs then SORT(name ASC)")
        XCTAssertEqual(jane.dogs.first!.walkers.where { $0.tags.contains("a") }.explain(),
                       "linking objects LQPerson.dogs then filter ANY tags == 'a'")
    }
}

/// Random small graphs of people with lists (repeats, empty lists, deleted members): each
/// query's result is compared with a plain-Swift evaluation over the same data.
final class ListQueryDifferentialTests: StrataTestCase {
    private struct Model {
        var ages: [Int: Int] = [:]               // dog id → age (deleted dogs removed)
        var dogs: [Int: [Int]] = [:]             // person id → dog ids in list order
        var scores: [Int: [Int]] = [:]
        var tags: [Int: [String]] = [:]
    }

    func testQueriesThroughListsAgreeWithAPlainEvaluation() throws {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        print("ListQueryDifferentialTests seed: \(seed)")
        var rng = SplitMix64(seed: seed)
        let realm = try openRealm(types: [LQPerson.self, LQDog.self])
        for round in 0..<12 {
            var model = Model()
            try realm.write {
                realm.deleteAll()
                let dogCount = Int.random(in: 1...6, using: &rng)
                var dogs: [LQDog] = []
                for id in 1...dogCount {
                    let age = Int.random(in: 0...6, using: &rng)
                    model.ages[id] = age
                    dogs.append(realm.create(LQDog.self, value: ["id": id, "name": "d\(id)", "age": age]))
                }
                for id in 1...Int.random(in: 1...6, using: &rng) {
                    let picks = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Int.random(in: 1...dogCount, using: &rng) }
                    let scores = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Int.random(in: 0...5, using: &rng) }
                    let tags = (0..<Int.random(in: 0...3, using: &rng)).map { _ in ["a", "b", "c"].randomElement(using: &rng)! }
                    let person = realm.create(LQPerson.self, value: ["id": id, "name": "p\(id)", "tags": tags, "scores": scores])
                    person.dogs.append(objectsIn: picks.map { dogs[$0 - 1] })
                    (model.dogs[id], model.scores[id], model.tags[id]) = (picks, scores, tags)
                }
                if Bool.random(using: &rng) {
                    let victim = Int.random(in: 1...dogCount, using: &rng)
                    realm.delete(dogs[victim - 1])
                    model.ages[victim] = nil
                    for (p, list) in model.dogs { model.dogs[p] = list.filter { $0 != victim } }
                }
            }
            let people = realm.objects(LQPerson.self)
            let ids = model.dogs.keys.sorted()
            func check(_ query: String, args: [Any] = [], _ expected: (Int) -> Bool, typeSafe: ((Query<LQPerson>) -> Query<Bool>)? = nil) {
                let want = ids.filter(expected)
                let got = (try? people.throwingFilter(query, args))?.map(\.id)
                XCTAssertEqual(got, want, "seed \(seed) round \(round): \(query) \(args)")
                if let typeSafe {
                    XCTAssertEqual(people.where(typeSafe).map(\.id), want, "seed \(seed) round \(round): type-safe \(query)")
                }
            }
            let k = Int.random(in: 0...6, using: &rng), n = Int.random(in: 0...4, using: &rng)
            let ages = { (p: Int) in model.dogs[p]!.map { model.ages[$0]! } }
            check("dogs.@count == \(n)", { model.dogs[$0]!.count == n }, typeSafe: { $0.dogs.count == n })
            check("dogs.@count > \(n)", { model.dogs[$0]!.count > n })
            check("ANY dogs.age > \(k)", { ages($0).contains { $0 > k } }, typeSafe: { $0.dogs.age > k })
            check("ALL dogs.age > \(k)", { ages($0).allSatisfy { $0 > k } })
            check("NONE dogs.age == \(k)", { !ages($0).contains(k) })
            check("dogs.@sum.age == \(k + n)", { ages($0).reduce(0, +) == k + n }, typeSafe: { $0.dogs.age.sum == k + n })
            check("dogs.@sum.age > \(k)", { ages($0).reduce(0, +) > k })
            check("dogs.@max.age == nil", { ages($0).isEmpty })
            check("dogs.@min.age < \(k)", { ages($0).min().map { $0 < k } ?? false }, typeSafe: { $0.dogs.age.min < k })
            check("dogs.@avg.age >= \(k)", { p in ages(p).isEmpty ? false : Double(ages(p).reduce(0, +)) / Double(ages(p).count) >= Double(k) })
            check("SUBQUERY(dogs, $d, $d.age >= \(k)).@count == \(n)", { ages($0).filter { $0 >= k }.count == n },
                  typeSafe: { ($0.dogs.age >= k).count == n })
            let dogID = Int.random(in: 1...6, using: &rng)
            if model.ages[dogID] != nil, let dog = realm.object(ofType: LQDog.self, forPrimaryKey: dogID) {
                check("%@ IN dogs", args: [dog], { model.dogs[$0]!.contains(dogID) }, typeSafe: { $0.dogs.contains(dog) })
                check("ALL dogs == %@", args: [dog], { model.dogs[$0]!.allSatisfy { $0 == dogID } })
            }
            let scores = { (p: Int) in model.scores[p]! }
            check("ANY scores > \(k)", { scores($0).contains { $0 > k } }, typeSafe: { $0.scores > k })
            check("ALL scores <= \(k)", { scores($0).allSatisfy { $0 <= k } })
            check("NONE scores == \(n)", { !scores($0).contains(n) })
            check("scores.@count == \(n)", { scores($0).count == n }, typeSafe: { $0.scores.count == n })
            check("scores.@sum == \(k + n)", { scores($0).reduce(0, +) == k + n }, typeSafe: { $0.scores.sum == k + n })
            check("scores.@max == \(k)", { scores($0).max() == k }, typeSafe: { $0.scores.max == k })
            check("scores.@min == nil", { scores($0).isEmpty })
            check("scores.@avg > \(Double(k) / 2)", { p in scores(p).isEmpty ? false : Double(scores(p).reduce(0, +)) / Double(scores(p).count) > Double(k) / 2 })
            let tag = ["a", "b", "c"].randomElement(using: &rng)!
            check("'\(tag)' IN tags", { model.tags[$0]!.contains(tag) }, typeSafe: { $0.tags.contains(tag) })
            check("ALL tags ==[c] '\(tag.uppercased())'", { model.tags[$0]!.allSatisfy { $0 == tag } })
            check("tags.@count == \(n) AND ANY dogs.age > \(k)", { model.tags[$0]!.count == n && ages($0).contains { $0 > k } })
            check("tags.@count == \(n) OR NOT scores > \(k)", { model.tags[$0]!.count == n || !scores($0).contains { $0 > k } })
        }
        assertConsistent()
    }
}

