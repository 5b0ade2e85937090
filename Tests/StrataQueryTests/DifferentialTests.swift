import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// The compiled predicates agree with `ReferenceEvaluator` (plain Swift over decoded values,
/// `ValueSemantics` for single comparisons) on random data and random predicates: rows of one
/// class with nulls, NaN, Unicode and [c]/[d] here, graphs of linked classes in
/// DifferentialTests+Relationships.swift. A failure prints the case and the seed.
final class DifferentialTests: QueryTestCase {
    static let strings = ["", "a", "A", "ab", "AB", "abc", "b", "ß", "SS", "ss", "é", "É", "e\u{301}", "e", "x*y",
                          "a^b", "`~", "Straße", "STRASSE", "İ", "i", "🐶", "ǅ", "ﬁ", "fi", "Ωmega", "ωMEGA"]

    func testCompiledPredicatesAgreeWithTheReference() {
        var rng = SplitMix64(seed: 0xD1FF)
        let graph = TestGraph(SchemaLookup(Self.dog))
        for key in 1...60 { graph.add("Dog", ObjectKey(key), randomRow(&rng)) }
        let reference = ReferenceEvaluator(graph: graph)
        var compiledCount = 0
        for i in 0..<1_500 {
            let (text, arguments) = randomPredicate(&rng, depth: 0)
            let q: CompiledQuery
            do { q = try compileQuery(text, arguments: arguments, schema: Self.dog) } catch { continue }
            compiledCount += 1
            for key in graph.keys("Dog") {
                let fast = q.matches(graph.row("Dog", key)!)
                let slow = reference.holds(q.query.predicate, on: reference.object("Dog", key)!)
                if fast != slow {
                    XCTFail("case \(i): \(q) on \(graph.rows["Dog"]![key]!): compiled \(fast), reference \(slow)")
                    return
                }
            }
        }
        XCTAssertGreaterThan(compiledCount, 600)
    }

    /// A prepared query bound to new arguments is the tree the resolver makes from the text
    /// and those arguments, with the plan the planner makes of it, for random predicates and random new arguments (of the first
    /// arguments' kinds or not); binding refuses exactly what it cannot bind, and the resolver
    /// then fails or resolves differently only when binding refused.
    func testPreparedQueriesBindToWhatTheResolverMakes() throws {
        var rng = SplitMix64(seed: 0xB1ED)
        var bound = 0, refused = 0
        for i in 0..<3_000 {
            let (text, first) = randomPredicate(&rng, depth: 0)
            let recorder = ArgumentRecorder()
            let ast = try Parser.parse(text)
            guard let resolved = try? Resolver(schema: Self.dog, arguments: first, recorder: recorder).resolve(ast),
                  let prepared = PreparedQuery(resolved, arguments: first, recorder: recorder) else { continue }
            XCTAssertEqual(prepared.compile(first, schema: Self.dog)?.query.description, resolved.description, "case \(i): \(text) rebound to its own arguments")
            let next = first.map { reroll($0, &rng) }
            let fresh = Result { () throws(QueryError) in try Resolver(schema: Self.dog, arguments: next).resolve(ast) }
            guard let rebound = prepared.compile(next, schema: Self.dog) else {
                refused += 1
                continue
            }
            bound += 1
            guard case .success(let expected) = fresh else {
                XCTFail("case \(i): \(text) bound to \(next), which the resolver rejects: \(fresh)")
                return
            }
            if rebound.query != expected && rebound.query.description != expected.description {
                XCTFail("case \(i): \(text) with \(next): bound \(rebound.query), resolved \(expected)")
                return
            }
            let plan = CompiledQuery(expected, schema: Self.dog).plan
            if rebound.plan != plan {
                XCTFail("case \(i): \(text) with \(next): planned \(rebound.plan), the planner makes \(plan)")
                return
            }
        }
        XCTAssertGreaterThan(bound, 500)
        XCTAssertGreaterThan(refused, 100)
    }

    /// Another argument in place of `argument`: of the same Swift type half the time.
    private func reroll(_ argument: Any, _ rng: inout SplitMix64) -> Any {
        if let list = argument as? [Any] {
            return (0..<Int.random(in: 0...4, using: &rng)).map { _ in list.first.map { reroll($0, &rng) } ?? randomConstant(&rng, kind: 0) }
        }
        let kinds: [(Any.Type, Int)] = [(Int.self, 0), (Double.self, 1), (Float.self, 2), (String.self, 3), (Bool.self, 5),
                                        (Date.self, 6), (UUID.self, 7), (NSNull.self, 8)]
        if Bool.random(using: &rng), let kind = kinds.first(where: { $0.0 == type(of: argument) })?.1 {
            return randomConstant(&rng, kind: kind)
        }
        if argument is Data, Bool.random(using: &rng) { return Data(Self.strings.randomElement(using: &rng)!.utf8) }
        return randomConstant(&rng, kind: Int.random(in: 0..<9, using: &rng))
    }

