import Foundation
import StrataQuery
import StrataStorage

// Type-safe queries through relationships: `$0.owner.name == "Jane"`, `$0.owner == nil`,
// `$0.dogs.count > 1`, `$0.dogs.name == "Rex"` (ANY), `$0.dogs.age.sum > 3`,
// `($0.dogs.age > 2 && $0.dogs.name.starts(with: "B")).count > 0` (SUBQUERY). Each builds the
// same resolved predicate as the string form.

extension Query where T: OptionalProtocol {
    /// A property of the object a link points at: `$0.owner.name` (null when the link is nil).
    public subscript<V>(dynamicMember member: KeyPath<T.Wrapped, V>) -> Query<V> where T.Wrapped: ObjectBase {
        let (steps, link) = propertyPath
        guard link.type == .link, let target = link.linkTarget else {
            fatalError("Invalid query: '\(link.name)' is not a link, so it has no members")
        }
        let path = steps + [.link(link)]
        return Query<V>(self.member(member, of: T.Wrapped.self, in: context.classSchema(target), after: path), context)
    }
}

extension Query where T: RealmCollection {
    /// A property of the objects of a to-many relationship: `$0.dogs.name == "Rex"` holds
    /// when ANY of them matches.
    public subscript<V>(dynamicMember member: KeyPath<T.Element, V>) -> Query<V> where T.Element: ObjectBase {
        guard case .collection(let steps) = node, let target = steps.last?.targetClass else {
            fatalError("Invalid query: a member of a collection needs a to-many relationship, such as $0.dogs")
        }
        return Query<V>(self.member(member, of: T.Element.self, in: context.classSchema(target), after: steps), context)
    }

    /// The number of objects (`@count`): `$0.dogs.count > 1`.
    public var count: Query<Int> {
        guard case .collection(let steps) = node else { fatalError("Invalid query: count needs a to-many relationship, such as $0.dogs") }
        return Query<Int>(.aggregate(steps, .count, filter: nil), context)
    }

    /// Whether `value` is one of the objects (`%@ IN dogs`).
    public func contains(_ value: T.Element) -> Query<Bool> {
        guard let object = QueryValue.object(value) else { fatalError("Invalid query: contains(_:) needs an object") }
        return compare(.equal, objects: [object])
    }

    /// Whether any of `collection` is one of the objects (`ANY dogs IN %@`).
    public func containsAny<U: Sequence>(in collection: U) -> Query<Bool> where U.Element == T.Element {
        compare(.in, objects: collection.compactMap { QueryValue.object($0) })
    }

    /// `ANY collection == object`.
    public static func == (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        lhs.contains(rhs)
    }

    /// `ANY collection != object`: some object of the collection is not `rhs`.
    public static func != (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        guard let object = QueryValue.object(rhs) else { fatalError("Invalid query: != needs an object") }
        return lhs.compare(.notEqual, objects: [object])
    }
}

extension Query where T: _HasPersistedType, T.PersistedType: _QueryNumeric {
    /// `@min` of the property over a to-many relationship: `$0.dogs.age.min > 2`.
    public var min: Query { aggregate { .min($0) } }
    /// `@max` of the property over a to-many relationship.
    public var max: Query { aggregate { .max($0) } }
    /// `@avg` of the property over a to-many relationship (null when there are none).
    public var avg: Query { aggregate { .avg($0) } }
    /// `@sum` of the property over a to-many relationship (0 when there are none).
    public var sum: Query { aggregate { .sum($0) } }

    private func aggregate(_ function: (PropertySchema) -> AggregateFunction) -> Query {
        guard case .keyPath(let steps, let p) = node, steps.contains(where: \.isToMany) else {
            fatalError("Invalid query: min, max, avg and sum need a property of a to-many relationship, such as $0.dogs.age")
        }
        let f = function(p)
        if case .sum = f, !p.type.isNumeric { fatalError("Invalid query: sum needs a numeric property, but '\(p.name)' is a \(p.type)") }
        if case .avg = f, !p.type.isNumeric { fatalError("Invalid query: avg needs a numeric property, but '\(p.name)' is a \(p.type)") }
        return Query(.aggregate(steps, f, filter: nil), context)
    }
}

extension Query where T == Bool {
    /// Completes a SUBQUERY: `($0.dogs.age > 2 && $0.dogs.name.starts(with: "B")).count > 0`
    /// counts the objects of the relationship that meet every part of the condition at once.
    public var count: Query<Int> {
        guard case .predicate(let p) = node, let steps = Self.collectionSteps(p), let inner = Self.strip(p, steps) else {
            fatalError("Invalid query: count on a condition needs conditions on one to-many relationship, such as ($0.dogs.age > 2).count")
        }
        return Query<Int>(.aggregate(steps, .count, filter: inner), context)
    }

    /// The to-many steps of the first comparison through a relationship in `p`.
    private static func collectionSteps(_ p: ResolvedPredicate) -> [LinkStep]? {
        switch p {
        case .path(let steps, _, _): return steps.contains(where: \.isToMany) ? steps : nil
        case .and(let ps), .or(let ps): return ps.lazy.compactMap(collectionSteps).first
        case .not(let q): return collectionSteps(q)
        default: return nil
        }
    }

    /// `p` as a condition on each object of `steps`, or nil when a part of it is not about them.
    private static func strip(_ p: ResolvedPredicate, _ steps: [LinkStep]) -> ResolvedPredicate? {
        switch p {
        case .path(let s, .any, let inner) where s == steps: return inner
        case .and(let ps):
            var out: [ResolvedPredicate] = []
            for q in ps { guard let r = strip(q, steps) else { return nil }; out.append(r) }
            return .and(out)
        case .or(let ps):
            var out: [ResolvedPredicate] = []
            for q in ps { guard let r = strip(q, steps) else { return nil }; out.append(r) }
            return .or(out)
        case .not(let q): return strip(q, steps).map { .not($0) }
        case .constant: return p
        default: return nil
        }
    }
}
