import Foundation
import XCTest
@testable import Strata

final class Tagged: Object {
    @Persisted var tags: List<String>
    @Persisted var scores: List<Int?>
    @Persisted var letters: MutableSet<String>
    @Persisted var stock: Map<String, Int>
}

/// Queries on lists, sets and maps of values, which name each value `SELF`
/// (`tags.filter("SELF BEGINSWITH 's'")`), as RealmSwift's do.
final class ValueFilterTests: StrataTestCase {
    private func openWithTagged() throws -> (Realm, Tagged) {
        let realm = try openRealm(types: [Tagged.self])
        let tagged = try realm.write {
            realm.create(Tagged.self, value: ["tags": ["swift", "Sql", "lmdb", "swift"], "scores": [3, nil, 1, 5],
                                              "letters": ["a", "b", "c"], "stock": ["eggs": 3, "milk": 0, "flour": 7]])
        }
        return (realm, tagged)
    }

    func testAListOfStringsFiltersByItsValues() throws {
        let (realm, tagged) = try openWithTagged()
        XCTAssertEqual(Array(tagged.tags.filter("SELF BEGINSWITH 's'")), ["swift", "swift"], "in list order, repeats kept")
        XCTAssertEqual(Array(tagged.tags.filter("SELF BEGINSWITH[c] 's'")), ["swift", "Sql", "swift"])
        XCTAssertEqual(Array(tagged.tags.filter("SELF IN %@", ["lmdb", "Sql"])), ["Sql", "lmdb"])
        XCTAssertEqual(tagged.tags.filter("SELF != 'swift'").count, 2)
        let live = tagged.tags.filter("SELF CONTAINS 'i'")
        XCTAssertEqual(live.count, 2)
        try realm.write { tagged.tags.append("sqlite") }
        XCTAssertEqual(Array(live), ["swift", "swift", "sqlite"], "the results are live")
    }

    func testOptionalsSetsAndMapsFilterTheirValues() throws {
        let (_, tagged) = try openWithTagged()
        XCTAssertEqual(Array(tagged.scores.filter("SELF > 2")), [3, 5])
        XCTAssertEqual(tagged.scores.filter("SELF == nil").count, 1)
        XCTAssertEqual(Array(tagged.letters.filter("SELF != 'b'")), ["a", "c"])
        XCTAssertEqual(Array(tagged.stock.filter("SELF > 1").sorted(ascending: true)), [3, 7])
    }

    func testCollectionsHeldBeforeTheirObjectIsAddedAreTheStoredOnesAfter() throws {
        let realm = try openRealm(types: [Tagged.self])
        let tagged = Tagged(value: ["tags": ["a"], "letters": ["x"], "stock": ["eggs": 1]])
        let (tags, letters, stock) = (tagged.tags, tagged.letters, tagged.stock)
        try realm.write { realm.add(tagged) }
        XCTAssertNotNil(tags.realm)
        XCTAssertEqual(Array(tags), ["a"])
        try realm.write {
            tags.append("b")
            letters.insert("y")
            stock["milk"] = 2
        }
        XCTAssertEqual(Array(tagged.tags), ["a", "b"], "what was written through the held list is stored")
        XCTAssertEqual(Array(tagged.letters), ["x", "y"])
        XCTAssertEqual(tagged.stock["milk"], 2)
        XCTAssertEqual(realm.objects(Tagged.self).first?.stock.count, 2)
    }

    func testFiltersChainWithSortingAndDistinct() throws {
        let (_, tagged) = try openWithTagged()
        XCTAssertEqual(Array(tagged.tags.sorted(ascending: false).filter("SELF BEGINSWITH 's'")), ["swift", "swift"])
        XCTAssertEqual(Array(tagged.tags.filter("SELF BEGINSWITH 's'").distinct()), ["swift"])
        XCTAssertEqual(Array(tagged.scores.filter("SELF != nil").filter("SELF < 5").sorted(ascending: true)), [1, 3])
        XCTAssertEqual(tagged.scores.filter("SELF > 0").sum() as Int?, 9)
    }
}
