import StrataStorage

/// A query text resolved once against a class, with the places its arguments went: the same
/// text with new arguments of the same kinds binds to the same tree with the new values, with
/// no parsing or resolving (a prepared statement, as SQLite keeps one).
///
/// Only trees that depend on their arguments through unchanged values are prepared
/// (`ArgumentRecorder.isBindable`), and the recording is checked against the tree it
/// describes, so binding can never produce a tree the resolver would not have.
final class PreparedQuery {
    /// The kind of value an argument must convert to for the tree to hold.
    enum Kind: Equatable {
        /// Any argument: the query does not read it.
        case unread
        /// A single value of this case of `Value` (its ordinal in `Value.caseOrdinal`).
        case value(Int)
        /// An array whose elements are all of this case.
        case elements(Int)
    }

    /// The tree resolved from the text with the first arguments.
    private let query: ResolvedQuery
    /// Per argument, what it must convert to.
    private let kinds: [Kind]
    /// Per constant operand of the tree, in `ResolvedPredicate.mapOperands` order.
    private let origins: [ArgumentRecorder.Origin]
    /// The tree's one comparison, when the tree is a single comparison with the only argument
    /// (`name == %@`, the commonest query): binding then sets its operand alone.
    private let sole: SoleComparison?

    /// A tree's one comparison, held by reference: binding reads it on every call, and an
    /// optional comparison value would be copied whole to be tested.
    private final class SoleComparison {
        let comparison: ResolvedComparison
        /// Its index lookup, when the index answered it exactly for the first argument and
        /// the query has no suffixes: a new value the index also answers exactly makes only a
        /// new lookup (no tree, no plan, no copy of the comparison).
        let lookup: ExactLookup?

        init(_ comparison: ResolvedComparison, suffixes: [ResolvedSuffix]) {
            self.comparison = comparison
            lookup = suffixes.isEmpty ? ExactLookup(comparison) : nil
        }
    }

    /// The prepared form of `query`, resolved with `arguments` while `recorder` watched; nil
    /// when the tree depends on the arguments' values beyond what binding replaces.
    init?(_ query: ResolvedQuery, arguments: [Any], recorder: ArgumentRecorder) {
        guard recorder.isBindable else { return nil }
        var operands: [ResolvedOperand] = []
        _ = query.predicate.mapOperands { operands.append($0); return $0 }
        guard operands == recorder.operands.map(\.operand) else { return nil }
        var kinds = [Kind](repeating: .unread, count: arguments.count)
        for i in recorder.argumentsRead {
            guard i < arguments.count, let kind = Self.kind(of: arguments[i]) else { return nil }
            kinds[i] = kind
        }
        self.query = query
        self.kinds = kinds
        origins = recorder.operands.map(\.origin)
        if case .comparison(let c) = query.predicate, kinds.count == 1, origins == [.argument(0)] {
            sole = SoleComparison(c, suffixes: query.suffixes)
        } else {
            sole = nil
        }
    }

    /// The query for `arguments`, compiled for `schema`, or nil when one of them is of
    /// another kind than the first arguments were (then the text must be resolved again).
    func compile(_ arguments: [Any], schema: ClassSchema) -> CompiledQuery? {
        guard arguments.count == kinds.count else { return nil }
        if let sole, case .value(let ordinal) = kinds[0] {
            guard case .value(let v)? = ArgumentConversion.convert(arguments[0]), v.caseOrdinal == ordinal else { return nil }
            if let lookup = sole.lookup.flatMap({ ExactLookup(v, asIn: $0) }) { return CompiledQuery(lookup, schema: schema) }
            var c = sole.comparison
            c.operand = .value(v)
            if query.suffixes.isEmpty, let lookup = ExactLookup(c) { return CompiledQuery(lookup, schema: schema) }
            // Planned from the comparison itself, not from the tree: no copy of it to take.
            return CompiledQuery(ResolvedQuery(predicate: .comparison(c), suffixes: query.suffixes), schema: schema,
                                 plan: QueryPlanner.indexedEquality(c))
        }
        return bind(arguments).map { CompiledQuery($0, schema: schema) }
    }

