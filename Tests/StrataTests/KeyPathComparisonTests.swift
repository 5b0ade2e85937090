import Foundation
import XCTest
@testable import Strata

final class KPPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var nickname: String?
    @Persisted var bestFriend: KPPerson?
    @Persisted var dogs: List<KPDog>
    @Persisted var scores: List<Int>
    @Persisted var tags: List<String>
}

final class KPDog: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var weight: Double?
    @Persisted var owner: KPPerson?
    @Persisted(originProperty: "dogs") var walkers: LinkingObjects<KPPerson>
}

/// Key paths compared with key paths through relationships and collection operators, in the
/// string and the type-safe form, on a small graph:
///
///     Jane (1, 40, "Ja")     best friend Joe   dogs [Rex, Bella]  scores [40, 3]  tags [jane, x]
///     Joe  (2, 5, nil)       no best friend    dogs [Max]         scores [1, 2]   tags [JOE]
///     Ann  (3, 3, "Jane's fan")  best friend Jane  dogs []        scores []       tags []
///
/// Dogs (id, age, weight, owner): Rex (1, 3, 3.0, Jane), Bella (2, 7, nil, Jane),
/// Max (3, 6, 6.0, Joe), Stray (4, 2, 2.0, no owner).
final class KeyPathComparisonTests: StrataTestCase {
    private var realm: Realm!
    private var people: Results<KPPerson>!
    private var dogs: Results<KPDog>!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [KPPerson.self, KPDog.self])
        try realm.write {
            let jane = realm.create(KPPerson.self, value: ["id": 1, "name": "Jane", "age": 40, "nickname": "Ja",
                                                          "scores": [40, 3], "tags": ["jane", "x"]])
            let joe = realm.create(KPPerson.self, value: ["id": 2, "name": "Joe", "age": 5, "scores": [1, 2], "tags": ["JOE"]])
            let ann = realm.create(KPPerson.self, value: ["id": 3, "name": "Ann", "age": 3, "nickname": "Jane's fan"])
            jane.bestFriend = joe
            ann.bestFriend = jane
            func dog(_ id: Int, _ name: String, _ age: Int, _ weight: Double?, _ owner: KPPerson?) -> KPDog {
                realm.create(KPDog.self, value: ["id": id, "name": name, "age": age, "weight": weight as Any, "owner": owner as Any])
            }
            jane.dogs.append(objectsIn: [dog(1, "Rex", 3, 3, jane), dog(2, "Bella", 7, nil, jane)])
            joe.dogs.append(dog(3, "Max", 6, 6, joe))
            _ = dog(4, "Stray", 2, 2, nil)
        }
        people = realm.objects(KPPerson.self)
        dogs = realm.objects(KPDog.self)
    }

    override func tearDownWithError() throws {
        (people, dogs, realm) = (nil, nil, nil)
        try super.tearDownWithError()
    }

    private func personNames(_ q: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do { return try people.throwingFilter(q, []).map(\.name) } catch {
            XCTFail("\(q): \(error)", file: file, line: line)
            return []
        }
    }

    private func dogNames(_ q: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do { return try dogs.throwingFilter(q, []).map(\.name) } catch {
            XCTFail("\(q): \(error)", file: file, line: line)
            return []
        }
    }

    /// The type-safe results equal the string query's, with the same plan and predicate.
    private func assertSame(_ typed: Results<KPPerson>, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(typed.map(\.name), personNames(text, file: file, line: line), text, file: file, line: line)
        XCTAssertEqual(typed.explain(), people.filter(text).explain(), text, file: file, line: line)
    }

    private func assertSame(_ typed: Results<KPDog>, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(typed.map(\.name), dogNames(text, file: file, line: line), text, file: file, line: line)
        XCTAssertEqual(typed.explain(), dogs.filter(text).explain(), text, file: file, line: line)
    }

    private func message(_ q: String, on results: Results<KPPerson>? = nil) -> String {
        do {
            _ = try (results ?? people).throwingFilter(q, [])
            return ""
        } catch {
            return "\(error)"
        }
    }

    func testThroughToOneLinks() {
        XCTAssertEqual(dogNames("owner.age > age"), ["Rex", "Bella"], "a nil owner reads its age as null")
        XCTAssertEqual(dogNames("age > owner.age"), ["Max"])
        XCTAssertEqual(dogNames("owner.age != age"), ["Rex", "Bella", "Max", "Stray"], "null != 2 holds")
        XCTAssertEqual(dogNames("owner.bestFriend.age < age"), ["Bella"], "Joe has no best friend")
        XCTAssertEqual(dogNames("owner == owner.bestFriend.bestFriend"), ["Stray"], "links compare by identity; nil equals nil")
        XCTAssertEqual(personNames("bestFriend.age > age"), ["Ann"])
        XCTAssertEqual(personNames("bestFriend.bestFriend.age > age"), ["Ann"], "Ann's best friend's best friend is Joe (5)")
        XCTAssertEqual(dogs.filter("owner.age > age").explain(), "scan KPDog reading age, owner then filter owner.age > age")
        assertSame(dogs.where { $0.owner.age > $0.age }, "owner.age > age")
        assertSame(dogs.where { $0.age > $0.owner.age }, "age > owner.age")
        assertSame(dogs.where { $0.owner.age != $0.age }, "owner.age != age")
        assertSame(people.where { $0.bestFriend.age > $0.age }, "bestFriend.age > age")
    }

    func testStringOperatorsBetweenKeyPaths() {
        XCTAssertEqual(personNames("name BEGINSWITH nickname"), ["Jane"], "a nil nickname matches nothing")
        XCTAssertEqual(personNames("nickname BEGINSWITH[c] bestFriend.name"), ["Ann"])
        XCTAssertEqual(personNames("nickname CONTAINS[c] bestFriend.name"), ["Ann"])
        XCTAssertEqual(personNames("ANY tags ==[c] name"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("name IN[c] tags"), ["Jane", "Joe"])
        XCTAssertEqual(personNames("name IN tags"), [], "case-sensitive")
        assertSame(people.where { $0.name.starts(with: $0.nickname) }, "name BEGINSWITH nickname")
        assertSame(people.where { $0.nickname.contains($0.bestFriend.name, options: .caseInsensitive) }, "nickname CONTAINS[c] bestFriend.name")
        assertSame(people.where { $0.name.equals($0.bestFriend.name, options: [.caseInsensitive, .diacriticInsensitive]) },
                   "name ==[cd] bestFriend.name")
        assertSame(people.where { $0.name.notEquals($0.bestFriend.name) }, "name != bestFriend.name")
        assertSame(people.where { $0.name.ends(with: $0.bestFriend.nickname) }, "name ENDSWITH bestFriend.nickname")
        assertSame(people.where { $0.name.like($0.nickname, caseInsensitive: true) }, "name LIKE[c] nickname")
    }

    func testToManyOnOneSide() {
        XCTAssertEqual(personNames("ANY dogs.age > age"), ["Joe"])
        XCTAssertEqual(personNames("dogs.age > age"), ["Joe"], "no quantifier means ANY")
        XCTAssertEqual(personNames("ALL dogs.age < age"), ["Jane", "Ann"], "ALL over no dogs holds")
        XCTAssertEqual(personNames("NONE dogs.age > age"), ["Jane", "Ann"])
        XCTAssertEqual(personNames("age < dogs.age"), ["Joe"], "the to-many side on the right is ANY")
        XCTAssertEqual(personNames("age IN scores"), ["Jane"])
        XCTAssertEqual(personNames("ANY scores > age"), [])
        XCTAssertEqual(personNames("ALL scores < age"), ["Joe", "Ann"])
        XCTAssertEqual(dogNames("ANY walkers.age < age"), ["Max"], "through an inverse relationship")
        XCTAssertEqual(dogNames("ANY owner.dogs.age > age"), ["Rex"], "Bella is older than Rex")
        XCTAssertEqual(people.filter("ALL dogs.age < age").explain(), "scan KPPerson reading age, dogs then filter ALL dogs.age < age")
        XCTAssertEqual(people.filter("age IN scores").explain(), "scan KPPerson reading age, scores then filter age == scores")
        assertSame(people.where { $0.dogs.age > $0.age }, "ANY dogs.age > age")
        assertSame(people.where { $0.age < $0.dogs.age }, "age < dogs.age")
        assertSame(dogs.where { $0.walkers.age < $0.age }, "ANY walkers.age < age")
    }

    func testCollectionOperatorsAsOperands() {
        XCTAssertEqual(personNames("dogs.@count < age"), ["Jane", "Joe", "Ann"])
        XCTAssertEqual(personNames("dogs.@count == scores.@count"), ["Jane", "Ann"])
        XCTAssertEqual(personNames("dogs.@max.age > age"), ["Joe"], "null for no dogs")
        XCTAssertEqual(personNames("scores.@sum > dogs.@sum.age"), ["Jane"])
        XCTAssertEqual(personNames("age > scores.@avg"), ["Jane", "Joe"], "Ann's average is null")
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.age > 4).@count == dogs.@count"), ["Joe", "Ann"], "ALL, by counting")
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.age > $d.owner.age).@count > 0"), ["Joe"])
        XCTAssertEqual(personNames("SUBQUERY(dogs, $d, $d.weight == $d.age).@count == 1"), ["Jane", "Joe"])
        XCTAssertEqual(people.filter("SUBQUERY(dogs, $d, $d.age > $d.owner.age).@count > 0").explain(),
                       "scan KPPerson reading dogs then filter SUBQUERY(dogs, $d, $d.age > $d.owner.age).@count > 0")
        assertSame(people.where { $0.dogs.count < $0.age }, "dogs.@count < age")
        assertSame(people.where { $0.dogs.count == $0.scores.count }, "dogs.@count == scores.@count")
        assertSame(people.where { $0.dogs.age.max > $0.age }, "dogs.@max.age > age")
        assertSame(people.where { $0.scores.sum > $0.dogs.age.sum }, "scores.@sum > dogs.@sum.age")
        XCTAssertEqual(people.where { ($0.dogs.age > 4).count == $0.dogs.count }.map(\.name), ["Joe", "Ann"])
    }

    func testErrors() {
        XCTAssertTrue(message("ANY dogs.age > scores").contains("both go through a to-many relationship"), message("ANY dogs.age > scores"))
        XCTAssertTrue(message("ANY age > bestFriend.age").contains("needs a key path through a to-many relationship"))
        XCTAssertTrue(message("ANY dogs.@count > age").contains("one value per object"), message("ANY dogs.@count > age"))
        XCTAssertTrue(message("age IN bestFriend.age").contains("IN needs a list"), message("age IN bestFriend.age"))
        XCTAssertTrue(message("age BETWEEN bestFriend.age").contains("BETWEEN"), message("age BETWEEN bestFriend.age"))
        XCTAssertTrue(message("bestFriend.name > age").contains("position 16: cannot compare 'bestFriend.name' (string) with 'age' (int)"),
                      message("bestFriend.name > age"))
        XCTAssertTrue(message("dogs == bestFriend.dogs").contains("stands for objects"), message("dogs == bestFriend.dogs"))
        XCTAssertTrue(message("age BEGINSWITH bestFriend.name").contains("BEGINSWITH is not valid for 'age'"))
        XCTAssertTrue(message("name BEGINSWITH bestFriend.age").contains("cannot compare 'name' (string) with 'bestFriend.age' (int)"),
                      message("name BEGINSWITH bestFriend.age"))
        XCTAssertTrue(message("bestFriend.age >[c] age").contains("option"), message("bestFriend.age >[c] age"))
    }
}
