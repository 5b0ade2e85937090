import Foundation
import StrataStorage

// Comparisons: a key path compared with an operand, object identity, and the folding of
// comparisons between two constants.

extension Resolver {
    /// Resolves one comparison, with the property moved to the left when it is written on the right.
    func resolve(_ node: ComparisonNode) throws(QueryError) -> ResolvedPredicate {
        if let region = try geoRegion(of: node) { return try geoWithin(node, region) }
        let lhs = try operand(node.lhs)
        let rhs = try operand(node.rhs)
        let c = ComparisonSite(node)
        switch (lhs, rhs) {
        case (.path(let k, _), _):
            return try compare(k, c, rhs, at: node.lhs.position)
        case (_, .path(let k, let position)):
            if c.op == .in {
                // `'Rex' IN dogs.name`, `%@ IN dogs`: ANY element equals the value.
                guard k.isToMany, c.quantifier == nil else {
                    throw QueryError("'IN' with a key path on the right needs a to-many relationship (a list or linking objects), but '\(k.text)' is not one",
                                     at: position)
                }
                var equal = c
                equal.op = .equal
                equal.quantifier = .any
                return try compare(k, equal, lhs, at: position)
            }
            guard !c.op.isStringOperator, c.op != .between else {
                throw QueryError("the left side of \(c.op.rawValue) must be a property", at: lhs.position)
            }
            var flipped = c
            flipped.op = c.op.mirrored
            return try compare(k, flipped, lhs, at: position)
        case (.object(_, let p, _), _), (.objects(_, let p, _), _):
            throw QueryError("an object argument must be compared with a link or a to-many relationship", at: p)
        default:
            if let q = c.quantifier {
                throw QueryError("\(q.rawValue) needs a key path through a to-many relationship (a list or linking objects)", at: node.lhs.position)
            }
            return .constant(try constantComparison(c, lhs, rhs))
        }
    }

    /// `path op[options] operand` for a key path on the left.
    func compare(_ k: ResolvedPath, _ c: ComparisonSite, _ rhs: Operand, at position: Int) throws(QueryError) -> ResolvedPredicate {
        if let q = c.quantifier, !k.isToMany {
            throw QueryError("\(q.rawValue) needs a key path through a to-many relationship (a list or linking objects), but '\(k.text)' is not one",
                             at: position)
        }
        if case .path(let other, let q) = rhs { return try compare(k, c, other, at: position, rhsAt: q) }
        var plain = c
        plain.quantifier = nil
        let quantifier = c.quantifier ?? .any
        switch k.end {
        case .property(let p):
            if k.steps.isEmpty { return try compare(p, plain, rhs) }
            return .path(k.steps, quantifier, try compare(p, plain, rhs, throughLinks: true))
        case .values(let element):
            // `ANY tags == 'x'`: the comparison on each element (ANY without a quantifier).
            return .path(k.steps, quantifier, try compare(element, plain, rhs))
        case .objects:
            let identity = try identity(k, plain, rhs)
            return k.steps.isEmpty ? identity : .path(k.steps, quantifier, identity)
        case .aggregate(let function):
            if let q = c.quantifier { throw oneValuePerObject(q, k.text, at: position) }
            let result = function.result
            guard case .comparison(let resolved) = try compare(result, plain, rhs) else {
                throw QueryError("cannot compare '\(k.text)' with this value", at: rhs.position)
            }
            return .aggregate(ResolvedAggregate(path: k.steps, function: function, filter: k.filter, variable: k.variable,
                                                op: resolved.op, operand: resolved.operand))
        }
    }

    /// "ANY cannot be used with 'dogs.@count', which is one value per object".
    func oneValuePerObject(_ q: Quantifier, _ text: String, at position: Int) -> QueryError {
        QueryError("\(q.rawValue) cannot be used with '\(text)', which is one value per object", at: position)
    }

    /// `objects == %@`, `objects != %@`, `objects IN %@`: object identity with managed objects
    /// of the same Realm (an unmanaged or deleted object equals nothing, as in Realm).
    func identity(_ k: ResolvedPath, _ c: ComparisonSite, _ rhs: Operand) throws(QueryError) -> ResolvedPredicate {
        let target = k.targetClass ?? scope?.schema.name ?? schema.name
        let objects: [ObjectArgument]
        switch (c.op, rhs) {
        case (.equal, .object(let o, _, _)), (.notEqual, .object(let o, _, _)): objects = [o]
        case (.contains, .object(let o, _, _)) where k.isToMany: objects = [o]  // `dogs CONTAINS %@`
        case (.in, .objects(let os, _, _)): objects = os
        default:
            throw QueryError("'\(k.text)' is \(k.steps.isEmpty ? "an object" : "a collection of objects"): it can only be compared with an object argument using '==', '!=' or IN",
                             at: rhs.position)
        }
        let keys = try objectKeys(objects, target: target, what: "'\(k.text)'", at: rhs)
        let match: ResolvedPredicate = keys.isEmpty ? .constant(false) : .identity(keys)
        return c.op == .notEqual ? .not(match) : match
    }

    /// The keys of object arguments, after checking their class and Realm.
    func objectKeys(_ objects: [ObjectArgument], target: String, what: String, at rhs: Operand) throws(QueryError) -> [ObjectKey] {
        for o in objects where o.className != target {
            throw QueryError("cannot compare \(what), which holds '\(target)' objects, with a '\(o.className)' object", at: rhs.position)
        }
        return try heldLinks(objects, what: what, at: rhs).compactMap { if case .typedLink(_, let key) = $0 { key } else { nil } }
    }

    /// The links to `objects` as a mixed value holds them (`Value.typedLink`: any class); an
    /// unmanaged or deleted object has none, so it matches nothing.
    func heldLinks(_ objects: [ObjectArgument], what: String, at rhs: Operand) throws(QueryError) -> [Value] {
        var links: [Value] = []
        for o in objects {
            guard !o.isFromOtherRealm else {
                throw QueryError("the object compared with \(what) must be from the Realm being queried", at: rhs.position)
            }
            if let key = o.key { links.append(.typedLink(o.className, key)) }
        }
        return links
    }

    /// Folds a comparison between two constants, after the same checks a property would get.
    func constantComparison(_ c: ComparisonSite, _ lhs: Operand, _ rhs: Operand) throws(QueryError) -> Bool {
        guard case .constant(let a, _, _) = lhs else { throw QueryError("a list cannot be on the left of \(c.op.rawValue)", at: lhs.position) }
        switch (c.op, rhs) {
        case (.in, .list(let items, _)):
            return items.contains { ValueSemantics.compare(a, .equal, $0.0, options: c.options) }
        case (.between, .list(let items, let p)):
            guard items.count == 2 else { throw QueryError("BETWEEN needs exactly two values, {low, high}", at: p) }
            return ValueSemantics.compare(a, .greaterOrEqual, items[0].0, options: [])
                && ValueSemantics.compare(a, .lessOrEqual, items[1].0, options: [])
        case (_, .constant(let b, _, _)):
            guard c.op != .in, c.op != .between else { throw QueryError("\(c.op.rawValue) needs a list {…} or an array argument", at: rhs.position) }
            return ValueSemantics.compare(a, c.op, b, options: c.options)
        default:
            throw QueryError("a list can only follow IN or BETWEEN", at: rhs.position)
        }
    }
}
