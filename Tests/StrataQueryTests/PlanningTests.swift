import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// What the Strata layer plans with: read sets, index hints, chained filters, folding.
final class PlanningTests: QueryTestCase {
    private func compile(_ text: String, _ arguments: Any...) throws -> CompiledQuery {
        try compileQuery(text, arguments: arguments, schema: Self.dog)
    }

    func testPropertyIDsAreExactlyTheSlotsRead() throws {
        XCTAssertEqual(try compile("age > 1 AND (name == 'x' OR NOT score == 2)").propertyIDs, [2, 1, 11])
        XCTAssertEqual(try compile("age > score").propertyIDs, [2, 11])
        XCTAssertEqual(try compile("TRUEPREDICATE").propertyIDs, [])
    }

    func testIndexHintForPrimaryKeyAndIndexedEquality() throws {
        let byName = try compile("age > 3 AND name == 'Rex'").indexHint
        XCTAssertEqual(byName?.property.name, "name")
        XCTAssertEqual(byName?.values, [.string("Rex")])
        let byKey = try compile("name == 'Rex' AND id IN {1, 2, 2}").indexHint
        XCTAssertEqual(byKey?.property.name, "id")
        XCTAssertEqual(byKey?.values, [.int(1), .int(2)])
        XCTAssertEqual(try compile("id == 4.0").indexHint?.values, [.int(4)])
        XCTAssertEqual(try compile("id == 4.5").indexHint?.values, [])
        XCTAssertEqual(try compile("name IN %@", ["a", "b"]).indexHint?.values, [.string("a"), .string("b")])
        XCTAssertEqual(try compile("name IN %@", ["é", "e\u{301}", "é"]).indexHint?.values.count, 2,
                       "canonically equivalent strings are different keys")
    }

    func testNoIndexHintWhereTheIndexCannotAnswer() throws {
        XCTAssertNil(try compile("age == 3").indexHint)
        XCTAssertNil(try compile("name ==[c] 'rex'").indexHint)
        XCTAssertNil(try compile("name == 'a' OR age == 1").indexHint)
        XCTAssertNil(try compile("NOT name == 'a'").indexHint)
        XCTAssertNil(try compile("name != 'a'").indexHint)
        XCTAssertNil(try compile("name BEGINSWITH 'a'").indexHint)
    }

    func testSeveralUsableIndexesAreListedBestKindFirst() throws {
        let (id, name) = (Self.dog.property(named: "id")!, Self.dog.property(named: "name")!)
        XCTAssertEqual(try compile("age > 1 AND name BEGINSWITH 'a' AND id IN {1, 2}").plan,
                       .fewestEntries([.equal(id, [.int(1), .int(2)]), .prefix(name, "a")]))
        XCTAssertEqual(try compile("name > 'b' AND name < 'c' AND id >= 3").plan,
                       .fewestEntries([.range(name, IndexRange(lower: .string("b"), lowerInclusive: false, upper: .string("c"), upperInclusive: false)),
                                       .range(id, IndexRange(lower: .int(3), upper: nil))]))
        XCTAssertEqual(try compile("name == 'a' AND age > 1").plan, .index(.equal(name, [.string("a")]), covers: false))
        XCTAssertEqual(try compile("name == 'a' OR id == 1").plan, .scan(reading: [id, name]))
    }

