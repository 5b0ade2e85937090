import Foundation
import XCTest
@testable import Strata

final class RQPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var nickname: String?
    @Persisted var bestFriend: RQPerson?
    @Persisted(originProperty: "owner") var dogs: LinkingObjects<RQDog>
}

final class RQDog: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var weight: Double?
    @Persisted var owner: RQPerson?
}

/// Queries through to-one links and inverse relationships, in the string and the type-safe
/// form, on a small graph:
///
///     Jane (1, 40)  best friend Joe   dogs Buster (3), Bella (5), Rex (1)
///     Joe  (2, 30)  best friend nil   dogs Max (7)
///     Ann  (3, 20)  best friend Jane  no dogs
///     Stray (8, no owner)
final class RelationshipQueryTests: StrataTestCase {
    private var realm: Realm!
    private var dogs: Results<RQDog>!
    private var people: Results<RQPerson>!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [RQPerson.self, RQDog.self])
        try realm.write {
            let jane = realm.create(RQPerson.self, value: ["id": 1, "name": "Jane", "age": 40, "nickname": "JJ"])
            let joe = realm.create(RQPerson.self, value: ["id": 2, "name": "Joe", "age": 30])
            let ann = realm.create(RQPerson.self, value: ["id": 3, "name": "Ann", "age": 20])
            jane.bestFriend = joe
            ann.bestFriend = jane
            for (id, name, age, weight, owner) in [(1, "Buster", 3, 10.0, jane), (2, "Bella", 5, 20.0, jane), (3, "Rex", 1, 5.0, jane),
                                                   (4, "Max", 7, 30.0, joe)] as [(Int, String, Int, Double?, RQPerson?)] {
                realm.create(RQDog.self, value: ["id": id, "name": name, "age": age, "weight": weight as Any, "owner": owner as Any])
            }
            realm.create(RQDog.self, value: ["id": 5, "name": "Stray", "age": 8])
        }
        dogs = realm.objects(RQDog.self)
        people = realm.objects(RQPerson.self)
    }

    private func names(_ r: Results<RQDog>) -> [String] { r.map(\.name) }
    private func names(_ r: Results<RQPerson>) -> [String] { r.map(\.name) }
    private func dogNames(_ q: String, _ args: Any...) -> [String] { names(try! dogs.throwingFilter(q, args)) }
    private func personNames(_ q: String, _ args: Any...) -> [String] { names(try! people.throwingFilter(q, args)) }
    private var jane: RQPerson { realm.object(ofType: RQPerson.self, forPrimaryKey: 1)! }
    private var joe: RQPerson { realm.object(ofType: RQPerson.self, forPrimaryKey: 2)! }

    // MARK: To-one links

    /// A query through links keeps the keys its count found for the reads after it, and
    /// finds them again once a write changes what matches (the same Results value, live).
    func testTheCountOfAQueryThroughLinksStaysLiveAcrossWrites() throws {
        let janesDogs = dogs.filter("owner.name == 'Jane'")
        XCTAssertEqual(janesDogs.count, 3)
        XCTAssertEqual(names(janesDogs), ["Buster", "Bella", "Rex"])
        XCTAssertEqual(janesDogs.sum(ofProperty: "age") as Int, 9)
        try realm.write { realm.object(ofType: RQDog.self, forPrimaryKey: 4)!.owner = jane }
        XCTAssertEqual(janesDogs.count, 4)
        XCTAssertEqual(janesDogs.sum(ofProperty: "age") as Int, 16)
        try realm.write { jane.name = "Janet" }
        XCTAssertEqual(janesDogs.count, 0)
        XCTAssertEqual(names(janesDogs), [])
    }

    func testComparisonsThroughAToOneLink() {
        XCTAssertEqual(dogNames("owner.name == 'Jane'"), ["Buster", "Bella", "Rex"])
        XCTAssertEqual(dogNames("owner.name BEGINSWITH[c] 'j' AND age > 2"), ["Buster", "Bella", "Max"])
        XCTAssertEqual(dogNames("owner.age < 35"), ["Max"])
        XCTAssertEqual(dogNames("'Joe' == owner.name"), ["Max"])
        XCTAssertEqual(dogNames("owner.name IN {'Joe', 'Nobody'}"), ["Max"])
        XCTAssertEqual(names(dogs.where { $0.owner.name == "Jane" }), ["Buster", "Bella", "Rex"])
        XCTAssertEqual(names(dogs.where { $0.owner.age < 35 }), ["Max"])
        XCTAssertEqual(names(dogs.where { $0.owner.name.starts(with: "j", options: .caseInsensitive) && $0.age > 2 }), ["Buster", "Bella", "Max"])
        XCTAssertEqual(dogs.where { $0.owner.name == "Jane" }.explain(), dogs.filter("owner.name == 'Jane'").explain())
        XCTAssertEqual(dogs.filter("owner.name == 'Jane'").explain(), "scan RQDog reading owner then filter owner.name == 'Jane'")
    }

    func testANilLinkInThePathReadsAsNull() {
        XCTAssertEqual(dogNames("owner.name != 'Jane'"), ["Max", "Stray"])
        XCTAssertEqual(dogNames("owner.name == nil"), ["Stray"], "a required property through a nil link is null")
        XCTAssertEqual(dogNames("owner.nickname == nil"), ["Max", "Stray"])
        XCTAssertEqual(dogNames("NOT owner.age > 35"), ["Max", "Stray"])
        XCTAssertEqual(dogNames("owner.bestFriend.name == 'Joe'"), ["Buster", "Bella", "Rex"], "any depth")
        XCTAssertEqual(dogNames("owner.bestFriend.name == nil"), ["Max", "Stray"])
        XCTAssertEqual(personNames("bestFriend.bestFriend.name == 'Joe'"), ["Ann"])
        XCTAssertEqual(names(dogs.where { $0.owner.name != "Jane" }), ["Max", "Stray"])
        XCTAssertEqual(names(dogs.where { $0.owner.bestFriend.name == "Joe" }), ["Buster", "Bella", "Rex"])
        XCTAssertEqual(names(dogs.where { $0.owner.nickname == nil }), ["Max", "Stray"])
    }

    func testLinkIdentityNilAndIN() throws {
        XCTAssertEqual(dogNames("owner == nil"), ["Stray"])
        XCTAssertEqual(dogNames("owner != nil"), ["Buster", "Bella", "Rex", "Max"])
        XCTAssertEqual(dogNames("owner == %@", joe), ["Max"])
        XCTAssertEqual(dogNames("owner != %@", joe), ["Buster", "Bella", "Rex", "Stray"])
        XCTAssertEqual(dogNames("owner IN %@", [joe, jane]), ["Buster", "Bella", "Rex", "Max"])
        XCTAssertEqual(dogNames("owner IN %@", realm.objects(RQPerson.self).filter("age < 35")), ["Max"])
        XCTAssertEqual(personNames("bestFriend == %@", jane), ["Ann"])
        XCTAssertEqual(dogNames("owner.bestFriend == %@", joe), ["Buster", "Bella", "Rex"])
        XCTAssertEqual(names(dogs.where { $0.owner == nil }), ["Stray"])
        XCTAssertEqual(names(dogs.where { $0.owner != nil }), ["Buster", "Bella", "Rex", "Max"])
        let joe = self.joe, jane = self.jane
        XCTAssertEqual(names(dogs.where { $0.owner == joe }), ["Max"])
        XCTAssertEqual(names(dogs.where { $0.owner.in([joe, jane]) }), ["Buster", "Bella", "Rex", "Max"])
        XCTAssertEqual(names(people.where { $0.bestFriend == jane }), ["Ann"])

        // Unmanaged objects equal no stored object (as in Realm): == matches nothing, != all.
        let unmanaged = RQPerson(value: ["id": 2, "name": "Joe"])
        XCTAssertEqual(dogNames("owner == %@", unmanaged), [])
        XCTAssertEqual(dogNames("owner != %@", unmanaged).count, 5)
        XCTAssertEqual(names(dogs.where { $0.owner == unmanaged }), [])

        // A managed object of another Realm, or of the wrong class, is an error.
        let other = try openRealm("other.strata", types: [RQPerson.self, RQDog.self])
        try other.write { other.create(RQPerson.self, value: ["id": 2, "name": "Other Joe"]) }
        let stranger = try XCTUnwrap(other.object(ofType: RQPerson.self, forPrimaryKey: 2))
        XCTAssertThrowsError(try dogs.throwingFilter("owner == %@", stranger)) { error in
            XCTAssertTrue("\(error)".contains("must be from the Realm being queried"), "\(error)")
        }
        let dog = try XCTUnwrap(dogs.first)
        XCTAssertThrowsError(try dogs.throwingFilter("owner == %@", dog)) { error in
            XCTAssertTrue("\(error)".contains("'RQDog' object"), "\(error)")
        }
        XCTAssertThrowsError(try dogs.throwingFilter("owner == 'Jane'"))
        XCTAssertThrowsError(try dogs.throwingFilter("owner > nil"))
    }

    func testDeletedTargetsAreNilLinksAndDeletedArgumentsMatchNothing() throws {
        let joe = self.joe
        try realm.write { realm.delete(joe) }
        XCTAssertEqual(dogNames("owner == nil"), ["Max", "Stray"])
        XCTAssertEqual(dogNames("owner.name == nil"), ["Max", "Stray"])
        XCTAssertEqual(dogNames("owner.bestFriend == nil").count, 5, "Jane's best friend link was nullified too")
        XCTAssertEqual(dogNames("owner.bestFriend.name == 'Joe'"), [])
        XCTAssertEqual(dogNames("owner == %@", joe), [], "a deleted object equals nothing")
    }

    // MARK: Inverse relationships

    func testCountOfLinkingObjects() {
        XCTAssertEqual(personNames("dogs.@count > 1"), ["Jane"])
        XCTAssertEqual(personNames("dogs.@count == 0"), ["Ann"])
        XCTAssertEqual(personNames("dogs.@size >= 1"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("dogs.@count IN {1, 3}"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("@links.RQDog.owner.@count == 3"), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.count > 1 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.count == 0 }), ["Ann"])
        XCTAssertEqual(people.where { $0.dogs.count > 1 }.explain(), people.filter("dogs.@count > 1").explain())
        XCTAssertEqual(people.filter("dogs.@count > 1").explain(), "scan RQPerson reading dogs then filter dogs.@count > 1")
        XCTAssertEqual(people.filter("dogs.@count > 1").count, 1)
    }

    func testQuantifiersOverLinkingObjects() {
        XCTAssertEqual(personNames("ANY dogs.name BEGINSWITH 'B'"), ["Jane"])
        XCTAssertEqual(personNames("dogs.name == 'Max'"), ["Joe"], "a to-many key path without a quantifier means ANY")
        XCTAssertEqual(personNames("SOME dogs.age > 6"), ["Joe"])
        XCTAssertEqual(personNames("ALL dogs.age > 2"), ["Joe", "Ann"], "ALL over no objects is true")
        XCTAssertEqual(personNames("NONE dogs.age > 2"), ["Ann"], "NONE over no objects is true")
        XCTAssertEqual(personNames("NOT ANY dogs.age > 2"), ["Ann"])
        XCTAssertEqual(personNames("ANY @links.RQDog.owner.name == 'Rex'"), ["Jane"])
        XCTAssertEqual(personNames("'Rex' IN dogs.name"), ["Jane"])
        XCTAssertEqual(personNames("ANY dogs.owner.bestFriend.name == 'Joe'"), ["Jane"], "to-many then to-one steps")
        XCTAssertEqual(dogNames("ANY owner.dogs.name == 'Rex'"), ["Buster", "Bella", "Rex"], "to-one then to-many steps")
        XCTAssertEqual(dogNames("owner.dogs.@count == 0"), ["Stray"], "the dogs of a nil owner are none")
        XCTAssertEqual(names(people.where { $0.dogs.name.starts(with: "B") }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.name == "Max" }), ["Joe"])
        XCTAssertEqual(people.where { $0.dogs.name == "Max" }.explain(), people.filter("ANY dogs.name == 'Max'").explain())
        XCTAssertThrowsError(try people.throwingFilter("ALL name == 'x'")) { error in
            XCTAssertTrue("\(error)".contains("needs a key path through a to-many relationship"), "\(error)")
        }
    }

    func testObjectIdentityInLinkingObjects() {
        let max = dogs.filter("name == 'Max'").first!
        let rex = dogs.filter("name == 'Rex'").first!
        XCTAssertEqual(personNames("ANY dogs == %@", max), ["Joe"])
        XCTAssertEqual(personNames("%@ IN dogs", rex), ["Jane"])
        XCTAssertEqual(personNames("ANY dogs IN %@", [max, rex]), ["Jane", "Joe"])
        XCTAssertEqual(names(people.where { $0.dogs.contains(max) }), ["Joe"])
        XCTAssertEqual(names(people.where { $0.dogs == rex }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.containsAny(in: [max, rex]) }), ["Jane", "Joe"])
    }

    func testSubquery() {
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.age > 2 AND $d.name BEGINSWITH 'B').@count > 0"), ["Jane"])
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.age > 2).@count == 2"), ["Jane"])
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.age > 100).@count == 0"), ["Jane", "Joe", "Ann"])
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.owner.bestFriend.name == 'Joe').@count == 3"), ["Jane"])
        XCTAssertEqual(names(people.where { ($0.dogs.age > 2 && $0.dogs.name.starts(with: "B")).count > 0 }), ["Jane"])
        XCTAssertEqual(names(people.where { ($0.dogs.age > 2).count == 2 }), ["Jane"])
        XCTAssertEqual(people.where { ($0.dogs.age > 2).count == 2 }.explain(),
                       people.filter("SUBQUERY(dogs, $d, $d.age > 2).@count == 2").explain().replacingOccurrences(of: "$d", with: "$x"))
        // A key path without the variable names a property of the dogs, as realm-core reads it.
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, age > 2).@count == 2"), ["Jane"])
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, age > 2 AND $d.name BEGINSWITH 'B').@count > 0"), ["Jane"])
        XCTAssertThrowsError(try people.throwingFilter("SUBQUERY(name, $d, $d.age > 2).@count > 0"))
    }

    func testCollectionAggregates() {
        XCTAssertEqual(personNames("dogs.@sum.age == 9"), ["Jane"])
        XCTAssertEqual(personNames("dogs.@sum.age == 0"), ["Ann"], "the sum over no objects is 0")
        XCTAssertEqual(personNames("dogs.@avg.age == 3"), ["Jane"])
        XCTAssertEqual(personNames("dogs.@avg.age == nil"), ["Ann"], "the average over no objects is null")
        XCTAssertEqual(personNames("dogs.@min.age == 1"), ["Jane"])
        XCTAssertEqual(personNames("dogs.@max.age > 6"), ["Joe"])
        XCTAssertEqual(personNames("dogs.@max.age == nil"), ["Ann"])
        XCTAssertEqual(personNames("dogs.@sum.weight > 31.5"), ["Jane"])
        XCTAssertEqual(personNames("dogs.@min.weight BETWEEN {4, 6}"), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.age.sum == 9 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.age.avg == 3 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.age.min == 1 }), ["Jane"])
        XCTAssertEqual(names(people.where { $0.dogs.age.max > 6 }), ["Joe"])
        XCTAssertThrowsError(try people.throwingFilter("dogs.@sum.name > 1")) { error in
            XCTAssertTrue("\(error)".contains("needs a numeric property"), "\(error)")
        }
        XCTAssertThrowsError(try people.throwingFilter("name.@count > 1"))
    }

    func testLinkingObjectsOfAManagedObjectFilterThroughLinks() {
        XCTAssertEqual(jane.dogs.filter("owner.bestFriend.name == 'Joe'").count, 3)
        XCTAssertEqual(jane.dogs.filter("owner.dogs.@count == 3 AND age > 2").count, 2)
    }

    // MARK: Sorting

    func testSortingByAToOneKeyPath() {
        let byOwner = dogs.sorted(byKeyPath: "owner.name")
        XCTAssertEqual(names(byOwner), ["Buster", "Bella", "Rex", "Max", "Stray"], "nil links sort last ascending, ties keep table order")
        XCTAssertEqual(names(dogs.sorted(by: [SortDescriptor(keyPath: "owner.name", ascending: false), SortDescriptor(keyPath: "name")])),
                       ["Stray", "Max", "Bella", "Buster", "Rex"], "nil links sort first descending")
        XCTAssertEqual(names(dogs.filter("TRUEPREDICATE SORT(owner.age ASC, age DESC)")), ["Max", "Bella", "Buster", "Rex", "Stray"])
        XCTAssertEqual(names(dogs.filter("owner != nil SORT(owner.bestFriend.name DESC, name ASC) LIMIT(2)")), ["Max", "Bella"],
                       "Joe has no best friend")
        XCTAssertEqual(names(dogs.filter("TRUEPREDICATE SORT(weight ASC)")), ["Stray", "Rex", "Buster", "Bella", "Max"],
                       "a null value (not a nil link) sorts first")
        XCTAssertEqual(byOwner.first?.name, "Buster")
        XCTAssertEqual(dogs.filter("TRUEPREDICATE SORT(owner.name ASC)").explain(), "scan RQDog then SORT(owner.name ASC)")
        XCTAssertThrowsError(try dogs.throwingFilter("TRUEPREDICATE SORT(owner.dogs.name ASC)"))
    }

    func testDistinctThroughAToOneLink() throws {
        XCTAssertEqual(dogNames("TRUEPREDICATE DISTINCT(owner.name)"), ["Buster", "Max"], "a dog without an owner is left out")
        XCTAssertEqual(names(dogs.distinct(by: ["owner.name"])), ["Buster", "Max"])
        XCTAssertEqual(dogNames("TRUEPREDICATE DISTINCT(owner.bestFriend.name)"), ["Buster"], "Joe has no best friend")
        XCTAssertEqual(dogNames("TRUEPREDICATE DISTINCT(owner)"), ["Buster", "Max", "Stray"], "a nil link itself is a value")
        XCTAssertEqual(dogNames("TRUEPREDICATE SORT(age DESC) DISTINCT(owner.name)"), ["Max", "Bella"])
        XCTAssertEqual(names(dogs.sorted(byKeyPath: "age", ascending: false).distinct(by: ["owner.age", "age"])),
                       ["Max", "Bella", "Buster", "Rex"])
        XCTAssertEqual(dogs.filter("age > 2 DISTINCT(owner.name)").explain(), "scan RQDog reading age then filter age > 2 then DISTINCT(owner.name)")
        XCTAssertEqual(jane.dogs.distinct(by: ["owner.name"]).count, 1)
        XCTAssertThrowsError(try people.throwingFilter("TRUEPREDICATE DISTINCT(dogs.name)")) { error in
            XCTAssertTrue("\(error)".contains("a DISTINCT key must be a property, reached through to-one links only"), "\(error)")
        }
    }
}
