import Foundation
import StrataStorage
@testable import StrataQuery

/// The naive evaluator the compiled predicates are checked against: plain Swift over a
/// `TestGraph`'s values, following links, lists and backlinks by looking them up, with
/// `ValueSemantics` only for one value compared with another.
struct ReferenceEvaluator {
    let graph: TestGraph

    /// One object as the reference reads it. The null object (the target of a nil link) has
    /// no key: every property reads null and it reaches nothing.
    struct Object {
        let className: String
        let key: ObjectKey?
        let values: [Value]
    }

    /// The object `key` of `className`, or nil when there is none.
    func object(_ className: String, _ key: ObjectKey) -> Object? {
        graph.rows[className]?[key].map { Object(className: className, key: key, values: $0) }
    }

    /// Whether `predicate` holds for `object`.
    func holds(_ predicate: ResolvedPredicate, on object: Object) -> Bool {
        switch predicate {
        case .constant(let b): return b
        case .and(let ps): return ps.allSatisfy { holds($0, on: object) }
        case .or(let ps): return ps.contains { holds($0, on: object) }
        case .not(let p): return !holds(p, on: object)
        case .comparison(let c):
            if case .property(let q) = c.operand {
                return ValueSemantics.compare(value(object, c.property), c.op, value(object, q), options: c.options)
            }
            return Self.compare(value(object, c.property), c.op, c.options, c.operand)
        case .identity(let keys):
            return object.key.map(keys.contains) ?? false
        case .path(let steps, let q, let inner):
            if steps.last?.isValueList == true {
                return quantify(q, elements(steps, from: object).map { holds(inner, onElement: $0) })
            }
            if !steps.contains(where: \.isToMany) { return holds(inner, on: follow(steps, from: object)) }
            return quantify(q, reach(steps, from: object).map { holds(inner, on: $0) })
        case .aggregate(let a):
            return Self.compare(aggregate(a.aggregate, of: object), a.op, [], a.operand)
        case .keyPaths(let k):
            let lhs = values(k.lhs, of: object), rhs = values(k.rhs, of: object)
            if k.lhs.isMultiple { return quantify(k.quantifier, lhs.map { ValueSemantics.compare($0, k.op, rhs[0], options: k.options) }) }
            if k.rhs.isMultiple { return quantify(k.quantifier, rhs.map { ValueSemantics.compare(lhs[0], k.op, $0, options: k.options) }) }
            return ValueSemantics.compare(lhs[0], k.op, rhs[0], options: k.options)
        case .geoWithin(let g):
            guard let key = object.key else { return false }
            return GeoWithin.matches(graph.list(g.owner, g.coordinates, key), type: value(object, g.type), g.region.contains)
        }
    }

    /// A condition on one element of a list of values: its comparisons read the element.
    private func holds(_ predicate: ResolvedPredicate, onElement v: Value) -> Bool {
        switch predicate {
        case .constant(let b): return b
        case .and(let ps): return ps.allSatisfy { holds($0, onElement: v) }
        case .or(let ps): return ps.contains { holds($0, onElement: v) }
        case .not(let p): return !holds(p, onElement: v)
        case .comparison(let c):
            if case .property = c.operand { return ValueSemantics.compare(v, c.op, v, options: c.options) }
            return Self.compare(v, c.op, c.options, c.operand)
        default: preconditionFailure("an element condition holds comparisons only: \(predicate)")
        }
    }

    /// `lhs op operand` for constant operands.
    static func compare(_ lhs: Value, _ op: ComparisonOperator, _ options: StringOptions, _ operand: ResolvedOperand) -> Bool {
        switch operand {
        case .value(let v): return ValueSemantics.compare(lhs, op, v, options: options)
        case .property: preconditionFailure("a property operand is compared by the caller")
        case .values(let vs) where op == .between:
            return ValueSemantics.compare(lhs, .greaterOrEqual, vs[0], options: []) && ValueSemantics.compare(lhs, .lessOrEqual, vs[1], options: [])
        case .values(let vs): return vs.contains { ValueSemantics.compare(lhs, .equal, $0, options: options) }
        }
    }

