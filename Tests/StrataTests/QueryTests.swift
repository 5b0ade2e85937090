import Foundation
import XCTest
@testable import Strata

final class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 0
    @Persisted var score = 0.0
    @Persisted var nickname: String?
}

final class QueryTests: StrataTestCase {
    private var realm: Realm!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [Person.self])
        try realm.write {
            for i in 0..<100 {
                realm.add(Person(value: ["id": i, "name": "name-\(i)", "age": i % 10, "score": Double(i) / 2,
                                         "nickname": i % 3 == 0 ? nil : "n\(i % 4)"]))
            }
        }
    }

    override func tearDownWithError() throws {
        realm = nil
        try super.tearDownWithError()
    }

    /// A count keeps the rows its walk read; the objects handed out after it read them, and
    /// read the newest values once a write has changed them.
    func testObjectsOfEvaluatedResultsReadTheirRowsAndLaterWrites() throws {
        let young = realm.objects(Person.self).filter("age < 3 AND score > 1")
        XCTAssertEqual(young.count, 27)
        XCTAssertEqual(young[0].name, "name-10")
        XCTAssertEqual(young.map(\.id).prefix(4), [10, 11, 12, 20])
        try realm.write {
            XCTAssertEqual(young.count, 27)
            realm.object(ofType: Person.self, forPrimaryKey: 11)!.name = "renamed"
            XCTAssertEqual(young[1].name, "renamed")
            XCTAssertEqual(young.count, 27)
            realm.object(ofType: Person.self, forPrimaryKey: 12)!.age = 9
            XCTAssertEqual(young.count, 26)
            XCTAssertEqual(young[2].id, 20)
            XCTAssertEqual(young[2].name, "name-20")
        }
        XCTAssertEqual(Array(young).map(\.name).prefix(3), ["name-10", "renamed", "name-20"])
    }

    /// A class's first and last objects are its lowest and highest keys, read fresh as writes
    /// delete and add objects; a query's are its first and last matches, and an empty class or
    /// query has none.
    /// A class's last object is found by walking its keys, which meets the damage when a
    /// damaged branch page hides the last rows: never another object instead.
    func testTheLastOfAClassWhoseLastRowsAreHiddenIsADamagedFile() throws {
        try assertProbeTraps("testLastOfAClassWhoseLastRowsAreHidden", saying: "is damaged: a walk over 'Dog' meets")
    }

    func testFirstAndLastFollowWritesAndQueries() throws {
        let people = realm.objects(Person.self)
        XCTAssertEqual(people.first?.id, 0)
        XCTAssertEqual(people.last?.id, 99)
        try realm.write {
            realm.delete(people.first!)
            realm.delete(people.last!)
            XCTAssertEqual(people.first?.id, 1)
            XCTAssertEqual(people.first?.name, "name-1")
            XCTAssertEqual(people.last?.id, 98)
            XCTAssertEqual(people.last?.name, "name-98")
            realm.delete(people.filter("id < 50"))
            realm.add(Person(value: ["id": 500, "name": "late"]))
            XCTAssertEqual(people.first?.id, 50)
            XCTAssertEqual(people[0].id, 50)
            XCTAssertEqual(people.last?.name, "late")
            XCTAssertEqual(people.filter("age == 3").first?.id, 53)
            XCTAssertEqual(people.filter("age == 3").last?.id, 93)
            XCTAssertEqual(people.sorted(byKeyPath: "id", ascending: false).last?.id, 50)
            XCTAssertNil(people.filter("age > 100").first)
            XCTAssertNil(people.filter("age > 100").last)
        }
        XCTAssertEqual(people.first?.id, 50)
        XCTAssertEqual(people.last?.id, 500)
        XCTAssertEqual(people[1].id, 51)
        XCTAssertEqual(people.last?.id, 500, "the same once the class's keys were read")
        try realm.write { realm.delete(people) }
        XCTAssertNil(people.first)
        XCTAssertNil(people.last)
        XCTAssertNil(realm.objects(Person.self).last)
    }

    func testNumberPlaceholdersTakeArgumentsAsPercentAtDoes() {
        let people = realm.objects(Person.self)
        XCTAssertEqual(people.filter("age == %d AND id < %lld", 3, 20).map(\.id), [3, 13])
        XCTAssertEqual(people.filter("score > %f", 49.0).count, 1)
        XCTAssertEqual((people.filter("id < 2").value(forKey: "self") as? [Any?])?.count, 2, "value(forKey: \"self\") gives the objects")
        XCTAssertThrowsError(try people.throwingFilter("age == %x", 1)) { error in
            XCTAssertTrue("\(error)".contains("a number placeholder such as '%d'"), "\(error)")
        }
    }

    private func ids(_ results: Results<Person>) -> [Int] { results.map(\.id) }

    func testIteratingAClassWithADamagedRowTrapsRatherThanEndingEarly() throws {
        try assertProbeTraps("testIterateAClassWithADamagedRow", saying: "is damaged: the row of 'Ship' object")
    }

    func testComparisonsAndBooleanOperators() {
        let people = realm.objects(Person.self)
        XCTAssertEqual(people.filter("age == 3").count, 10)
        XCTAssertEqual(people.filter("age != 3").count, 90)
        XCTAssertEqual(people.filter("age < 3 AND id >= 50").count, 15)
        XCTAssertEqual(people.filter("age == 1 OR age == 2").count, 20)
        XCTAssertEqual(people.filter("NOT (age > 0)").count, 10)
        XCTAssertEqual(people.filter("age BETWEEN {2, 3}").count, 20)
        XCTAssertEqual(people.filter("age IN {1, 2, 3}").count, 30)
        XCTAssertEqual(people.filter("score > 49.0").count, 1)
        XCTAssertEqual(people.filter("age > %@ AND age < %@", 7, 9).count, 10)
    }

    func testStringOperatorsWithCaseInsensitivity() {
        let people = realm.objects(Person.self)
        XCTAssertEqual(people.filter("name BEGINSWITH 'name-9'").count, 11)
        XCTAssertEqual(people.filter("name BEGINSWITH[c] 'NAME-9'").count, 11)
        XCTAssertEqual(people.filter("name ENDSWITH '7'").count, 10)
        XCTAssertEqual(people.filter("name CONTAINS[c] 'E-5'").count, 11)
        XCTAssertEqual(people.filter("name BEGINSWITH ''").count, 0, "an empty operand matches nothing")
    }

    func testNilComparisons() {
        let people = realm.objects(Person.self)
        XCTAssertEqual(people.filter("nickname == nil").count, 34)
        XCTAssertEqual(people.filter("nickname != nil").count, 66)
        XCTAssertEqual(people.filter("nickname != 'n1'").count, 100 - people.filter("nickname == 'n1'").count, "!= matches nil")
    }

    func testPrimaryKeyAndIndexLookupsMatchTheScan() {
        let people = realm.objects(Person.self)
        XCTAssertEqual(ids(people.filter("name == 'name-42'")), [42])
        XCTAssertEqual(ids(people.filter("name IN {'name-1', 'name-2', 'nobody'}")), [1, 2])
        XCTAssertEqual(ids(people.filter("id == 7 AND age == 7")), [7])
        XCTAssertEqual(ids(people.filter("id == 7 AND age == 6")), [])
        XCTAssertEqual(ids(people.filter("id IN %@", [5, 3, 99, 1000])), [3, 5, 99])
        XCTAssertEqual(ids(people.filter("id IN %@", [Int.max, 0, -1, Int.min, 0, 98, 2])), [0, 2, 98],
                       "keys sought in table order from the extremes inward, repeats once")
        XCTAssertEqual(people.filter("id IN %@", Array(stride(from: 0, to: 200, by: 3))).count, 34)
        XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: 42)?.name, "name-42")
        XCTAssertNil(realm.object(ofType: Person.self, forPrimaryKey: 1000))
    }

    /// One text filtered again and again binds each call's own arguments: new values, values
    /// of another kind (which the resolver converts or folds), arrays of other lengths, nil,
    /// other key paths, and bad arguments after good ones.
    func testTheSameTextFilteredWithNewArgumentsMatchesThoseArguments() throws {
        let people = realm.objects(Person.self)
        for k in [42, 7, 99, 1000] {
            XCTAssertEqual(ids(people.filter("name == %@", "name-\(k)")), k < 100 ? [k] : [])
            XCTAssertEqual(people.filter("name == %@", "name-\(k)").first?.age, k < 100 ? k % 10 : nil)
        }
        XCTAssertEqual(people.filter("age == %@", 3).count, 10)
        XCTAssertEqual(people.filter("age == %@", 3.0).count, 10, "a whole double compares as an int")
        XCTAssertEqual(people.filter("age == %@", 2.5).count, 0, "no int equals 2.5")
        XCTAssertEqual(people.filter("age == %@", 4).count, 10)
        XCTAssertEqual(ids(people.filter("id IN %@", [5, 3])), [3, 5])
        XCTAssertEqual(ids(people.filter("id IN %@", [Int]())), [])
        XCTAssertEqual(ids(people.filter("id IN %@", [8, 1, 99, 8])), [1, 8, 99])
        XCTAssertEqual(ids(people.filter("id BETWEEN {%@, %@}", 10, 12)), [10, 11, 12])
        XCTAssertEqual(ids(people.filter("id BETWEEN {%@, %@}", 97, 200)), [97, 98, 99])
        XCTAssertEqual(people.filter("nickname == %@", "n1").count, people.filter("nickname == 'n1'").count)
        XCTAssertEqual(people.filter("nickname == %@", NSNull()).count, 34)
        XCTAssertEqual(people.filter("nickname == %@", "n2").count, people.filter("nickname == 'n2'").count)
        XCTAssertEqual(people.filter("%K == %@", "age", 5).count, 10)
        XCTAssertEqual(ids(people.filter("%K == %@", "id", 5)), [5])
        XCTAssertThrowsError(try people.throwingFilter("age > %@", "old")) { error in
            XCTAssertTrue("\(error)".contains("cannot compare 'age'"), "\(error)")
        }
        XCTAssertEqual(people.filter("age > %@", 8).count, 10)
    }

    func testChainedFiltersAndSorting() {
        let young = realm.objects(Person.self).filter("age < 2").filter("id < 30")
        XCTAssertEqual(ids(young), [0, 1, 10, 11, 20, 21])
        XCTAssertEqual(ids(young.sorted(byKeyPath: "id", ascending: false)), [21, 20, 11, 10, 1, 0])
        let byAgeThenName = young.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "name")])
        XCTAssertEqual(ids(byAgeThenName), [1, 11, 21, 0, 10, 20])
        let nilsFirst = realm.objects(Person.self).filter("id < 4").sorted(byKeyPath: "nickname")
        XCTAssertEqual(nilsFirst.first?.nickname, nil, "nil sorts before every value ascending")
        XCTAssertEqual(ids(realm.objects(Person.self).filter("id < 20").distinct(by: ["age"])).count, 10)
    }

    func testAScannedQuerySortedOrdersPastItsFirstBatchStablyAndAsAPlainSort() throws {
        try realm.write {
            for i in 100..<700 {
                realm.add(Person(value: ["id": i, "name": "name-\(i % 37)", "age": i % 7, "score": Double(i % 50)]))
            }
        }
        let sorted = realm.objects(Person.self).filter("score >= 3").sorted(by: [SortDescriptor(keyPath: "age", ascending: false)])
        XCTAssertTrue(sorted.explain().contains("scan"), sorted.explain())
        // What a plain stable sort of the matches (in table order, that is by id) gives.
        let expected = realm.objects(Person.self).map { ($0.id, $0.age, $0.score) }
            .filter { $0.2 >= 3 }
            .enumerated().sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }
            .map(\.element.0)
        XCTAssertEqual(sorted.count, expected.count)
        XCTAssertGreaterThan(expected.count, 3 * 128, "the test must read past the first batch")
        XCTAssertEqual(sorted[0].id, expected[0], "the first object, from the scan's own selection")
        XCTAssertEqual(sorted[127].id, expected[127])
        XCTAssertEqual(sorted[300].id, expected[300], "past the first batch the rest is sorted")
        XCTAssertEqual(ids(sorted), expected)
    }

    /// The order W7 asks for (an int key with many ties, then a string), ascending and
    /// descending, over the whole class: the first batch comes from the scan's bounded heap,
    /// which turns most objects away on the int key alone.
    func testAWholeClassSortedByAnIntThenAStringMatchesAPlainSort() throws {
        try realm.write {
            for i in 100..<900 { realm.add(Person(value: ["id": i, "name": "name-\((i * 7919) % 1000)", "age": (i * 31) % 9 - 4])) }
        }
        let everyone = realm.objects(Person.self).map { (id: $0.id, age: $0.age, name: $0.name) }
        for ascending in [true, false] {
            let sorted = realm.objects(Person.self)
                .sorted(by: [SortDescriptor(keyPath: "age", ascending: ascending), SortDescriptor(keyPath: "name")])
            let expected = everyone.sorted { a, b in
                a.age != b.age ? (ascending ? a.age < b.age : a.age > b.age) : (a.name != b.name ? a.name < b.name : a.id < b.id)
            }.map(\.id)
            XCTAssertEqual(sorted.prefix(100).map(\.id), Array(expected.prefix(100)), "ascending: \(ascending)")
            XCTAssertEqual(ids(sorted), expected, "ascending: \(ascending)")
        }
    }

    func testAggregates() {
        let people = realm.objects(Person.self)
        XCTAssertEqual(people.min(ofProperty: "age") as Int?, 0)
        XCTAssertEqual(people.max(ofProperty: "score") as Double?, 49.5)
        XCTAssertEqual(people.sum(ofProperty: "age") as Int, 450)
        XCTAssertEqual(people.average(ofProperty: "age") as Double?, 4.5)
        let none = people.filter("age > 100")
        XCTAssertNil(none.max(ofProperty: "age") as Int?)
        XCTAssertEqual(none.sum(ofProperty: "age") as Int, 0)
        XCTAssertNil(none.average(ofProperty: "score") as Double?)
        XCTAssertEqual(people.sum(ofProperty: "score") as Double, people.map(\.score).reduce(0, +))
        let some = people.filter("id IN %@", [3, 14, 15, 92, 1000])
        XCTAssertEqual(some.sum(ofProperty: "age") as Int, some.map(\.age).reduce(0, +))
        XCTAssertEqual(some.sum(ofProperty: "score") as Double, some.map(\.score).reduce(0, +))
    }

    func testResultsAreLiveAndLazy() throws {
        let adults = realm.objects(Person.self).filter("age >= 9")
        XCTAssertEqual(adults.count, 10)
        try realm.write { realm.add(Person(value: ["id": 500, "age": 9])) }
        XCTAssertEqual(adults.count, 11)
        try realm.write { adults.first!.age = 1 }
        XCTAssertEqual(adults.count, 10)
        XCTAssertEqual(adults.last?.id, 500)
        XCTAssertEqual(adults.index(of: adults[2]), 2)
        XCTAssertEqual(adults.value(forKey: "id") as? [Int?], adults.map { Optional($0.id) })
    }

    func testThrowingFilterNamesTheProblemAndItsPosition() {
        let people = realm.objects(Person.self)
        XCTAssertThrowsError(try people.throwingFilter("age > ")) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("position"), "\(error)")
        }
        XCTAssertThrowsError(try people.throwingFilter("nmae == 'x'")) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'name'"), "\(error)")
        }
        XCTAssertThrowsError(try people.throwingFilter("age BEGINSWITH 'x'"))
        XCTAssertThrowsError(try people.throwingFilter("age > %@"))
        XCTAssertNoThrow(try people.throwingFilter("age > %@", 3))
    }
}
