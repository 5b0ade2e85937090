import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// Random graphs of people and pets (links, lists of objects and of values, inverse
/// relationships, nil links, repeats, nil elements, NaN) and random predicates through them:
/// quantifiers, collection operators, SUBQUERY over objects and over values, key paths on
/// both sides, object identity. The compiled predicate must agree with `ReferenceEvaluator`
/// on every object.
extension DifferentialTests {
    /// Person: id, name (indexed), age, nickname?, weight?, bestFriend → Person,
    /// dogs: [Pet], scores: [Int?], tags: [String]; `pets` are the pets whose owner it is.
    static let person = ClassSchema(name: "Person", properties: [
        PropertySchema(name: "id", type: .int, isPrimaryKey: true, id: 0),
        PropertySchema(name: "name", type: .string, isIndexed: true, id: 1),
        PropertySchema(name: "age", type: .int, id: 2),
        PropertySchema(name: "nickname", type: .string, isOptional: true, id: 3),
        PropertySchema(name: "weight", type: .double, isOptional: true, id: 4),
        PropertySchema(name: "bestFriend", type: .link, isOptional: true, id: 5, linkTarget: "Person"),
        PropertySchema(name: "dogs", type: .link, id: 6, linkTarget: "Pet", isList: true),
        PropertySchema(name: "scores", type: .int, isOptional: true, id: 7, isList: true),
        PropertySchema(name: "tags", type: .string, id: 8, isList: true),
    ])

    /// Pet: id, name, age, weight?, owner → Person; `walkers` are the people whose dogs list
    /// holds it.
    static let pet = ClassSchema(name: "Pet", properties: [
        PropertySchema(name: "id", type: .int, isPrimaryKey: true, id: 0),
        PropertySchema(name: "name", type: .string, id: 1),
        PropertySchema(name: "age", type: .int, id: 2),
        PropertySchema(name: "weight", type: .double, isOptional: true, id: 3),
        PropertySchema(name: "owner", type: .link, isOptional: true, id: 4, linkTarget: "Person"),
    ])

    static let graphLookup = SchemaLookup(
        classes: ["Person": person, "Pet": pet],
        inverses: ["Person": [InverseRelationship(name: "pets", originClass: "Pet", originProperty: "owner")],
                   "Pet": [InverseRelationship(name: "walkers", originClass: "Person", originProperty: "dogs")]])

    func testPredicatesThroughRelationshipsAgreeWithTheReference() {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        var rng = SplitMix64(seed: seed)
        var compiledCount = 0, cases = 0
        for round in 0..<40 {
            let graph = randomGraph(&rng)
            let reference = ReferenceEvaluator(graph: graph)
            for _ in 0..<100 {
                cases += 1
                let onPets = Int.random(in: 0..<4, using: &rng) == 0
                let (text, arguments) = onPets ? randomPetPredicate(&rng, graph, depth: 0) : randomPersonPredicate(&rng, graph, depth: 0)
                let schema = onPets ? Self.pet : Self.person
                let q: CompiledQuery
                do { q = try compileQuery(text, arguments: arguments, schema: schema, lookup: Self.graphLookup) } catch { continue }
                compiledCount += 1
                let reader = LinkReader(graph.source(q.linkedClasses))
                for key in graph.keys(schema.name) {
                    let fast = q.matches(key, graph.row(schema.name, key)!, reader)
                    let slow = reference.holds(q.query.predicate, on: reference.object(schema.name, key)!)
                    if fast != slow {
                        XCTFail("seed \(seed) round \(round): \(text) \(arguments) resolved as \(q) on \(schema.name) \(key): compiled \(fast), reference \(slow)")
                        return
                    }
                }
            }
        }
        XCTAssertGreaterThan(compiledCount, cases * 3 / 4, "seed \(seed)")
    }

    // MARK: Graphs

    private static let names = ["Ann", "ann", "Bo", "Bö", "bo", "", "Rex", "rex", "é", "E"]