    private func quantify(_ q: Quantifier, _ results: [Bool]) -> Bool {
        switch q {
        case .any: results.contains(true)
        case .all: results.allSatisfy { $0 }
        case .none: !results.contains(true)
        }
    }

    /// A property's value: null on the null object and in an absent slot of an optional.
    private func value(_ object: Object, _ p: PropertySchema) -> Value {
        object.key == nil || p.id >= object.values.count ? .null : object.values[p.id]
    }

    /// The objects reached through `steps`, in order, repeats included.
    private func reach(_ steps: some Collection<LinkStep>, from object: Object) -> [Object] {
        var current = [object]
        for step in steps {
            var next: [Object] = []
            for o in current {
                guard let key = o.key else { continue }
                switch step {
                case .link(let p):
                    if case .link(let k) = value(o, p), let t = self.object(step.targetClass, k) { next.append(t) }
                case .backlinks(let origin, let p, _):
                    next += graph.origins(origin, p, key).compactMap { self.object(origin, $0) }
                case .list(let owner, let p):
                    for case .link(let k) in graph.list(owner, p, key) { if let t = self.object(step.targetClass, k) { next.append(t) } }
                }
            }
            current = next
        }
        return current
    }

    /// The one object reached through to-one links, or the null object when a link is nil.
    private func follow(_ steps: [LinkStep], from object: Object) -> Object {
        reach(steps, from: object).first ?? Object(className: steps.last?.targetClass ?? "", key: nil, values: [])
    }

    /// The elements of the lists of values reached through `steps` (the last is the list).
    private func elements(_ steps: [LinkStep], from object: Object) -> [Value] {
        guard case .list(let owner, let p)? = steps.last else { return [] }
        return reach(steps.dropLast(), from: object).flatMap { $0.key.map { graph.list(owner, p, $0) } ?? [] }
    }

    /// The values one side of a key path comparison reads.
    private func values(_ operand: KeyPathOperand, of object: Object) -> [Value] {
        switch operand {
        case .aggregate(let a): return [aggregate(a, of: object)]
        case .property(let steps, _) where steps.last?.isValueList == true: return elements(steps, from: object)
        case .property(let steps, let p) where steps.contains(where: \.isToMany): return reach(steps, from: object).map { value($0, p) }
        case .property(let steps, let p): return [value(follow(steps, from: object), p)]
        }
    }

    /// A collection operator's value, computed from scratch.
    private func aggregate(_ a: CollectionAggregate, of object: Object) -> Value {
        let all: [Value]
        var count: Int
        if a.path.last?.isValueList == true {
            let elements = elements(a.path, from: object)
            if let filter = a.filter { return .int(Int64(elements.filter { holds(filter, onElement: $0) }.count)) }
            (all, count) = (elements, elements.count)
        } else {
            let objects = reach(a.path, from: object).filter { o in a.filter.map { holds($0, on: o) } ?? true }
            all = a.function.property.map { p in objects.map { value($0, p) } } ?? []
            count = objects.count
        }
        let present = all.filter { !$0.isNull }
        switch a.function {
        case .count:
            return .int(Int64(count))
        case .sum(let p):
            if p.type == .int { return .int(present.reduce(0) { $0 + Int64($1.numeric!) }) }
            let total = present.reduce(0.0) { $0 + $1.numeric! }
            return p.type == .float ? .float(Float(total)) : .double(total)
        case .avg(let p):
            count = present.count
            guard count > 0 else { return .null }
            let mean = present.reduce(0.0) { $0 + $1.numeric! } / Double(count)
            return p.type == .float ? .float(Float(mean)) : .double(mean)
        case .min:
            return present.reduce(Value.null) { $0.isNull || Value.compare($1, $0) < 0 ? $1 : $0 }
        case .max:
            return present.reduce(Value.null) { $0.isNull || Value.compare($1, $0) > 0 ? $1 : $0 }
        }
    }
}
