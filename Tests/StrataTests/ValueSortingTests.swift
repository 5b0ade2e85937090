import Foundation
import XCTest
import Strata

final class Scoreboard: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var scores: List<Int?>
    @Persisted var tags: MutableSet<String>
    @Persisted var prices: Map<String, Double>
    @Persisted var readings: List<AnyRealmValue>
}

/// `sorted(ascending:)` and `distinct()` on lists, sets and maps of values: the order, nil
/// placement, repeats, chaining, liveness within and across writes, frozen results, and
/// aggregates and lookups on the results.
final class ValueSortingTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Scoreboard.self]) }

    func testListSortsWithNilFirstAscendingAndLastDescending() throws {
        let realm = try open()
        let board = try realm.write { realm.create(Scoreboard.self, value: ["id": 1, "scores": [3, nil, -7, 3, 12]]) }
        XCTAssertEqual(Array(board.scores.sorted()), [nil, -7, 3, 3, 12])
        XCTAssertEqual(Array(board.scores.sorted(ascending: false)), [12, 3, 3, -7, nil])
        XCTAssertEqual(Array(board.scores), [3, nil, -7, 3, 12], "sorting leaves the list's own order alone")
    }

    func testDistinctKeepsTheFirstOfEachValueInListOrder() throws {
        let realm = try open()
        let board = try realm.write { realm.create(Scoreboard.self, value: ["id": 1, "scores": [5, nil, 2, 5, nil, 9, 2]]) }
        XCTAssertEqual(Array(board.scores.distinct()), [5, nil, 2, 9])
        XCTAssertEqual(Array(board.scores.distinct().sorted(ascending: false)), [9, 5, 2, nil])
        XCTAssertEqual(Array(board.scores.sorted().distinct()), [nil, 2, 5, 9])
    }

    func testResultsFollowTheListInsideAndAfterWrites() throws {
        let realm = try open()
        let board = try realm.write { realm.create(Scoreboard.self, value: ["id": 1, "scores": [4, 1]]) }
        let sorted = board.scores.sorted()
        XCTAssertEqual(sorted.count, 2)
        try realm.write {
            board.scores.append(0)
            XCTAssertEqual(Array(sorted), [0, 1, 4], "a change inside the write shows at once")
            board.scores.remove(at: 1)
        }
        XCTAssertEqual(Array(sorted), [0, 4])
        XCTAssertEqual(sorted.first, 0)
        XCTAssertEqual(sorted.last, 4)
        XCTAssertEqual(sorted[1], 4)
        XCTAssertEqual(sorted.index(of: 4), 1)
        XCTAssertNil(sorted.index(of: 99))
    }

    func testAggregatesOnResultsOfValues() throws {
        let realm = try open()
        let board = try realm.write { realm.create(Scoreboard.self, value: ["id": 1, "scores": [2, nil, 8, 2]]) }
        let distinct = board.scores.distinct()
        XCTAssertEqual(distinct.min(), 2)
        XCTAssertEqual(distinct.max(), 8)
        XCTAssertEqual(distinct.sum(), 10)
        XCTAssertEqual(distinct.average(), 5.0 as Double?)
    }

    func testSetSortsStringsByUTF8Order() throws {
        let realm = try open()
        let board = try realm.write { realm.create(Scoreboard.self, value: ["id": 1, "tags": ["pear", "Apple", "apple", "été"]]) }
        XCTAssertEqual(Array(board.tags.sorted()), ["Apple", "apple", "pear", "été"])
        XCTAssertEqual(Array(board.tags.sorted(ascending: false)), ["été", "pear", "apple", "Apple"])
        XCTAssertEqual(board.tags.distinct().count, 4, "a set has no repeats to leave out")
    }

    func testMapSortsAndDistinctsItsValues() throws {
        let realm = try open()
        let board = try realm.write {
            realm.create(Scoreboard.self, value: ["id": 1, "prices": ["tea": 2.5, "bread": 1.25, "jam": 2.5, "apples": 4.0]])
        }
        XCTAssertEqual(Array(board.prices.sorted()), [1.25, 2.5, 2.5, 4.0])
        XCTAssertEqual(Array(board.prices.sorted(ascending: false)), [4.0, 2.5, 2.5, 1.25])
        XCTAssertEqual(Array(board.prices.distinct()), [4.0, 1.25, 2.5], "distinct values in the order of their first keys")
    }

    func testMixedValuesSortAcrossNumericTypes() throws {
        let realm = try open()
        let board = try realm.write {
            realm.create(Scoreboard.self, value: ["id": 1, "readings": [AnyRealmValue.double(2.5), .int(2), .none, .float(-1), .int(3)]])
        }
        XCTAssertEqual(Array(board.readings.sorted()), [.none, .float(-1), .int(2), .double(2.5), .int(3)])
    }

    func testFrozenResultsKeepTheirVersion() throws {
        let realm = try open()
        let board = try realm.write { realm.create(Scoreboard.self, value: ["id": 1, "scores": [2, 1]]) }
        let frozen = board.scores.sorted().freeze()
        try realm.write { board.scores.append(0) }
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertEqual(Array(frozen), [1, 2])
        XCTAssertEqual(Array(frozen.thaw()!), [0, 1, 2])
    }

    func testResultsOfDifferentOrdersAreNotEqual() throws {
        let realm = try open()
        let board = try realm.write { realm.create(Scoreboard.self, value: ["id": 1, "scores": [2, 1]]) }
        XCTAssertEqual(board.scores.sorted(), board.scores.sorted())
        XCTAssertNotEqual(board.scores.sorted(), board.scores.sorted(ascending: false))
        XCTAssertNotEqual(board.scores.sorted(), board.scores.distinct())
    }
}