    private func randomGraph(_ rng: inout SplitMix64) -> TestGraph {
        let graph = TestGraph(Self.graphLookup)
        let people = Int.random(in: 1...6, using: &rng), pets = Int.random(in: 0...6, using: &rng)
        func maybe(_ v: Value) -> Value { Int.random(in: 0..<4, using: &rng) == 0 ? .null : v }
        func weight() -> Value { maybe(.double([0, 1.5, -2, 3.5, 1.5, .nan].randomElement(using: &rng)!)) }
        func person() -> Value { maybe(.link(ObjectKey(Int.random(in: 1...people, using: &rng)))) }
        for key in 1...people {
            graph.add("Person", ObjectKey(key), [
                .int(Int64(key)), .string(Self.names.randomElement(using: &rng)!), .int(Int64.random(in: -2...6, using: &rng)),
                maybe(.string(Self.names.randomElement(using: &rng)!)), weight(), person(), .null, .null, .null,
            ])
            let dogs = pets == 0 ? [] : (0..<Int.random(in: 0...4, using: &rng)).map { _ in Value.link(ObjectKey(Int.random(in: 1...pets, using: &rng))) }
            let scores = (0..<Int.random(in: 0...4, using: &rng)).map { _ in maybe(.int(Int64.random(in: -1...3, using: &rng))) }
            let tags = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Value.string(["a", "A", "b", "é", "E", ""].randomElement(using: &rng)!) }
            for (id, elements) in [(6, dogs), (7, scores), (8, tags)] {
                graph.setList("Person", Self.person.properties[id], ObjectKey(key), elements)
            }
        }
        for key in stride(from: 1, through: pets, by: 1) {
            graph.add("Pet", ObjectKey(key), [
                .int(Int64(key)), .string(Self.names.randomElement(using: &rng)!), .int(Int64.random(in: 0...6, using: &rng)), weight(), person(),
            ])
        }
        return graph
    }

    // MARK: Predicates

    private func pick<T>(_ items: [T], _ rng: inout SplitMix64) -> T { items.randomElement(using: &rng)! }

    private func quantifier(_ rng: inout SplitMix64) -> String { pick(["", "ANY ", "ALL ", "NONE ", "SOME "], &rng) }
    private func numberOperator(_ rng: inout SplitMix64) -> String { pick(["==", "!=", "<", "<=", ">", ">="], &rng) }
    private func stringOperator(_ rng: inout SplitMix64) -> String {
        pick(["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "<", ">="], &rng) + pick(["", "", "[c]", "[d]", "[cd]"], &rng)
    }
    private func int(_ rng: inout SplitMix64) -> String { String(Int.random(in: -2...6, using: &rng)) }
    private func double(_ rng: inout SplitMix64) -> String { pick(["0", "1.5", "-2", "3.5", "nan", "2.25"], &rng) }
    private func string(_ rng: inout SplitMix64) -> String { "'" + pick(Self.names + ["a", "A", "b", "*", "?e*"], &rng) + "'" }

    /// A random condition on a person: comparisons of its own properties, through its best
    /// friend, over its dogs, pets (inverse of `owner`), scores and tags, collection
    /// operators, SUBQUERY, key paths on both sides and object identity, under AND/OR/NOT.
    private func randomPersonPredicate(_ rng: inout SplitMix64, _ graph: TestGraph, depth: Int) -> (String, [Any]) {
        if depth < 2, Int.random(in: 0..<3, using: &rng) == 0 {
            let (a, x) = randomPersonPredicate(&rng, graph, depth: depth + 1), (b, y) = randomPersonPredicate(&rng, graph, depth: depth + 1)
            return ("\(pick(["", "NOT "], &rng))(\(a) \(pick(["AND", "OR"], &rng)) \(b))", x + y)
        }
        let q = quantifier(&rng), n = numberOperator(&rng), s = stringOperator(&rng)
        switch Int.random(in: 0..<49, using: &rng) {
        case 0: return ("age \(n) \(int(&rng))", [])
        case 1: return ("name \(s) \(string(&rng))", [])
        case 2: return ("bestFriend.age \(n) \(int(&rng))", [])
        case 3: return ("bestFriend.nickname \(s) \(string(&rng))", [])
        case 4: return ("bestFriend.bestFriend.weight \(n) \(double(&rng))", [])
        case 5: return (pick(["bestFriend == nil", "bestFriend.nickname == nil", "bestFriend.bestFriend != nil"], &rng), [])
        case 6: return ("\(q)dogs.age \(n) \(int(&rng))", [])
        case 7: return ("\(q)dogs.name \(s) \(string(&rng))", [])
        case 8: return ("\(q)dogs.weight BETWEEN {\(double(&rng)), \(double(&rng))}", [])
        case 9: return ("\(q)pets.age IN {\(int(&rng)), \(int(&rng))}", [])
        case 10: return ("\(q)@links.Pet.owner.weight \(n) \(double(&rng))", [])
        case 11: return ("\(q)bestFriend.dogs.age \(n) \(int(&rng))", [])
        case 12: return ("\(q)dogs.owner.age \(n) \(int(&rng))", [])
        case 13: return ("\(q)dogs.walkers.name \(s) \(string(&rng))", [])
        case 14: return ("\(q)scores \(n) \(int(&rng))", [])
        case 15: return ("\(q)scores \(pick(["==", "!="], &rng)) nil", [])
        case 16: return ("\(q)tags \(s) \(string(&rng))", [])
        case 17: return ("\(int(&rng)) IN scores", [])
        case 18: return ("\(string(&rng)) IN tags", [])
        case 19: return ("\(pick(["dogs", "pets", "bestFriend.dogs", "scores", "tags", "@links.Pet.owner"], &rng)).@count \(n) \(Int.random(in: 0...3, using: &rng))", [])
        case 20: return ("dogs.\(pick(["@sum", "@avg", "@min", "@max"], &rng)).\(pick(["age", "weight"], &rng)) \(n) \(double(&rng))", [])
        case 21: return ("pets.@max.age == nil", [])
        case 22: return ("scores.\(pick(["@sum", "@avg", "@min", "@max"], &rng)) \(n) \(int(&rng))", [])
        case 23: return ("SUBQUERY(dogs, $d, \(petLeaf(&rng, "$d."))).@count \(n) \(Int.random(in: 0...2, using: &rng))", [])
        case 24: return ("SUBQUERY(pets, $p, \(petLeaf(&rng, "$p.")) AND \(petLeaf(&rng, "$p."))).@count \(n) 1", [])
        case 25: return ("SUBQUERY(scores, $s, $s \(n) \(int(&rng)) \(pick(["AND", "OR"], &rng)) $s \(numberOperator(&rng)) \(int(&rng))).@count \(numberOperator(&rng)) \(Int.random(in: 0...2, using: &rng))", [])
        case 26: return ("SUBQUERY(tags, $t, $t \(s) \(string(&rng))).@count > 0", [])
        case 27: return ("SUBQUERY(scores, $s, $s == nil).@count == scores.@count", [])
        case 28: return ("bestFriend.age \(n) age", [])
        case 29: return ("age \(n) bestFriend.bestFriend.age", [])
        case 30: return ("bestFriend.name \(s) name", [])
        case 31: return ("nickname \(s) bestFriend.name", [])
        case 32: return ("bestFriend.weight \(n) weight", [])
        case 33: return ("\(q)dogs.age \(n) age", [])
        case 34: return ("age \(n) dogs.age", [])
        case 35: return ("\(q)pets.weight \(n) weight", [])
        case 36: return ("\(q)scores \(n) age", [])
        case 37: return ("age IN scores", [])
        case 38: return ("name IN\(pick(["", "[c]", "[cd]"], &rng)) tags", [])
        case 39: return ("\(q)tags \(s) bestFriend.name", [])
        case 40: return ("dogs.@count \(n) scores.@count", [])
        case 41: return ("scores.\(pick(["@max", "@min", "@sum", "@avg"], &rng)) \(n) age", [])
        case 42: return ("dogs.@sum.age \(n) pets.@max.age", [])
        case 43: return ("SUBQUERY(dogs, $d, $d.age \(n) $d.owner.age).@count \(numberOperator(&rng)) \(Int.random(in: 0...2, using: &rng))", [])
        case 44: return ("SUBQUERY(dogs, $d, $d.age > 2).@count == dogs.@count", [])
        case 45: return ("bestFriend == %@", [personArgument(&rng, graph)])
        case 46: return ("\(q)dogs == %@", [petArgument(&rng, graph)])
        case 47: return ("%@ IN pets", [petArgument(&rng, graph)])
        default: return ("\(q)dogs IN %@", [[petArgument(&rng, graph), petArgument(&rng, graph)]])
        }
    }

    /// A random condition on a pet, as the root of a query.
    private func randomPetPredicate(_ rng: inout SplitMix64, _ graph: TestGraph, depth: Int) -> (String, [Any]) {
        if depth < 2, Int.random(in: 0..<3, using: &rng) == 0 {
            let (a, x) = randomPetPredicate(&rng, graph, depth: depth + 1), (b, y) = randomPetPredicate(&rng, graph, depth: depth + 1)
            return ("\(pick(["", "NOT "], &rng))(\(a) \(pick(["AND", "OR"], &rng)) \(b))", x + y)
        }
        let q = quantifier(&rng), n = numberOperator(&rng), s = stringOperator(&rng)
        switch Int.random(in: 0..<11, using: &rng) {
        case 0: return (petLeaf(&rng, ""), [])
        case 1: return ("owner.age \(n) age", [])
        case 2: return ("age \(n) owner.bestFriend.age", [])
        case 3: return ("owner.name \(s) name", [])
        case 4: return ("\(q)walkers.age \(n) age", [])
        case 5: return ("\(q)owner.dogs.age \(n) age", [])
        case 6: return ("\(q)owner.scores \(n) age", [])
        case 7: return ("walkers.@count \(n) owner.dogs.@count", [])
        case 8: return ("\(q)walkers.tags \(s) name", [])
        case 9: return ("owner == %@", [personArgument(&rng, graph)])
        default: return ("owner.bestFriend == owner", [])
        }
    }

    /// One comparison of a pet's own properties or through its owner, with `prefix` (`$d.`).
    private func petLeaf(_ rng: inout SplitMix64, _ prefix: String) -> String {
        let n = numberOperator(&rng)
        return pick([
            "\(prefix)age \(n) \(int(&rng))", "\(prefix)name \(stringOperator(&rng)) \(string(&rng))",
            "\(prefix)weight \(n) \(double(&rng))", "\(prefix)weight == nil", "\(prefix)owner.age \(n) \(int(&rng))",
            "\(prefix)owner == nil", "\(prefix)age \(n) \(prefix)weight", "\(quantifier(&rng))\(prefix)walkers.age \(n) \(int(&rng))",
        ], &rng)
    }

    /// A person object argument: one of the graph's, or an unmanaged one (equal to none).
    private func personArgument(_ rng: inout SplitMix64, _ graph: TestGraph) -> ObjectArgument {
        ObjectArgument(className: "Person", key: Bool.random(using: &rng) ? graph.keys("Person").randomElement(using: &rng) : nil)
    }

    /// A pet object argument: one of the graph's, or an unmanaged one (equal to none).
    private func petArgument(_ rng: inout SplitMix64, _ graph: TestGraph) -> ObjectArgument {
        ObjectArgument(className: "Pet", key: Int.random(in: 0..<4, using: &rng) > 0 ? graph.keys("Pet").randomElement(using: &rng) : nil)
    }
}
