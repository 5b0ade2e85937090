import Foundation
import StrataStorage

/// A query bound to a class: names replaced by `PropertySchema`s, arguments by values, types
/// checked. This is the "what" that the evaluator compiles and the planner inspects.
package struct ResolvedQuery: Equatable, Sendable, CustomStringConvertible {
    /// The filter condition.
    package var predicate: ResolvedPredicate
    /// The `SORT/DISTINCT/LIMIT` suffixes in the order written.
    package var suffixes: [ResolvedSuffix]

    /// A query from its parts (also used by the object layer to add sort and distinct steps).
    package init(predicate: ResolvedPredicate, suffixes: [ResolvedSuffix]) {
        self.predicate = predicate
        self.suffixes = suffixes
    }

    /// Query text with names and values filled in.
    package var description: String {
        ([predicate.description] + suffixes.map(\.description)).joined(separator: " ")
    }
}

/// A type-checked condition.
package indirect enum ResolvedPredicate: Equatable, Sendable, CustomStringConvertible {
    /// Always true or always false (TRUEPREDICATE, or a comparison between constants).
    case constant(Bool)
    /// Every operand holds.
    case and([ResolvedPredicate])
    /// At least one operand holds.
    case or([ResolvedPredicate])
    /// The operand does not hold.
    case not(ResolvedPredicate)
    /// A comparison whose left side is a property.
    case comparison(ResolvedComparison)
    /// The condition holds for the object(s) reached through the steps: for a path of
    /// to-one links, on the one target (a nil link gives the condition a null object:
    /// every property reads null); through a to-many step, for ANY, ALL or NONE of them.
    case path([LinkStep], Quantifier, ResolvedPredicate)
    /// A collection operator (`@count`, `@sum.age`, `SUBQUERY(…).@count`) compared with a value.
    case aggregate(ResolvedAggregate)
    /// The object itself is one of these (object identity, inside a path: `ANY dogs == %@`).
    case identity([ObjectKey])
    /// Two key paths compared, at least one through a relationship or a collection operator
    /// (`owner.age > age`, `ANY dogs.age > age`, `dogs.@count > age`).
    case keyPaths(KeyPathComparison)
    /// The object (an embedded one reached by a link) holds a point in a region
    /// (`location GEOWITHIN %@`).
    case geoWithin(GeoWithin)

    /// Query text.
    package var description: String {
        switch self {
        case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let ps): return "(" + ps.map(\.description).joined(separator: " AND ") + ")"
        case .or(let ps): return "(" + ps.map(\.description).joined(separator: " OR ") + ")"
        case .not(let p): return "NOT \(p)"
        case .comparison(let c): return c.description
        case .path, .identity, .geoWithin: return description(prefix: "")
        case .aggregate(let a): return a.description
        case .keyPaths(let k): return k.description
        }
    }

    /// The ids of every property the predicate reads from the object's own row.
    package var propertyIDs: Set<Int> {
        switch self {
        case .constant: return []
        case .and(let ps), .or(let ps): return ps.reduce(into: Set<Int>()) { $0.formUnion($1.propertyIDs) }
        case .not(let p): return p.propertyIDs
        case .comparison(let c):
            if case .property(let other) = c.operand { return [c.property.id, other.id] }
            return [c.property.id]
        case .path(let steps, _, _):
            if case .link(let p)? = steps.first { return [p.id] }
            return []
        case .aggregate(let a):
            if case .link(let p)? = a.path.first { return [p.id] }
            return []
        case .identity, .geoWithin: return []
        case .keyPaths(let k): return Set([k.lhs.rowProperty, k.rhs.rowProperty].compactMap { $0?.id })
        }
    }
}

/// `property op[options] operand`, normalised so the property is on the left.
package struct ResolvedComparison: Equatable, Sendable, CustomStringConvertible {
    /// The property read from the row (later: the end of a key path through links).
    package var property: PropertySchema
    /// The operator.
    package var op: ComparisonOperator
    /// `[c]`/`[d]`, only on string properties.
    package var options: StringOptions
    /// What the property is compared with.
    package var operand: ResolvedOperand

    /// Query text.
    package var description: String { "\(property.name) \(op.rawValue)\(options) \(operand)" }
}

/// The right side of a resolved comparison.
package enum ResolvedOperand: Equatable, Sendable, CustomStringConvertible {
    /// One constant, already converted to the property's type where that is exact.
    case value(Value)
    /// The constants of IN (any number) or BETWEEN (exactly two: low, high).
    case values([Value])
    /// Another property of the same object.
    case property(PropertySchema)

    /// Query text.
    package var description: String {
        switch self {
        case .value(let v): literalText(v)
        case .values(let vs): "{" + vs.map(literalText).joined(separator: ", ") + "}"
        case .property(let p): p.name
        }
    }
}

/// A resolved `SORT`, `DISTINCT` or `LIMIT`.
package enum ResolvedSuffix: Equatable, Sendable, CustomStringConvertible {
    /// Sort by these properties in order (true: ascending).
    case sort([SortKey])
    /// Keep the first object of each distinct combination of these properties (an object
    /// with a nil link on the way to one of them is dropped, as in realm-core).
    case distinct([PropertyPath])
    /// Keep at most this many objects.
    case limit(Int)

    /// Whether the step keeps the objects it is given (it only orders them): an aggregate
    /// may skip it.
    package var keepsMembers: Bool {
        if case .sort = self { true } else { false }
    }

    /// Query text.
    package var description: String {
        switch self {
        case .sort(let keys): "SORT(" + keys.map { "\($0.keyPath) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ") + ")"
        case .distinct(let ps): "DISTINCT(" + ps.map(\.keyPath).joined(separator: ", ") + ")"
        case .limit(let n): "LIMIT(\(n))"
        }
    }
}

/// A property of the object, or of an object reached through to-one links (`owner.name`):
/// what a SORT or DISTINCT key reads.
package struct PropertyPath: Equatable, Sendable {
    /// The property read (of the class at the end of `path`).
    package var property: PropertySchema
    /// The to-one links followed to reach the property.
    package var path: [LinkStep]

    /// A key from its parts.
    package init(property: PropertySchema, path: [LinkStep] = []) {
        self.property = property
        self.path = path
    }

    /// The key path as text: `name`, `owner.name`.
    package var keyPath: String { path.isEmpty ? property.name : pathText(path) + "." + property.name }
}

/// One sort key of a `SORT(...)` suffix.
package struct SortKey: Equatable, Sendable {
    /// What is sorted by; a nil link on the way sorts after every object ascending (before
    /// them descending), as in realm-core.
    package var target: PropertyPath
    /// Ascending (nil first) or descending.
    package var ascending: Bool

    /// Creates a sort key.
    package init(property: PropertySchema, ascending: Bool, path: [LinkStep] = []) {
        target = PropertyPath(property: property, path: path)
        self.ascending = ascending
    }

    /// The property sorted by.
    package var property: PropertySchema { target.property }
    /// The to-one links followed to reach it.
    package var path: [LinkStep] { target.path }
    /// The key path as text: `name`, `owner.name`.
    package var keyPath: String { target.keyPath }
}
