import Foundation
@testable import Strata
import StrataQuery
import StrataStorage
import XCTest

final class IndexedEvent: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted(indexed: true) var count = 0
    @Persisted(indexed: true) var when = Date(timeIntervalSinceReferenceDate: 0)
    @Persisted(indexed: true) var optCount: Int?
    @Persisted(indexed: true) var tag: String?
    @Persisted var score = 0.0
}

/// The same properties as `IndexedEvent`, with no index and no primary key.
final class PlainEvent: Object {
    @Persisted var id = 0
    @Persisted var name = ""
    @Persisted var count = 0
    @Persisted var when = Date(timeIntervalSinceReferenceDate: 0)
    @Persisted var optCount: Int?
    @Persisted var tag: String?
    @Persisted var score = 0.0
}

final class CodedEvent: Object {
    @Persisted(primaryKey: true) var code = ""
    @Persisted var id = 0
}

final class OptionalKeyEvent: Object {
    @Persisted(primaryKey: true) var id: Int?
    @Persisted var n = 0
}

/// Which plan `explain()` shows, and that indexed and unindexed classes holding the same
/// data give the same results for every plan.
final class QueryPlanTests: StrataTestCase {
    private var realm: Realm!
    private let jan2020 = ISO8601DateFormatter().date(from: "2020-01-01T00:00:00Z")!
    private let long = String(repeating: "x", count: 600)

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [IndexedEvent.self, PlainEvent.self, CodedEvent.self, OptionalKeyEvent.self])
    }

    override func tearDownWithError() throws {
        realm = nil
        try super.tearDownWithError()
    }

    /// Stores the same objects in both classes.
    private func store(_ rows: [[String: Any]]) throws {
        try realm.write {
            for row in rows {
                realm.add(IndexedEvent(value: row))
                realm.add(PlainEvent(value: row))
            }
        }
    }

    /// The sorted ids matching `query` in a class.
    private func ids<T: Object>(_ type: T.Type, _ query: String, _ args: [Any]) throws -> [Int] {
        try realm.objects(type).filtered(query, args).map { $0["id"] as! Int }.sorted()
    }

    /// Asserts both classes agree and returns the indexed class's plan.
    @discardableResult
    private func assertAgree(_ query: String, _ args: Any..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let indexed = try ids(IndexedEvent.self, query, args)
        let plain = try ids(PlainEvent.self, query, args)
        XCTAssertEqual(indexed, plain, query, file: file, line: line)
        return try realm.objects(IndexedEvent.self).filtered(query, args).explain()
    }

    private func explain(_ query: String, _ args: Any...) throws -> String {
        try realm.objects(IndexedEvent.self).filtered(query, args).explain()
    }

    func testExplainNamesTheIndexChosenForEachKindOfCondition() throws {
        let d = jan2020
        let cases: [(String, [Any], String)] = [
            ("id == 5", [], "primary key lookup on IndexedEvent.id for 1 value {5}"),
            ("count == 3 AND name == 'a'", [], "index lookup on IndexedEvent.count for 1 value {3}"),
            ("name IN {'a', 'b'} AND count IN {1}", [], "index lookup on IndexedEvent.count for 1 value {1}"),
            ("name == 'a' AND id IN {1, 2, 3}", [], "primary key lookup on IndexedEvent.id for 3 values {1, 2, 3}"),
            ("count > 3 AND name BEGINSWITH 'ab'", [],
             "index prefix on IndexedEvent.name 'ab' (0 entries, the fewest of 2 usable indexes) then filter (count > 3 AND name BEGINSWITH 'ab')"),
            ("count > 3 AND count <= 10", [], "index range on IndexedEvent.count (3, 10]"),
            ("when >= %@", [d], "index range on IndexedEvent.when [2020-01-01T00:00:00Z, +inf) then filter when >= "),
            ("when > %@ AND count BETWEEN {1, 5}", [d], "index range on IndexedEvent.count [1, 5]"),
            ("id > 10 AND id < 20", [], "primary key range on IndexedEvent.id (10, 20)"),
            ("count > 2.5", [], "index range on IndexedEvent.count [3, +inf)"),
            ("count < -2.5", [], "index range on IndexedEvent.count (-inf, -3]"),
            ("5 > count", [], "index range on IndexedEvent.count (-inf, 5)"),
            // An optional string's nulls sort before 'm' and match: no index range from the first value.
            ("tag < 'm' AND optCount >= 0", [], "index range on IndexedEvent.optCount [0, +inf) then filter"),
            ("tag > 'm' AND optCount >= 0", [], "index range on IndexedEvent.tag ('m', +inf)"),
            ("name BEGINSWITH[c] 'a'", [], "index scan on IndexedEvent.name testing each distinct value"),
            ("name CONTAINS 'b' AND count > 1", [], "index range on IndexedEvent.count (1, +inf) then filter"),
            ("name CONTAINS 'b' AND score > 1", [], "scan IndexedEvent reading name, score then filter"),
            ("name ==[c] 'b' AND score > 1", [], "index scan on IndexedEvent.name testing each distinct value then filter"),
            ("tag LIKE[c] 'b*'", [], "index scan on IndexedEvent.tag testing each distinct value"),
            ("score > 1 OR count == 3", [], "scan IndexedEvent reading count, score then filter"),
            ("NOT count == 3", [], "scan IndexedEvent reading count"),
            ("count > nan", [], "scan IndexedEvent reading count"),
            ("tag == nil", [], "scan IndexedEvent reading tag"),
            ("FALSEPREDICATE", [], "nothing (the predicate is always false)"),
            ("TRUEPREDICATE", [], "scan IndexedEvent"),
            ("count > 3 SORT(name ASC) LIMIT(2)", [], "index range on IndexedEvent.count (3, +inf) then SORT(name ASC) then LIMIT(2)"),
        ]
        for (query, args, expected) in cases {
            let plan = try realm.objects(IndexedEvent.self).filtered(query, args).explain()
            XCTAssertTrue(plan.hasPrefix(expected), "\(query): \(plan)")
        }
        XCTAssertEqual(realm.objects(IndexedEvent.self).explain(), "scan IndexedEvent")
        XCTAssertEqual(realm.objects(IndexedEvent.self).sorted(byKeyPath: "count").explain(), "scan IndexedEvent then SORT(count ASC)")
        XCTAssertEqual(try ids(IndexedEvent.self, "count > 2.5", []), [])
    }

    /// An index access that covers the predicate is the whole plan: no row is tested, and
    /// `explain()` says no `then filter`; one that does not is followed by the test.
    func testExplainFiltersOnlyWhatTheIndexDoesNotAnswer() throws {
        let covered = [
            ("id == 5", "primary key lookup on IndexedEvent.id for 1 value {5}"),
            ("id IN {1, 2}", "primary key lookup on IndexedEvent.id for 2 values {1, 2}"),
            ("count > 3 AND count <= 10", "index range on IndexedEvent.count (3, 10]"),
            ("name BEGINSWITH 'ab'", "index prefix on IndexedEvent.name 'ab'"),
            ("tag LIKE[c] 'b*'", "index scan on IndexedEvent.tag testing each distinct value"),
        ]
        for (query, expected) in covered {
            XCTAssertEqual(try realm.objects(IndexedEvent.self).filtered(query, []).explain(), expected, query)
        }
        XCTAssertEqual(try realm.objects(IndexedEvent.self).filtered("name BEGINSWITH 'ab' AND count > 3", []).explain(),
                       "index prefix on IndexedEvent.name 'ab' (0 entries, the fewest of 2 usable indexes) then filter (name BEGINSWITH 'ab' AND count > 3)")
    }

    func testTypeSafeQueriesExplainTheSamePlans() throws {
        let events = realm.objects(IndexedEvent.self)
        XCTAssertEqual(events.where { $0.when >= jan2020 }.explain(), try explain("when >= %@", jan2020))
        XCTAssertTrue(events.where { $0.name.starts(with: "ab") && $0.score > 1 }.explain().hasPrefix("index prefix on IndexedEvent.name 'ab'"))
        XCTAssertTrue(events.where { $0.count.contains(1...5) }.explain().hasPrefix("index range on IndexedEvent.count [1, 5]"))
        XCTAssertTrue(events.where { $0.count.contains(1..<5) }.explain().hasPrefix("index range on IndexedEvent.count [1, 5)"))
        XCTAssertTrue(events.where { $0.id.in([4, 2]) }.explain().hasPrefix("primary key lookup on IndexedEvent.id for 2 values"))
        XCTAssertEqual(events.where { $0.name.starts(with: "ab", options: .caseInsensitive) }.explain(),
                       try explain("name BEGINSWITH[c] 'ab'"))
        XCTAssertTrue(try explain("name BEGINSWITH[c] 'ab'").hasPrefix("index scan on IndexedEvent.name testing each distinct value"))
    }

    func testRandomDataGivesTheSameResultsWithAndWithoutIndexes() throws {
        let seed = UInt64(Date().timeIntervalSince1970 * 1000) & 0xFFFF_FFFF
        print("QueryPlanTests random seed: \(seed)")
        var rng = SplitMix64(seed: seed)
        let words = ["", "a", "ab", "abc", "b", "B", "é", "e\u{301}", "日本", "日本語", "🐶", long + "a", long + "b", long]
        func word() -> String { words[Int(rng.next() % UInt64(words.count))] + (rng.next() % 2 == 0 ? "" : String(rng.next() % 5)) }
        var rows: [[String: Any]] = []
        for i in 0..<300 {
            rows.append(["id": i * 3 - 400, "name": word(), "count": Int(rng.next() % 41) - 20,
                         "when": Date(timeIntervalSinceReferenceDate: Double(rng.next() % 1000) * 3600 - 1e5),
                         "optCount": rng.next() % 4 == 0 ? NSNull() as Any : Int(rng.next() % 21) - 10,
                         "tag": rng.next() % 3 == 0 ? NSNull() as Any : word(), "score": Double(rng.next() % 100) / 7])
        }
        try store(rows)
        // Churn the indexes: change and delete some objects in both classes.
        try realm.write {
            for (i, row) in rows.enumerated() where i % 7 == 0 {
                let id = row["id"] as! Int
                realm.objects(IndexedEvent.self).filter("id == %@", id).first!.count = i % 11
                realm.objects(PlainEvent.self).filter("id == %@", id).first!.count = i % 11
                realm.objects(IndexedEvent.self).filter("id == %@", id).first!.name = word()
                realm.objects(PlainEvent.self).filter("id == %@", id).first!.name = realm.objects(IndexedEvent.self).filter("id == %@", id).first!.name
            }
            realm.delete(realm.objects(IndexedEvent.self).filter("count == 4"))
            realm.delete(realm.objects(PlainEvent.self).filter("count == 4"))
        }
        let ops = ["==", "!=", "<", "<=", ">", ">="]
        func int(_ r: Int) -> Int { Int(rng.next() % UInt64(2 * r + 1)) - r }
        func condition() -> (String, [Any]) {
            switch rng.next() % 10 {
            case 0: return ("id \(ops[Int(rng.next() % 6)]) %@", [int(500)])
            case 1: return ("count \(ops[Int(rng.next() % 6)]) %@", [int(22)])
            case 2: return ("count BETWEEN {%@, %@}", [int(22), int(22)])
            case 3:
                let op = ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "==", "IN"][Int(rng.next() % 6)]
                let options = ["", "[c]", "[d]", "[cd]"][Int(rng.next() % 4)]
                if op == "IN" { return ("name IN\(options) %@", [[word(), word()]]) }
                return ("name \(op)\(options) %@", [op == "LIKE" ? ["*", "?", "a*", "*b?", ""][Int(rng.next() % 5)] + word() : word()])
            case 4: return ("when \(ops[Int(rng.next() % 6)]) %@", [Date(timeIntervalSinceReferenceDate: Double(int(1000)) * 3600)])
            case 5:
                if rng.next() % 5 == 0 { return (rng.next() % 2 == 0 ? "optCount == nil" : "optCount != nil", []) }
                return ("optCount \(ops[Int(rng.next() % 6)]) %@", [int(12)])
            case 6: return ("tag \(["<", ">=", "BEGINSWITH", "=="][Int(rng.next() % 4)]) %@", [word()])
            case 7: return ("count IN %@", [[int(20), int(20), int(20)]])
            case 8: return ("count > %@", [Double(int(40)) / 4])
            default: return ("score < %@", [Double(int(100)) / 7])
            }
        }
        var usedIndex = 0, nonEmpty = 0
        for _ in 0..<300 {
            var parts: [String] = [], args: [Any] = []
            for _ in 0...(rng.next() % 3) {
                let (text, a) = condition()
                if rng.next() % 8 == 0 {
                    parts.append("NOT " + text)
                } else {
                    parts.append(text)
                }
                args += a
            }
            let query = parts.joined(separator: rng.next() % 6 == 0 ? " OR " : " AND ")
            let indexed = try ids(IndexedEvent.self, query, args)
            let plain = try ids(PlainEvent.self, query, args)
            XCTAssertEqual(indexed, plain, "seed \(seed): \(query) with \(args)")
            if indexed != plain { return }
            // An aggregate over results not read yet reads each match's row in the walk that finds it.
            XCTAssertEqual(try realm.objects(IndexedEvent.self).filtered(query, args).sum(ofProperty: "count") as Int,
                           try realm.objects(PlainEvent.self).filtered(query, args).map(\.count).reduce(0, +), "seed \(seed): \(query)")
            if !(try realm.objects(IndexedEvent.self).filtered(query, args).explain().hasPrefix("scan")) { usedIndex += 1 }
            if !indexed.isEmpty { nonEmpty += 1 }
        }
        XCTAssertGreaterThan(usedIndex, 100, "seed \(seed)")
        XCTAssertGreaterThan(nonEmpty, 50, "seed \(seed)")
    }

    func testAggregatesOfResultsNotReadYetSeeEachMatchOnce() throws {
        try store((0..<40).map { ["id": $0, "name": "n\($0 % 4)", "count": $0 % 10, "score": Double($0)] })
        func fresh(_ query: String, _ args: Any...) throws -> Results<IndexedEvent> {
            try realm.objects(IndexedEvent.self).filtered(query, args)
        }
        // Each kind of plan: a range of the integer primary key, an exact lookup, a covering
        // index range, an index then a test, a scan.
        XCTAssertEqual(try fresh("id BETWEEN {10, 19}").sum(ofProperty: "count") as Int, 45)
        XCTAssertEqual(try fresh("id > 35").sum(ofProperty: "score") as Double, 36 + 37 + 38 + 39)
        XCTAssertEqual(try fresh("name == 'n1'").sum(ofProperty: "id") as Int, (0..<40).filter { $0 % 4 == 1 }.reduce(0, +))
        XCTAssertEqual(try fresh("count >= 8").max(ofProperty: "id") as Int?, 39)
        XCTAssertEqual(try fresh("count == 3 AND score < 20").sum(ofProperty: "id") as Int, 3 + 13)
        XCTAssertEqual(try fresh("score > 37.5").average(ofProperty: "id") as Double?, 38.5)
        XCTAssertEqual(try fresh("id < 0").sum(ofProperty: "count") as Int, 0)
        // A sort changes no sum; LIMIT and DISTINCT change which objects are summed.
        XCTAssertEqual(try fresh("id < 10").sorted(byKeyPath: "score", ascending: false).sum(ofProperty: "id") as Int, 45)
        XCTAssertEqual(try fresh("id < 10 SORT(score DESC) LIMIT(3)").sum(ofProperty: "id") as Int, 9 + 8 + 7)
        XCTAssertEqual(try fresh("id < 10 DISTINCT(name)").sum(ofProperty: "id") as Int, 0 + 1 + 2 + 3)
        // In a write, after a change the walk has not seen yet.
        try realm.write {
            realm.object(ofType: IndexedEvent.self, forPrimaryKey: 15)!.count = 100
            XCTAssertEqual(try fresh("id BETWEEN {10, 19}").sum(ofProperty: "count") as Int, 45 - 5 + 100)
            XCTAssertEqual(try fresh("count > 50").sum(ofProperty: "id") as Int, 15)
        }
    }

    func testAnAggregateAfterACountReadsTheRowsTheCountReadWhileTheyAreCurrent() throws {
        try store((0..<40).map { ["id": $0, "name": "n\($0 % 4)", "count": $0 % 10, "score": Double($0)] })
        let range = realm.objects(IndexedEvent.self).filter("id BETWEEN {10, 19} AND count != 3")
        let scan = realm.objects(IndexedEvent.self).filter("score >= 30")
        let listed = realm.objects(IndexedEvent.self).filter("id IN %@", [3, 5, 5, 7, 100, -1])
        let keyRange = realm.objects(IndexedEvent.self).filter("id BETWEEN {20, 29}")  // keys only: rows as stored
        XCTAssertEqual(keyRange.count, 10)
        XCTAssertEqual(keyRange.sum(ofProperty: "count") as Int, 45)
        XCTAssertEqual(listed.count, 3)
        XCTAssertEqual(listed.sum(ofProperty: "count") as Int, 15)
        XCTAssertEqual(range.count, 9)
        XCTAssertEqual(range.sum(ofProperty: "count") as Int, 42)
        XCTAssertEqual(scan.count, 10)
        XCTAssertEqual(scan.max(ofProperty: "count") as Int?, 9)
        try realm.write {
            XCTAssertEqual(range.count, 9)
            XCTAssertEqual(listed.count, 3)
            // A write after the count: the rows it read are not the objects' any more.
            realm.object(ofType: IndexedEvent.self, forPrimaryKey: 12)!.count = 50
            realm.object(ofType: IndexedEvent.self, forPrimaryKey: 7)!.count = 1
            XCTAssertEqual(listed.sum(ofProperty: "count") as Int, 3 + 5 + 1)
            XCTAssertEqual(keyRange.count, 10)
            realm.object(ofType: IndexedEvent.self, forPrimaryKey: 21)!.count = 31
            XCTAssertEqual(keyRange.sum(ofProperty: "count") as Int, 45 + 30)
            XCTAssertEqual(range.sum(ofProperty: "count") as Int, 42 - 2 + 50)
            XCTAssertEqual(scan.count, 10)
            realm.object(ofType: IndexedEvent.self, forPrimaryKey: 39)!.count = 70
            realm.delete(realm.object(ofType: IndexedEvent.self, forPrimaryKey: 38)!)
            XCTAssertEqual(scan.max(ofProperty: "count") as Int?, 70)
            XCTAssertEqual(scan.sum(ofProperty: "count") as Int, (0...7).reduce(0, +) + 70)
        }
        // After the write, in the next snapshot.
        XCTAssertEqual(range.count, 9)
        XCTAssertEqual(range.sum(ofProperty: "count") as Int, 90)
    }

    /// Whether the indexed class's plan for `query` skips reading rows.
    private func covers(_ query: String, _ args: [Any]) throws -> Bool? {
        let results = try realm.objects(IndexedEvent.self).filtered(query, args)
        switch results.query?.plan {
        case .index(_, let covers)?: return covers
        case .fewestEntries?: return false
        default: return nil
        }
    }

    func testAnAccessCoversThePredicateOnlyWhenKeysDecideItExactly() throws {
        let x509 = String(repeating: "x", count: 509), x510 = String(repeating: "x", count: 510)
        var rows: [[String: Any]] = []
        let names = ["", "a", "ab", "b", x509, x509 + "y", x510, x510 + "a", long, long + "b", "é", "e\u{301}"]
        for (i, name) in names.enumerated() {
            rows.append(["id": i - 5, "name": name, "count": i % 5 - 2, "optCount": i % 3 == 0 ? NSNull() as Any : i - 6,
                         "tag": i % 4 == 0 ? NSNull() as Any : name, "when": Date(timeIntervalSinceReferenceDate: Double(i))])
        }
        try store(rows)
        let cases: [(String, [Any], Bool?)] = [
            ("id BETWEEN {%@, %@}", [-2, 3], true),
            ("id >= %@ AND id < %@", [-2, 3], true),
            ("id IN %@", [[-5, 0, 3, 99]], true),
            ("id == %@", [2], true),
            ("id > 2.5", [], false),
            ("id BETWEEN {-1.5, 2}", [], false),
            ("count == %@", [1], true),
            ("count IN {1, 2.5}", [], false),
            ("count > 0 AND count < 2.5", [], false),
            ("count > 0 AND name == 'a'", [], false),
            ("optCount < %@", [0], true),
            ("optCount IN {-5, -4}", [], true),
            ("optCount == nil", [], nil),
            ("name == %@", [x509], true),
            ("name == %@", [x510], false),
            ("name == %@", [long], false),
            ("name IN %@", [["a", x510]], false),
            ("name BEGINSWITH %@", ["x"], true),
            ("name BEGINSWITH %@", [x509], true),
            ("name BEGINSWITH %@", [x510], false),
            ("name BEGINSWITH ''", [], false),
            ("name BEGINSWITH[c] 'A'", [], true),
            ("name ==[d] 'e'", [], true),
            ("name ==[c] %@", [x510.uppercased()], true),
            ("name CONTAINS[c] 'Y'", [], true),
            ("name ENDSWITH 'b'", [], true),
            ("name LIKE 'x*a'", [], true),
            ("name IN[cd] {'E', 'B'}", [], true),
            ("name CONTAINS 'x' AND count > 0", [], false),
            ("name !=[c] 'a'", [], nil),
            ("name == 'e\u{301}'", [], true),
            ("name > %@", [x510], false),
            ("name >= %@", [x510], false),
            ("name <= %@", [x510], false),
            ("name < %@", [x510], false),
            ("name > %@ AND name <= %@", ["a", x509], true),
            ("tag BEGINSWITH 'a'", [], true),
            ("tag >= 'b'", [], true),
            ("when > %@", [Date(timeIntervalSinceReferenceDate: 3)], false),
        ]
        for (query, args, expected) in cases {
            XCTAssertEqual(try covers(query, args), expected, query)
            XCTAssertEqual(try ids(IndexedEvent.self, query, args), try ids(PlainEvent.self, query, args), query)
            let indexed = try realm.objects(IndexedEvent.self).filtered(query, args)
            let plain = try realm.objects(PlainEvent.self).filtered(query, args)
            XCTAssertEqual(indexed.count, plain.count, query)
            XCTAssertEqual(indexed.sum(ofProperty: "count") as Int, plain.sum(ofProperty: "count") as Int, query)
            XCTAssertEqual(indexed.sum(ofProperty: "optCount") as Int, indexed.compactMap(\.optCount).reduce(0, +),
                           "nulls add nothing: \(query)")
            XCTAssertEqual(indexed.max(ofProperty: "id") as Int?, plain.max(ofProperty: "id") as Int?, query)
        }
        XCTAssertEqual(try ids(IndexedEvent.self, "name > %@", [x510]), [0, 2, 3, 4, 5])
        XCTAssertEqual(try ids(IndexedEvent.self, "name == %@", [x510]), [1])
    }

    func testSeveralUsableIndexesAreChosenByCountingEntries() throws {
        // name: 100 "common", 100 unique; count: i % 50 (4 each); when: one per day.
        try store((0..<200).map { i in
            ["id": i, "name": i < 100 ? "common" : "n\(i)", "count": i % 50, "when": Date(timeIntervalSinceReferenceDate: Double(i) * 86_400)]
        })
        XCTAssertEqual(try assertAgree("name == 'common' AND count == 7"),
                       "index lookup on IndexedEvent.count for 1 value {7} (4 entries, the fewest of 2 usable indexes) then filter (name == 'common' AND count == 7)")
        XCTAssertTrue(try assertAgree("name == 'common' AND count BETWEEN {3, 4}")
            .hasPrefix("index range on IndexedEvent.count [3, 4] (8 entries, the fewest of 2 usable indexes)"), "a range over an equality")
        XCTAssertTrue(try assertAgree("id IN %@ AND name == 'n150'", Array(0..<60))
            .hasPrefix("index lookup on IndexedEvent.name for 1 value {'n150'} (1 entry, the fewest of 2 usable indexes)"),
                      "an equality over a primary key IN with more values")
        XCTAssertTrue(try assertAgree("id < 3 AND count == 1 AND name BEGINSWITH 'n1'")
            .hasPrefix("primary key range on IndexedEvent.id (-inf, 3) (3 entries, the fewest of 3 usable indexes)"))
        XCTAssertTrue(try assertAgree("name BEGINSWITH 'common' AND when < %@", Date(timeIntervalSinceReferenceDate: 86_400))
            .hasPrefix("index range on IndexedEvent.when (-inf, 2001-01-02T00:00:00Z) (1 entry, the fewest of 2 usable indexes)"))
        XCTAssertTrue(try assertAgree("name == 'none' AND count == 7").hasPrefix("index lookup on IndexedEvent.name for 1 value {'none'} (0 entries"),
                      "nothing is fewer than no entry")
        XCTAssertTrue(try assertAgree("count == 7 AND name == 'common'").hasPrefix("index lookup on IndexedEvent.count"), "the order written does not matter")

        // The choice follows the data: once count 7 has more entries than "common", name wins.
        let events = realm.objects(IndexedEvent.self).filter("name == 'common' AND count == 7")
        XCTAssertEqual(events.count, 2)
        try realm.write {
            for i in 200..<400 {
                let row: [String: Any] = ["id": i, "name": "other", "count": 7]
                realm.add(IndexedEvent(value: row))
                realm.add(PlainEvent(value: row))
            }
        }
        XCTAssertTrue(events.explain().hasPrefix("index lookup on IndexedEvent.name for 1 value {'common'} (100 entries"), events.explain())
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(try assertAgree("name == 'common' AND count == 7").isEmpty, false)
    }

    func testPrimaryKeyLookupReadsTheCurrentObject() throws {
        try store([["id": 7, "name": "a", "count": 1]])
        let found = try XCTUnwrap(realm.object(ofType: IndexedEvent.self, forPrimaryKey: 7))
        XCTAssertEqual(found.name, "a")
        XCTAssertNil(realm.object(ofType: IndexedEvent.self, forPrimaryKey: 8))
        try realm.write {
            let e = realm.object(ofType: IndexedEvent.self, forPrimaryKey: 7)!
            e.count = 5
            XCTAssertEqual(realm.object(ofType: IndexedEvent.self, forPrimaryKey: 7)!.count, 5)
            realm.delete(e)
            XCTAssertNil(realm.object(ofType: IndexedEvent.self, forPrimaryKey: 7))
        }
    }

    func testNegativeNumbersAndIntegerBoundsAtTheExtremes() throws {
        var rows: [[String: Any]] = [["id": Int.min, "count": Int.min], ["id": Int.max, "count": Int.max]]
        for i in -6...6 {
            let optCount: Any = i % 3 == 0 ? NSNull() : i
            rows.append(["id": i * 1000, "count": i, "optCount": optCount])
        }
        try store(rows)
        XCTAssertEqual(try ids(IndexedEvent.self, "count BETWEEN {-5, -1}", []).count, 5)
        try assertAgree("count < 0")
        try assertAgree("count >= -3 AND count < 2")
        try assertAgree("count > %@", Int.max)
        try assertAgree("count >= %@", Int.max)
        try assertAgree("count < %@", Int.min)
        try assertAgree("count <= %@", Int.min)
        try assertAgree("count > -1e19")
        try assertAgree("count < 1e19")
        XCTAssertTrue(try assertAgree("id > %@", Int.max).hasPrefix("primary key range"))
        try assertAgree("id >= %@", Int.max)
        try assertAgree("id < %@", Int.min)
        try assertAgree("id <= %@", Int.min)
        try assertAgree("id BETWEEN {-3000, 3000}")
        try assertAgree("id > -2000 AND id < 2000 AND id != 0")
        XCTAssertEqual(try ids(IndexedEvent.self, "id >= %@", [Int.max]), [Int.max])
        XCTAssertEqual(try ids(IndexedEvent.self, "id BETWEEN {5, 4}", []), [])
    }

    func testNullsAreOutsideEveryRange() throws {
        try store((0..<20).map { (i: Int) -> [String: Any] in
            let optCount: Any = i % 3 == 0 ? NSNull() : i - 10
            let tag: Any = i % 2 == 0 ? NSNull() : "t\(i)"
            return ["id": i, "optCount": optCount, "tag": tag]
        })
        XCTAssertTrue(try assertAgree("optCount < 3").hasPrefix("index range on IndexedEvent.optCount (-inf, 3)"))
        try assertAgree("optCount >= -100")
        try assertAgree("optCount != nil AND optCount > 0")
        try assertAgree("optCount == nil")
        try assertAgree("tag < 't5'")
        try assertAgree("tag BEGINSWITH 't1'")
        try assertAgree("NOT tag BEGINSWITH 't1'")
        XCTAssertEqual(try ids(IndexedEvent.self, "optCount >= -100", []).count, 13)
    }

    func testPrefixesEmptyLongAndUnicode() throws {
        let names = ["", "a", "ab", "abc", "b", "é", "e\u{301}", "e", "日本", "日本語", "日", "🐶🐱", "🐶",
                     long, long + "a", long + "b", String(repeating: "x", count: 509) + "é", "ÿ", "\u{10FFFF}"]
        try store(names.enumerated().map { ["id": $0.offset, "name": $0.element] })
        XCTAssertTrue(try assertAgree("name BEGINSWITH ''").hasPrefix("index prefix on IndexedEvent.name ''"))
        XCTAssertEqual(try ids(IndexedEvent.self, "name BEGINSWITH ''", []), [])
        try assertAgree("name BEGINSWITH 'a'")
        try assertAgree("name BEGINSWITH 'e'")
        try assertAgree("name BEGINSWITH 'é'")
        try assertAgree("name BEGINSWITH '日本'")
        try assertAgree("name BEGINSWITH '🐶'")
        try assertAgree("name BEGINSWITH 'ÿ'")
        try assertAgree("name BEGINSWITH %@", String(repeating: "x", count: 550))
        try assertAgree("name BEGINSWITH %@", long + "a")
        try assertAgree("name BEGINSWITH %@", String(repeating: "x", count: 509) + "é")
        try assertAgree("name BEGINSWITH %@", String(repeating: "x", count: 510))
        try assertAgree("name == %@", long + "b")
        try assertAgree("name > %@", long + "a")
        try assertAgree("name >= %@", long)
        try assertAgree("name < %@", long + "b")
        try assertAgree("name BETWEEN {%@, %@}", long, long + "a")
        try assertAgree("name > '日'")
        try assertAgree("name <= 'e'")
        XCTAssertEqual(try ids(IndexedEvent.self, "name BEGINSWITH %@", [long + "a"]), [14])
        XCTAssertEqual(try ids(IndexedEvent.self, "name BEGINSWITH '日本'", []), [8, 9])
    }

    func testDateRangesAroundTheReferenceDate() throws {
        try store((-10...10).map { ["id": $0, "when": Date(timeIntervalSinceReferenceDate: Double($0) * 0.5)] })
        XCTAssertTrue(try assertAgree("when < %@", Date(timeIntervalSinceReferenceDate: 0)).hasPrefix("index range on IndexedEvent.when (-inf, 2001-01-01T00:00:00Z)"))
        try assertAgree("when >= %@", Date(timeIntervalSinceReferenceDate: -0.0))
        try assertAgree("when > %@", Date(timeIntervalSinceReferenceDate: -2.5))
        try assertAgree("when BETWEEN {%@, %@}", Date(timeIntervalSinceReferenceDate: -1.25), Date(timeIntervalSinceReferenceDate: 1.5))
        XCTAssertEqual(try ids(IndexedEvent.self, "when > %@", [Date(timeIntervalSinceReferenceDate: 4)]), [9, 10])
    }

    func testStringAndOptionalPrimaryKeysUseTheirIndexes() throws {
        try realm.write {
            for i in 0..<30 {
                realm.add(CodedEvent(value: ["code": "c\(i)", "id": i]))
                realm.add(OptionalKeyEvent(value: i == 0 ? ["n": i] : ["id": i - 15, "n": i]))
            }
        }
        let coded = realm.objects(CodedEvent.self).filter("code BEGINSWITH 'c1'")
        XCTAssertTrue(coded.explain().hasPrefix("primary key prefix on CodedEvent.code 'c1'"))
        XCTAssertEqual(coded.map(\.id).sorted(), [1] + Array(10...19))
        let ranged = realm.objects(CodedEvent.self).filter("code > 'c2'")
        XCTAssertEqual(ranged.map(\.id).sorted(), [3, 4, 5, 6, 7, 8, 9, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])
        let optional = realm.objects(OptionalKeyEvent.self).filter("id > -3 AND id <= 4")
        XCTAssertTrue(optional.explain().hasPrefix("primary key range on OptionalKeyEvent.id (-3, 4]"))
        XCTAssertEqual(optional.map(\.n).sorted(), [13, 14, 15, 16, 17, 18, 19])
    }

    /// `indexed == %@` filtered again and again (the prepared lookup, bound to each new value
    /// without a tree or a plan) finds what a scan finds: repeated values, missing ones, values
    /// whose index key is truncated (which go back to the full plan), another kind of value,
    /// and primary keys. Its plan and text are those of the query compiled afresh.
    func testAPreparedLookupBoundToNewValuesFindsWhatAScanFinds() throws {
        let x510 = String(repeating: "x", count: 510)
        var rows: [[String: Any]] = []
        let names = ["a", "b", "a", "", "é", x510 + "a", x510 + "b", "a"]
        for (i, name) in names.enumerated() { rows.append(["id": i - 3, "name": name, "count": i % 3]) }
        try store(rows)
        try realm.write {
            for i in 0..<5 { realm.add(CodedEvent(value: ["code": "c\(i)", "id": i])) }
        }
        for name in ["a", "b", "missing", "", "é", "e\u{301}", x510 + "a", x510, "a"] {
            let plan = try assertAgree("name == %@", name)
            let fresh = try realm.objects(IndexedEvent.self).filtered("name == '\(name)'", []).explain()
            XCTAssertEqual(plan, fresh, "name == '\(name.prefix(8))…'")
        }
        XCTAssertEqual(try ids(IndexedEvent.self, "name == %@", ["a"]), [-3, -1, 4])
        for count in [0, 2, 7] { try assertAgree("count == %@", count) }
        XCTAssertEqual(try ids(IndexedEvent.self, "count == %@", [2.0]), [-1, 2])
        for id in [-3, 0, 4, 99] { try assertAgree("id == %@", id) }
        for code in ["c1", "c4", "c9", "c1"] {
            let found = realm.objects(CodedEvent.self).filter("code == %@", code)
            XCTAssertEqual(found.map(\.id), code == "c9" ? [] : [Int(code.dropFirst())!])
            XCTAssertTrue(found.explain().hasPrefix("primary key lookup on CodedEvent.code for 1 value {'\(code)'}"), found.explain())
        }
        let bound = realm.objects(IndexedEvent.self).filter("name == %@", "b")
        XCTAssertTrue(bound.description.hasPrefix("Results<IndexedEvent> <0x"), bound.description)
        XCTAssertEqual(bound.count, 1)
        XCTAssertEqual(bound.filter("count == 1").map(\.id), [-2])
    }
}
