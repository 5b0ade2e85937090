import Foundation
import StrataQuery
import StrataStorage

// Type-safe queries through relationships: `$0.owner.name == "Jane"`, `$0.owner == nil`,
// `$0.dogs.count > 1`, `$0.dogs.name == "Rex"` (ANY), `$0.dogs.age.sum > 3`,
// `($0.dogs.age > 2 && $0.dogs.name.starts(with: "B")).count > 0` (SUBQUERY), and on lists of
// values `$0.tags.contains("x")`, `$0.scores > 3` (ANY), `$0.scores.sum`. Each builds the
// same resolved predicate as the string form.

extension Query where T: OptionalProtocol {
    /// A property of the object a link points at: `$0.owner.name` (null when the link is nil).
    public subscript<V>(dynamicMember member: KeyPath<T.Wrapped, V>) -> Query<V> where T.Wrapped: ObjectBase {
        memberOfObject(member, of: T.Wrapped.self)
    }
}

extension Query {
    /// A property of the object this expression stands for: the object itself (a query on a
    /// map's objects), the object a map holds under a key (`$0.pets["rex"].name`), or the
    /// object a link points at (`$0.owner.name`, `$0.address.persistableValue.city`).
    func memberOfObject<Target: ObjectBase, V>(_ member: KeyPath<Target, V>, of type: Target.Type) -> Query<V> {
        let name = memberName(member, of: type)
        if case .collection(let steps) = node, let target = steps.last?.targetClass {
            let node = self.member(member, of: type, in: context.classSchema(target), after: steps)
            return Query<V>(node, context, format: format.appending(name, collection: node.isCollection))
        }
        if case .object = node {
            let node = self.member(member, of: type, in: context.schema, after: [])
            return Query<V>(node, context, format: format.appending(name, collection: node.isCollection))
        }
        let (steps, link) = propertyPath
        guard link.type == .link, let target = link.linkTarget else {
            fatalError("Invalid query: '\(link.name)' is not a link, so it has no members")
        }
        let path = steps + [.link(link)]
        let node = self.member(member, of: type, in: context.classSchema(target), after: path)
        return Query<V>(node, context, format: format.appending(name, collection: node.isCollection))
    }
}

extension Query where T: RealmCollection {
    /// A property of the objects of a to-many relationship: `$0.dogs.name == "Rex"` holds
    /// when ANY of them matches.
    public subscript<V>(dynamicMember member: KeyPath<T.Element, V>) -> Query<V> where T.Element: ObjectBase {
        guard case .collection(let steps) = node, let target = steps.last?.targetClass else {
            fatalError("Invalid query: a member of a collection needs a to-many relationship, such as $0.dogs")
        }
        let node = self.member(member, of: T.Element.self, in: context.classSchema(target), after: steps)
        return Query<V>(node, context, format: format.appending(memberName(member, of: T.Element.self), collection: node.isCollection))
    }

    /// The number of objects (`@count`): `$0.dogs.count > 1`.
    public var count: Query<Int> {
        guard case .collection(let steps) = node else { fatalError("Invalid query: count needs a to-many relationship, such as $0.dogs") }
        return Query<Int>(.aggregate(steps, .count, filter: nil), context, format: format.wholeCollection(appending: "@count"))
    }

    /// Whether `value` is one of the objects (`%@ IN dogs`), or one of the values of a list
    /// of values (`'x' IN tags`).
    public func contains(_ value: T.Element) -> Query<Bool> {
        let format = QueryFormat.comparison("IN", .constant(value), self.format.wholeCollection(), options: [])
        if let object = QueryValue.object(value) {
            return compare(.equal, objects: [object], memberwise: QueryValue.isMapped(value)).formatted(format)
        }
        return elements(.equal, .value(QueryValue.of(value))).formatted(format)
    }

