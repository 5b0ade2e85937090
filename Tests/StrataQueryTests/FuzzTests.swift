import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// The parser and resolver never crash or hang on any input: random text, mutations of
/// valid queries, and a corpus of tricky inputs. Each must compile or throw a `QueryError`
/// whose position lies inside the text; whatever compiles must run on every row.
final class FuzzTests: QueryTestCase {
    static let corpus: [String] = [
        "age > 8 AND name BEGINSWITH[c] 'r'", "name IN {'a', 'b'} OR NOT (age BETWEEN {1, 2})",
        "nickname ==[cd] %@ && score != nil || weight <= 3.5e2", "tag == uuid(11111111-2222-3333-4444-555555555555)",
        "born > 2020-01-01@10:00:00:5 SORT(name ASC) DISTINCT(age) LIMIT(3)", "%K LIKE '*?*' AND $0 == $1",
        "SUBQUERY(owner, $x, $x.age > 1).@count > 0", "ANY owner.name == 'x'", "photo == B64\"AAE=\"",
        "TRUEPREDICATE", "!(FALSEPREDICATE) AND age == 0x7fffffffffffffff", "score == -9223372036854775807",
        // Tricky inputs.
        "", " ", "(", ")", "((", "'", "\"", "\\", "'\\", "'\\u12'", "'\\uD800'", "%", "%@%@%K", "$", "$K", "$99999999999",
        "@", "@links", "@links.", "@links.A.", "age ==", "== 3", "age == {", "age IN {1,", "age IN {,}", "{1} == age",
        "NOT", "NOT NOT", "age == 1 AND", "OR age == 1", "age BETWEEN", "age BETWEEN {}", "age == --1", "age == -",
        "age == 1.2.3", "age == 0x", "age == 0xZZ", "age == 1e", "age == 12abc", "uuid(", "uuid(zz)", "B64'!!'",
        "T1:", "T:1", "2020-13-45@99:99:99", "2020-01-01@", "name ==[", "name ==[c", "name ==[]", "name ==[cc] 'a'",
        "SUBQUERY(", "SUBQUERY(a, b, c)", "SUBQUERY(a, $b, a == 1)", "SUBQUERY(a, $b, a == 1).", "SUBQUERY(a,$b,a==1).@sum",
        "SORT(", "age == 1 SORT(", "age == 1 LIMIT(99999999999999999999)", "age == 1 LIMIT(x)", "age == 1 DISTINCT()",
        "\u{0}", "age == '\u{0}'", "é == 1", "名前 == 'x'", "age\u{301} == 1", "🐶 == 1", "age == 1 \u{200B}",
        "name == 'unterminated", "name == \"mixed'", "age <=> 1", "age >< 1", "age !== 1", "age == 1 &&& age == 2",
    ]

    func testRandomStringsNeverCrashTheParser() {
        var rng = SplitMix64(seed: 0x5EED_0001)
        let pieces = ["(", ")", "{", "}", "[", "]", "'", "\"", "\\", "%@", "%K", "$0", "$K1", "$x", "@count", "@links", ".",
                      ",", "==", "=", "!=", "<", ">=", "!", "&&", "||", "-", "0x1f", "12", "3.5", "1e9", " ", " ", " ",
                      "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "LIKE", "[c]", "ANY", "SUBQUERY", "SORT", "LIMIT",
                      "name", "age", "score", "nil", "true", "é", "ß", "\u{301}", "🐶", "T1:2", "uuid(", "B64", "'x'", "a"]
        for i in 0..<4_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...24, using: &rng) { text += pieces.randomElement(using: &rng)! }
            check(text, seed: i)
        }
    }

    func testRandomBytesNeverCrashTheParser() {
        var rng = SplitMix64(seed: 0x5EED_0002)
        for i in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            check(String(decoding: bytes, as: UTF8.self), seed: i)
        }
    }

    func testMutatedValidQueriesNeverCrashTheParser() {
        var rng = SplitMix64(seed: 0x5EED_0003)
        let alphabet = Array("(){}[]'\"\\%@$.,=!<>&|-0123456789xKabcdeANDORNOT é")
        for i in 0..<4_000 {
            var chars = Array(Self.corpus.randomElement(using: &rng)!)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = chars.isEmpty ? 0 : Int.random(in: 0..<chars.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where !chars.isEmpty: chars.remove(at: at)
                case 1: chars.insert(alphabet.randomElement(using: &rng)!, at: at)
                case 2 where !chars.isEmpty: chars[at] = alphabet.randomElement(using: &rng)!
                default:
                    let end = min(chars.count, at + Int.random(in: 1...8, using: &rng))
                    chars.insert(contentsOf: chars[at..<end], at: at)
                }
            }
            check(String(chars), seed: i)
        }
    }

    func testCorpusOfTrickyInputs() {
        for (i, text) in Self.corpus.enumerated() { check(text, seed: i) }
    }

    /// Compiles `text` with a spread of arguments; errors must be `QueryError`s positioned
    /// inside the text, and compiled queries must run on every row.
    private func check(_ text: String, seed: Int) {
        let arguments: [Any] = ["name", 3, ["a", "b"], 2.5, Optional<Int>.none as Any]
        do {
            let q = try compileQuery(text, arguments: arguments, schema: Self.dog)
            for values in Self.dogs {
                _ = RowEncoder.encode(values).withUnsafeBytes { q.matches(RowView($0)!) }
            }
        } catch {
            if let p = error.position {
                XCTAssert(p >= 0 && p <= text.count, "position \(p) outside \(text.debugDescription) (case \(seed))")
            }
            XCTAssertFalse(error.message.isEmpty)
        }
    }
}