    func testStringComparisonsTheIndexOrderCannotAnswerScanTheIndex() throws {
        let (id, name) = (Self.dog.property(named: "id")!, Self.dog.property(named: "name")!)
        func test(_ text: String) throws -> IndexAccess {
            guard case .comparison(let c) = try compile(text).query.predicate else { throw QueryError("not a comparison", at: 0) }
            return .test(c)
        }
        XCTAssertEqual(try compile("name ==[c] 'rex'").plan, .index(try test("name ==[c] 'rex'"), covers: true))
        XCTAssertEqual(try compile("name CONTAINS 'e'").plan, .index(try test("name CONTAINS 'e'"), covers: true))
        XCTAssertEqual(try compile("name LIKE[cd] '*e'").plan, .index(try test("name LIKE[cd] '*e'"), covers: true))
        XCTAssertEqual(try compile("name IN[c] {'a', 'b'}").plan, .index(try test("name IN[c] {'a', 'b'}"), covers: true))
        guard case .index(.test, covers: false) = try compile("name BEGINSWITH[d] 'e' AND age > 1").plan else {
            return XCTFail("a [d] prefix with another condition scans the index")
        }
        XCTAssertEqual(try compile("name ENDSWITH 'e' AND age > 1").plan, .scan(reading: [name, Self.dog.property(named: "age")!]),
                       "a suffix is not selective enough to read every row it passes twice")
        guard case .fewestEntries(let accesses) = try compile("name ==[c] 'rex' AND id == 3").plan else { return XCTFail("two indexes") }
        XCTAssertEqual(accesses.first, .equal(id, [.int(3)]))
        for text in ["name !=[c] 'rex'", "nickname ==[c] nil", "nickname ==[c] 'rex'", "name > 'a' OR name CONTAINS 'b'"] {
            guard case .scan = try compile(text).plan else { return XCTFail(text) }
        }
        XCTAssertEqual(IndexAccess.test(ResolvedComparison(property: name, op: .contains, options: [], operand: .value(.string("e"))))
                        .description(className: "Dog"), "index scan on Dog.name testing each distinct value")
    }

    func testChainedQueriesAreAndedAndKeepTheBestHint() throws {
        let a = try compile("age > 2 SORT(name ASC)")
        let b = try compile("id == 1 LIMIT(1)")
        let both = a.and(b)
        XCTAssertEqual(both.description, "(age > 2 AND id == 1) SORT(name ASC) LIMIT(1)")
        XCTAssertEqual(both.propertyIDs, [2, 0])
        XCTAssertEqual(both.indexHint?.property.name, "id")
        let rows = Self.dogs.map { RowEncoder.encode($0) }
        let matched = rows.filter { r in r.withUnsafeBytes { both.matches(RowView($0)!) } }
        XCTAssertEqual(matched.count, 1)
        XCTAssertEqual(CompiledQuery.all(Self.dog).and(a).description, a.description)
    }

    func testComparisonsBetweenConstantsAreFolded() throws {
        XCTAssertEqual(try compile("1 == 1").constantResult, true)
        XCTAssertEqual(try compile("%@ == 'a'", "b").constantResult, false)
        XCTAssertEqual(try compile("3 IN {1, 2}").constantResult, false)
        XCTAssertEqual(try compile("FALSEPREDICATE").constantResult, false)
        XCTAssertNil(try compile("age == 1").constantResult)
        XCTAssertEqual(names("1 == 1 AND age == 9"), ["Rex"])
    }

    func testResolvedTreeIsPrintable() throws {
        XCTAssertEqual(try compile("5 < age AND name BEGINSWITH[c] %@", "r").description, "(age > 5 AND name BEGINSWITH[c] 'r')")
        XCTAssertEqual(try compile("age == 8.0").description, "age == 8")
        XCTAssertEqual(try compile("height == 1").query.predicate,
                       .comparison(ResolvedComparison(property: Self.dog.property(named: "height")!, op: .equal, options: [],
                                                      operand: .value(.float(1)))))
    }

    /// A query the index answers alone compiles its row predicate only when asked, once,
    /// even when threads ask at the same time, and it then matches as any other.
    func testAQueryAnsweredByAnIndexCompilesItsRowPredicateOnFirstUse() throws {
        let covered = try compile("name == 'Rex'")
        guard case .index(_, covers: true) = covered.plan else { return XCTFail("\(covered.plan)") }
        let rows = Self.dogs.map { RowEncoder.encode($0) }
        var results = [[Bool]](repeating: [], count: 8)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let matched = rows.map { bytes in bytes.withUnsafeBytes { covered.matches(RowView($0)!) } }
            lock.withLock { results[i] = matched }
        }
        let expected = Self.dogs.map { $0[1] == .string("Rex") }
        XCTAssertEqual(results, Array(repeating: expected, count: 8))
    }
}