    /// Whether any of `collection` is one of the objects (`ANY dogs IN %@`), or of the values
    /// (`ANY tags IN {…}`).
    public func containsAny<U: Sequence>(in collection: U) -> Query<Bool> where U.Element == T.Element {
        let items = Array(collection)
        let format = QueryFormat.comparison("IN", self.format, .constant(items), options: [])
        if isValueList { return elements(.in, .values(items.map { QueryValue.of($0) })).formatted(format) }
        return compare(.in, objects: items.compactMap { QueryValue.object($0) }).formatted(format)
    }

    /// `ANY collection == element`.
    public static func == (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        lhs.contains(rhs).formatted(.comparison("==", lhs.format, .constant(rhs), options: []))
    }

    /// `ANY collection != element`: some element of the collection is not `rhs`.
    public static func != (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> {
        let format = QueryFormat.comparison("!=", lhs.format, .constant(rhs), options: [])
        if lhs.isValueList { return lhs.elements(.notEqual, .value(QueryValue.of(rhs))).formatted(format) }
        guard let object = QueryValue.object(rhs) else { fatalError("Invalid query: != needs an object") }
        return lhs.compare(.notEqual, objects: [object], memberwise: QueryValue.isMapped(rhs)).formatted(format)
    }

}

extension Query {
    /// Whether the expression is the values of a list, set or map of values (`$0.tags`).
    var isValueList: Bool {
        if case .collection(let steps) = node { return steps.last?.isValueList ?? false }
        return false
    }

    /// `ANY element op operand` over a list of values.
    func elements(_ op: ComparisonOperator, _ operand: ResolvedOperand, format: QueryFormat? = nil) -> Query<Bool> {
        guard isValueList else { fatalError("Invalid query: a collection of objects can only be compared with objects") }
        return Query<Bool>(.predicate(condition(op, operand)), context, format: format ?? self.format)
    }

