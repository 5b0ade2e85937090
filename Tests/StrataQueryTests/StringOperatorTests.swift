import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// BEGINSWITH, ENDSWITH, CONTAINS, LIKE and the [c], [d], [cd] options.
final class StringOperatorTests: QueryTestCase {
    func testBeginsEndsContains() {
        XCTAssertEqual(names("name BEGINSWITH 'B'"), ["Bella"])
        XCTAssertEqual(names("name ENDSWITH 'ex'"), ["Rex"])
        XCTAssertEqual(names("name CONTAINS 'l'"), ["Bella", "Éclair"])
        XCTAssertEqual(names("name beginswith 'R'"), ["Rex"])
    }

    func testBeginsWithOnEmptyStringMatchesNothing() {
        XCTAssertEqual(names("name BEGINSWITH ''"), [])
        XCTAssertEqual(names("name ENDSWITH ''"), [])
        XCTAssertEqual(names("name CONTAINS ''"), [])
        XCTAssertEqual(names("name CONTAINS[c] ''"), [])
        XCTAssertEqual(names("name == ''"), [""])
    }

    func testCaseInsensitiveIsUnicodeCaseFolding() {
        XCTAssertEqual(names("name BEGINSWITH[c] 'b'"), ["Bella", "bob"])
        XCTAssertEqual(names("name ==[c] 'STRASSE'"), ["Straße"])
        XCTAssertEqual(names("name ==[c] 'éclair'"), ["Éclair"])
        XCTAssertEqual(names("nickname ==[c] 'straße'"), ["Straße"])
        XCTAssertEqual(names("name !=[c] 'REX'"), ["Bella", "bob", "Éclair", "Straße", ""])
        XCTAssertEqual(names("name ==[c] 'e'"), [])
    }

    func testInWithOptionsIsEqualityWithOptionsOnEachValue() {
        let rows = ["é", "e\u{301}", "É", "Straße"].enumerated().map { i, name in
            Self.dogRow(Int64(i), name, 1, weight: nil, height: 0, born: 0, photo: nil, nickname: nil, good: true, tag: nil, score: nil)
        }
        XCTAssertEqual(names("name IN[c] {'É', 'x'}", rows: rows), names("name ==[c] 'É'", rows: rows))
        XCTAssertEqual(names("name IN[c] {'É', 'x'}", rows: rows), ["é", "É"], "no Unicode normalisation, as for ==[c]")
        XCTAssertEqual(names("name IN[cd] {'E'}", rows: rows), ["é", "e\u{301}", "É"])
        XCTAssertEqual(names("name IN[c] {'STRASSE'}", rows: rows), ["Straße"])
    }

    func testDiacriticInsensitiveRemovesAccents() {
        XCTAssertEqual(names("name ==[d] 'Eclair'"), ["Éclair"])
        XCTAssertEqual(names("name ==[d] 'eclair'"), [])
        XCTAssertEqual(names("name ==[cd] 'ECLAIR'"), ["Éclair"])
        XCTAssertEqual(names("name BEGINSWITH[cd] 'ec'"), ["Éclair"])
        XCTAssertEqual(names("nickname ==[d] 'Écl'"), ["Éclair"])
    }

    func testLikeWildcards() {
        XCTAssertEqual(names("name LIKE 'R?x'"), ["Rex"])
        XCTAssertEqual(names("name LIKE '*e*'"), ["Rex", "Bella", "Straße"])
        XCTAssertEqual(names("name LIKE 'B*'"), ["Bella"])
        XCTAssertEqual(names("name LIKE[c] 'b*'"), ["Bella", "bob"])
        XCTAssertEqual(names("name LIKE '?clair'"), ["Éclair"])
        XCTAssertEqual(names("name LIKE ''"), [""])
        XCTAssertEqual(names("name LIKE '*'").count, 6)
    }

    func testEscapesInStringLiterals() {
        let rows = [Self.dogRow(1, "it's \"q\"\n\u{e9}", 1, weight: nil, height: 0, born: 0, photo: nil, nickname: nil,
                                good: true, tag: nil, score: nil)]
        XCTAssertEqual(names("name == 'it\\'s \"q\"\\n\\u00e9'", rows: rows).count, 1)
        XCTAssertEqual(names("name == \"it's \\\"q\\\"\\n\u{e9}\"", rows: rows).count, 1)
    }
}