    /// The tree for `arguments`, or nil when one of them is of another kind than the first
    /// arguments were.
    private func bind(_ arguments: [Any]) -> ResolvedQuery? {
        guard arguments.count == kinds.count else { return nil }
        var bound: [Bound] = []
        bound.reserveCapacity(kinds.count)
        for (argument, kind) in zip(arguments, kinds) {
            switch kind {
            case .unread:
                bound.append(.unread)
            case .value(let ordinal):
                guard case .value(let v)? = ArgumentConversion.convert(argument), v.caseOrdinal == ordinal else { return nil }
                bound.append(.value(v))
            case .elements(let ordinal):
                guard case .list(let vs)? = ArgumentConversion.convert(argument),
                      vs.allSatisfy({ $0.caseOrdinal == ordinal }) else { return nil }
                bound.append(.values(vs))
            }
        }
        var next = 0
        let predicate = query.predicate.mapOperands { operand in
            defer { next += 1 }
            return Self.replacing(operand, origins[next], bound)
        }
        return ResolvedQuery(predicate: predicate, suffixes: query.suffixes)
    }

    /// A new argument, converted.
    private enum Bound {
        case unread
        case value(Value)
        case values([Value])

        var value: Value {
            guard case .value(let v) = self else { preconditionFailure("a bound argument is not a single value") }
            return v
        }
    }

    /// `operand` with the values that came from arguments replaced by the new ones.
    private static func replacing(_ operand: ResolvedOperand, _ origin: ArgumentRecorder.Origin, _ bound: [Bound]) -> ResolvedOperand {
        switch (origin, operand) {
        case (.argument(let i), _):
            return .value(bound[i].value)
        case (.elements(let i), _):
            guard case .values(let vs) = bound[i] else { preconditionFailure("a bound argument is not an array") }
            return .values(vs)
        case (.items(let items), .values(var vs)):
            for (j, item) in items.enumerated() { if case .argument(let i) = item { vs[j] = bound[i].value } }
            return .values(vs)
        default:
            return operand
        }
    }

    /// What an argument must stay for the tree to hold, from its first value; nil for an
    /// argument that cannot be bound (an object, an empty or mixed array).
    private static func kind(of argument: Any) -> Kind? {
        switch ArgumentConversion.convert(argument) {
        case .value(let v)?: return .value(v.caseOrdinal)
        case .list(let vs)?:
            guard let first = vs.first?.caseOrdinal, vs.allSatisfy({ $0.caseOrdinal == first }) else { return nil }
            return .elements(first)
        case nil: return nil
        }
    }
}

extension Value {
    /// Which case the value is, as a number: two values of one case resolve alike.
    var caseOrdinal: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .int: 2
        case .float: 3
        case .double: 4
        case .string: 5
        case .data: 6
        case .date: 7
        case .uuid: 8
        case .link: 9
        case .objectId: 10
        case .decimal128: 11
        case .typedLink: 12
        }
    }
}

extension ResolvedPredicate {
    /// The predicate with each constant operand (not a property) passed through `transform`,
    /// in a fixed order: operands in the order written, a SUBQUERY's condition before the
    /// comparison of its count. Comparisons of key paths and object identities hold no
    /// operand, nor does a geospatial test (its region is not an operand), and are left as
    /// they are.
    func mapOperands(_ transform: (ResolvedOperand) -> ResolvedOperand) -> ResolvedPredicate {
        switch self {
        case .constant, .identity, .keyPaths, .geoWithin:
            return self
        case .and(let ps):
            return .and(ps.map { $0.mapOperands(transform) })
        case .or(let ps):
            return .or(ps.map { $0.mapOperands(transform) })
        case .not(let p):
            return .not(p.mapOperands(transform))
        case .comparison(var c):
            if case .property = c.operand { return self }
            c.operand = transform(c.operand)
            return .comparison(c)
        case .path(let steps, let quantifier, let p):
            return .path(steps, quantifier, p.mapOperands(transform))
        case .aggregate(var a):
            a.aggregate.filter = a.aggregate.filter?.mapOperands(transform)
            a.operand = transform(a.operand)
            return .aggregate(a)
        }
    }
}