    /// A collection operator over the values of a list of values (`$0.scores.sum`).
    func valueAggregate<E>(_ name: String, _ function: (PropertySchema) -> AggregateFunction) -> Query<E> {
        guard case .collection(let steps) = node, let element = steps.last?.element else {
            fatalError("Invalid query: min, max, avg and sum on a collection need a list of values, such as $0.scores")
        }
        let f = function(element)
        switch f {
        case .sum, .avg:
            if !element.type.isNumeric { fatalError("Invalid query: sum and avg need numbers, but '\(element.name)' holds \(element.type) values") }
        default: break
        }
        return Query<E>(.aggregate(steps, f, filter: nil), context, format: format.wholeCollection(appending: name))
    }
}

extension Query {
    /// The elements of a list of values compared with `value` (ANY), written as RealmSwift
    /// writes it: `(ANY list op %@)`.
    func elements<E>(_ op: ComparisonOperator, _ value: E) -> Query<Bool> {
        elements(op, .value(QueryValue.of(value)), format: .comparison(op.rawValue, format, .constant(value), options: []))
    }
}

extension Query where T: RealmCollection, T.Element.PersistedType: _QueryNumeric {
    /// `ANY values > value`: some element of the list of values is greater.
    public static func > (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> { lhs.elements(.greater, rhs) }
    /// `ANY values >= value`.
    public static func >= (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> { lhs.elements(.greaterOrEqual, rhs) }
    /// `ANY values < value`.
    public static func < (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> { lhs.elements(.less, rhs) }
    /// `ANY values <= value`.
    public static func <= (_ lhs: Query<T>, _ rhs: T.Element) -> Query<Bool> { lhs.elements(.lessOrEqual, rhs) }

    /// `values.@min` (null for an empty list).
    public var min: Query<T.Element> { valueAggregate("@min") { .min($0) } }
    /// `values.@max` (null for an empty list).
    public var max: Query<T.Element> { valueAggregate("@max") { .max($0) } }
    /// `values.@avg` (null for an empty list).
    public var avg: Query<T.Element> { valueAggregate("@avg") { .avg($0) } }
    /// `values.@sum` (0 for an empty list).
    public var sum: Query<T.Element> { valueAggregate("@sum") { .sum($0) } }
}

extension Query where T: RealmCollection, T.Element: Comparable {
    /// Every element in the range: `values.@min >= low AND values.@max < high`.
    public func contains(_ range: Range<T.Element>) -> Query<Bool> { bounded(range) }

    /// Every element in the range: `values.@min >= low AND values.@max <= high`.
    public func contains(_ range: ClosedRange<T.Element>) -> Query<Bool> { bounded(range) }
}

extension Query where T: RealmCollection, T.Element: OptionalProtocol, T.Element.Wrapped: Comparable {
    /// Every (non-nil) element in the range: `values.@min >= low AND values.@max < high`.
    public func contains(_ range: Range<T.Element.Wrapped>) -> Query<Bool> { bounded(range) }

    /// Every (non-nil) element in the range: `values.@min >= low AND values.@max <= high`.
    public func contains(_ range: ClosedRange<T.Element.Wrapped>) -> Query<Bool> { bounded(range) }
}

extension Query {
    /// `values.@min >= low AND values.@max < high` (RealmSwift's range on a collection of values).
    func bounded<E>(_ range: Range<E>) -> Query<Bool> {
        bounded(range.lowerBound, .less, range.upperBound)
    }

    /// `values.@min >= low AND values.@max <= high`.
    func bounded<E>(_ range: ClosedRange<E>) -> Query<Bool> {
        bounded(range.lowerBound, .lessOrEqual, range.upperBound)
    }

    /// `values.@min >= low AND values.@max op high`.
    private func bounded(_ low: Any, _ op: ComparisonOperator, _ high: Any) -> Query<Bool> {
        let min: Query<Bool> = valueAggregate("@min") { .min($0) }
        let max: Query<Bool> = valueAggregate("@max") { .max($0) }
        let format = QueryFormat.comparison("&&", .comparison(">=", min.format, .constant(low), options: []),
                                            .comparison(op.rawValue, max.format, .constant(high), options: []), options: [])
        let resolved = ResolvedPredicate.and([min.condition(.greaterOrEqual, .value(QueryValue.of(low))),
                                              max.condition(op, .value(QueryValue.of(high)))])
        return Query<Bool>(.predicate(resolved), context, format: format)
    }
}

extension Query where T: _HasPersistedType, T.PersistedType: _QueryNumeric {
    /// `@min` of the property over a to-many relationship: `$0.dogs.age.min > 2`.
    public var min: Query { aggregate("@min") { .min($0) } }
    /// `@max` of the property over a to-many relationship.
    public var max: Query { aggregate("@max") { .max($0) } }
    /// `@avg` of the property over a to-many relationship (null when there are none).
    public var avg: Query { aggregate("@avg") { .avg($0) } }
    /// `@sum` of the property over a to-many relationship (0 when there are none).
    public var sum: Query { aggregate("@sum") { .sum($0) } }

    private func aggregate(_ name: String, _ function: (PropertySchema) -> AggregateFunction) -> Query {
        guard case .keyPath(let steps, let p) = node, steps.contains(where: \.isToMany) else {
            fatalError("Invalid query: min, max, avg and sum need a property of a to-many relationship, such as $0.dogs.age")
        }
        let f = function(p)
        if case .sum = f, !p.type.isNumeric { fatalError("Invalid query: sum needs a numeric property, but '\(p.name)' is a \(p.type)") }
        if case .avg = f, !p.type.isNumeric { fatalError("Invalid query: avg needs a numeric property, but '\(p.name)' is a \(p.type)") }
        return Query(.aggregate(steps, f, filter: nil), context, format: format.aggregated(name))
    }
}

extension Query where T == Bool {
    /// Completes a SUBQUERY: `($0.dogs.age > 2 && $0.dogs.name.starts(with: "B")).count > 0`
    /// counts the objects of the relationship that meet every part of the condition at once.
    public var count: Query<Int> {
        guard case .predicate(let p) = node, let steps = Self.collectionSteps(p),
              let inner = Self.strip(p, steps, elements: steps.last.flatMap { context.lookup.classes[$0.targetClass] }) else {
            fatalError("Invalid query: count on a condition needs conditions on one to-many relationship, such as ($0.dogs.age > 2).count")
        }
        return Query<Int>(.aggregate(steps, .count, filter: inner), context, format: .subqueryCount(format))
    }

    /// The to-many steps of the first comparison through a relationship in `p` (for a
    /// collection operator through two to-many steps, `$0.teams.members.count`, the steps to
    /// the first).
    private static func collectionSteps(_ p: ResolvedPredicate) -> [LinkStep]? {
        switch p {
        case .path(let steps, _, _): return steps.contains(where: \.isToMany) ? steps : nil
        case .aggregate(let a):
            let path = a.aggregate.path
            guard let first = path.firstIndex(where: \.isToMany), first < path.count - 1 else { return nil }
            return Array(path[...first])
        case .and(let ps), .or(let ps): return ps.lazy.compactMap(collectionSteps).first
        case .not(let q): return collectionSteps(q)
        case .keyPaths(let k):
            // `$0.dogs.name == $0.name`: the steps to the first to-many step of the side through it.
            for case .property(let steps, _) in [k.lhs, k.rhs] {
                if let first = steps.firstIndex(where: \.isToMany) { return Array(steps[...first]) }
            }
            return nil
        default: return nil
        }
    }

    /// A key path comparison as a condition on each object of `steps` (of class `elements`):
    /// the side through `steps` reads the object counted, and so does a property named on its
    /// own, as realm-core reads every key path inside a SUBQUERY: RealmSwift writes
    /// `($0.dogs.name == $0.name).count` as `SUBQUERY(dogs, $col1, ($col1.name == name))`,
    /// whose `name` is the dog's. Nil when a side is neither, or names no property of the
    /// objects counted.
    private static func correlated(_ k: KeyPathComparison, _ steps: [LinkStep], elements: ClassSchema?) -> ResolvedPredicate? {
        func inner(_ side: KeyPathOperand) -> KeyPathOperand? {
            guard case .property(let path, let p) = side else { return nil }
            if path.count >= steps.count, Array(path.prefix(steps.count)) == steps { return .property(Array(path.dropFirst(steps.count)), p) }
            guard path.isEmpty, let own = elements?.property(named: p.name) else { return nil }
            return .property([], own)
        }
        guard let lhs = inner(k.lhs), let rhs = inner(k.rhs) else { return nil }
        return .keyPaths(KeyPathComparison(lhs: lhs, op: k.op, options: k.options, rhs: rhs, quantifier: .any))
    }

    /// Whether `steps` is one list of objects of its owner's own class (`$0.children`).
    private static func isOwnClass(_ steps: [LinkStep]) -> Bool {
        guard steps.count == 1, case .list(let owner, let property) = steps[0] else { return false }
        return property.linkTarget == owner
    }

    /// `p` as a condition on each object of `steps`, or nil when a part of it is not about them.
    private static func strip(_ p: ResolvedPredicate, _ steps: [LinkStep], elements: ClassSchema?) -> ResolvedPredicate? {
        switch p {
        case .path(let s, .any, let inner) where s == steps: return inner
        case .aggregate(var a) where a.aggregate.path.count > steps.count && Array(a.aggregate.path.prefix(steps.count)) == steps:
            a.aggregate.path.removeFirst(steps.count)
            return .aggregate(a)
        case .aggregate(let a) where a.aggregate.path == steps && isOwnClass(steps):
            // A subquery on the same relationship inside this one, whose objects are of the
            // root's class, reads it on each object (as RealmSwift's SUBQUERY text does).
            return p
        case .and(let ps):
            var out: [ResolvedPredicate] = []
            for q in ps { guard let r = strip(q, steps, elements: elements) else { return nil }; out.append(r) }
            return .and(out)
        case .or(let ps):
            var out: [ResolvedPredicate] = []
            for q in ps { guard let r = strip(q, steps, elements: elements) else { return nil }; out.append(r) }
            return .or(out)
        case .not(let q): return strip(q, steps, elements: elements).map { .not($0) }
        case .keyPaths(let k): return correlated(k, steps, elements: elements)
        case .constant: return p
        default: return nil
        }
    }
}
