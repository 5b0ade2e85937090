import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// The syntax tree: precedence, spellings, arguments and suffixes, checked by printing it.
final class ParserTests: QueryTestCase {
    private func tree(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do { return try Parser.parse(text).description } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return ""
        }
    }

    func testAndBindsTighterThanOrAndNotTighterThanAnd() {
        XCTAssertEqual(tree("a == 1 OR b == 2 AND NOT c == 3"), "(a == 1 OR (b == 2 AND NOT c == 3))")
        XCTAssertEqual(tree("a == 1 || b == 2 && !c == 3"), "(a == 1 OR (b == 2 AND NOT c == 3))")
        XCTAssertEqual(tree("(a == 1 OR b == 2) AND c == 3"), "((a == 1 OR b == 2) AND c == 3)")
        XCTAssertEqual(tree("NOT (a == 1 AND b == 2)"), "NOT (a == 1 AND b == 2)")
    }

    func testPrecedenceShowsInResults() {
        XCTAssertEqual(names("age == 9 OR age == 3 AND isGood == true"), ["Rex"])
        XCTAssertEqual(names("(age == 9 OR age == 3) AND isGood == false"), ["Bella"])
        XCTAssertEqual(names("NOT age > 3 AND isGood == false"), ["Bella", "Éclair", ""])
        XCTAssertEqual(names("! (age > 3)"), ["Bella", "Éclair", ""])
    }

    func testOperatorSpellingsAndKeywordCase() {
        XCTAssertEqual(tree("a = 1 and b <> 2 or c =< 3"), "((a == 1 AND b != 2) OR c <= 3)")
        XCTAssertEqual(tree("a => 1"), "a >= 1")
        XCTAssertEqual(tree("name BeginsWith[CD] 'x'"), "name BEGINSWITH[cd] 'x'")
        XCTAssertEqual(tree("name like[dc] 'x*'"), "name LIKE[cd] 'x*'")
        XCTAssertEqual(tree("age between {1, 2}"), "age BETWEEN {1, 2}")
    }

    func testLiterals() {
        XCTAssertEqual(tree("a == nil AND b == NULL AND c == TRUE AND d == false"), "(a == nil AND b == nil AND c == true AND d == false)")
        XCTAssertEqual(tree("a == 0x1F"), "a == 31")
        XCTAssertEqual(tree("a == -2.5e3"), "a == -2500.0")
        XCTAssertEqual(tree("a == .5"), "a == 0.5")
        XCTAssertEqual(tree("a == inf OR a == -inf OR a == nan"), "(a == inf OR a == -inf OR a == nan)")
        XCTAssertEqual(tree("a == T10:500000000"), "a == T10:500000000")
        XCTAssertEqual(tree("a == 1970-01-01@00:00:10"), "a == T10:0")
        XCTAssertEqual(tree("TRUEPREDICATE AND NOT FALSEPREDICATE"), "(TRUEPREDICATE AND NOT FALSEPREDICATE)")
    }

    func testArgumentsAreNumberedInOrderOrExplicitly() {
        XCTAssertEqual(tree("a == %@ AND %K == %@"), "(a == $0 AND $K1 == $2)")
        XCTAssertEqual(tree("a == $1 AND b == $0 AND $K2 == 3"), "(a == $1 AND b == $0 AND $K2 == 3)")
        XCTAssertEqual(names("%K == %@", "name", "Rex"), ["Rex"])
        XCTAssertEqual(names("age > $1 AND age < $0", 10, 5), ["Rex", "Straße"])
    }

    func testKeyPathsCollectionOperatorsAndSubqueriesParse() {
        XCTAssertEqual(tree("owner.address.city == 'x'"), "owner.address.city == 'x'")
        XCTAssertEqual(tree("dogs.@count > 2"), "dogs.@count > 2")
        XCTAssertEqual(tree("dogs.@sum.age > 2"), "dogs.@sum.age > 2")
        XCTAssertEqual(tree("ANY dogs.age > 2 AND NONE dogs.name == 'x' AND ALL dogs.age < 9 AND SOME dogs.age == 1"),
                       "(ANY dogs.age > 2 AND NONE dogs.name == 'x' AND ALL dogs.age < 9 AND ANY dogs.age == 1)")
        XCTAssertEqual(tree("SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count > 1"),
                       "SUBQUERY(dogs, $d, ($d.age > 3 AND $d.name BEGINSWITH 'R')).@count > 1")
        XCTAssertEqual(tree("@links.Person.dogs.@count == 0"), "@links.Person.dogs.@count == 0")
    }

    func testPropertiesMayShareNamesWithKeywordsWhereUnambiguous() {
        XCTAssertEqual(tree("any == 1"), "any == 1")
        XCTAssertEqual(tree("limit > 2 SORT(sort ASC)"), "limit > 2 SORT(sort ASC)")
    }

    func testSortDistinctLimitSuffixes() throws {
        XCTAssertEqual(tree("age > 1 SORT(name ASC, age DESC) DISTINCT(name) LIMIT(5) SORT(id ascending)"),
                       "age > 1 SORT(name ASC, age DESC) DISTINCT(name) LIMIT(5) SORT(id ASC)")
        let q = try compileQuery("TRUEPREDICATE SORT(name DESC) LIMIT(2) DISTINCT(age, name)", schema: Self.dog)
        XCTAssertEqual(q.suffixes.count, 3)
        XCTAssertEqual(q.suffixes[0], .sort([SortKey(property: Self.dog.property(named: "name")!, ascending: false)]))
        XCTAssertEqual(q.suffixes[1], .limit(2))
        XCTAssertEqual(q.suffixes[2], .distinct([PropertyPath(property: Self.dog.property(named: "age")!),
                                                 PropertyPath(property: Self.dog.property(named: "name")!)]))
        assertError("age > 1 SORT(name)", message: "expected ASC or DESC after the sort key 'name', found ')'", at: 17)
        assertError("age > 1 LIMIT(-1)", message: "expected a non-negative integer in LIMIT, found '-'", at: 14)
    }

    func testLexerPositionsAreCharacterOffsets() throws {
        let tokens = try Lexer.tokenize("näme == 'ü' && x")
        XCTAssertEqual(tokens.map(\.position), [0, 5, 8, 12, 15, 16])
    }
}