    /// What a scan of a string index asks of each distinct value agrees with the reference,
    /// for every operator it answers, with and without [c]/[d], on Unicode strings and null.
    func testIndexValueTestsAgreeWithTheReference() throws {
        let name = Self.dog.property(named: "name")!
        let patterns = Self.strings + ["*", "?", "a*", "*b", "?ß*", "*É?"]
        for op in [ComparisonOperator.equal, .beginsWith, .endsWith, .contains, .like, .in] {
            for options in [StringOptions(), .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]] {
                for pattern in patterns {
                    let operand: ResolvedOperand = op == .in ? .values([.string(pattern), .string("ab")]) : .value(.string(pattern))
                    let c = ResolvedComparison(property: name, op: op, options: options, operand: operand)
                    let test = IndexValueTest.compile(c)
                    for text in Self.strings + [nil] {
                        let value: Value = text.map(Value.string) ?? .null
                        let expected = ReferenceEvaluator.compare(value, op, options, operand)
                        let got = text.map { t in Array(t.utf8).withUnsafeBytes { test($0) } } ?? test(nil)
                        XCTAssertEqual(got, expected, "\(c) on \(value)")
                    }
                }
            }
        }
    }

    private func randomRow(_ rng: inout SplitMix64) -> [Value] {
        func maybeNull(_ v: Value) -> Value { Int.random(in: 0..<4, using: &rng) == 0 ? .null : v }
        let doubles: [Double] = [0, -0.0, 1, 2.5, -3, .nan, .infinity, 1e300, 7]
        return [
            .int(Int64.random(in: -3...3, using: &rng)),
            .string(Self.strings.randomElement(using: &rng)!),
            .int([Int64.min, -1, 0, 1, 2, 3, Int64.max].randomElement(using: &rng)!),
            maybeNull(.double(doubles.randomElement(using: &rng)!)),
            .float(Float(doubles.randomElement(using: &rng)!)),
            .date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -2...2, using: &rng)))),
            maybeNull(.data(Data(Self.strings.randomElement(using: &rng)!.utf8))),
            maybeNull(.string(Self.strings.randomElement(using: &rng)!)),
            .bool(Bool.random(using: &rng)),
            maybeNull(.uuid(Bool.random(using: &rng) ? Self.tagA : UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))),
            .null,
            maybeNull(.int(Int64.random(in: -2...2, using: &rng))),
        ]
    }

    private func randomConstant(_ rng: inout SplitMix64, for property: String) -> Any {
        if Int.random(in: 0..<5, using: &rng) > 0 {
            let kind = ["id": 0, "age": 0, "score": 0, "weight": 1, "height": 2, "name": 3, "nickname": 3, "photo": 3,
                        "isGood": 5, "born": 6, "tag": 7][property]!
            if kind == 3, property == "photo" { return Data(Self.strings.randomElement(using: &rng)!.utf8) }
            return randomConstant(&rng, kind: kind)
        }
        return randomConstant(&rng, kind: Int.random(in: 0..<9, using: &rng))
    }

    private func randomConstant(_ rng: inout SplitMix64, kind: Int) -> Any {
        switch kind {
        case 0: return Int.random(in: -3...3, using: &rng)
        case 1: return [0.0, 2.5, -0.0, .nan, .infinity, 1.0].randomElement(using: &rng)!
        case 2: return Float(2.5)
        case 3, 4: return Self.strings.randomElement(using: &rng)!
        case 5: return Bool.random(using: &rng)
        case 6: return Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -2...2, using: &rng)))
        case 7: return Self.tagA
        default: return NSNull()
        }
    }

    private func randomPredicate(_ rng: inout SplitMix64, depth: Int) -> (String, [Any]) {
        if depth < 2, Int.random(in: 0..<3, using: &rng) == 0 {
            let (a, x) = randomPredicate(&rng, depth: depth + 1)
            let (b, y) = randomPredicate(&rng, depth: depth + 1)
            let joiner = ["AND", "OR"].randomElement(using: &rng)!
            let not = Bool.random(using: &rng) ? "NOT " : ""
            return ("\(not)(\(a) \(joiner) \(b))", x + y)
        }
        let properties = ["id", "name", "age", "weight", "height", "born", "photo", "nickname", "isGood", "tag", "score"]
        let property = properties.randomElement(using: &rng)!
        let stringy = ["name", "nickname", "photo"].contains(property)
        let op = (stringy ? ["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN"] : ["==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "IN", "BETWEEN"])
            .randomElement(using: &rng)!
        let options = stringy ? ["", "", "[c]", "[d]", "[cd]"].randomElement(using: &rng)! : ""
        switch op {
        case "IN":
            let list = (0..<Int.random(in: 0...4, using: &rng)).map { _ in randomConstant(&rng, for: property) }
            return ("\(property) IN\(options) %@", [list])
        case "BETWEEN":
            return ("\(property) BETWEEN {%@, %@}", [randomConstant(&rng, for: property), randomConstant(&rng, for: property)])
        default:
            if Int.random(in: 0..<6, using: &rng) == 0 {
                return ("\(property) \(op)\(options) \(properties.randomElement(using: &rng)!)", [])
            }
            return ("\(property) \(op)\(options) %@", [randomConstant(&rng, for: property)])
        }
    }
}
