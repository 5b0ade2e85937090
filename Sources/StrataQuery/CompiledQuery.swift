import StrataStorage
import Synchronization

/// Parses, resolves and compiles `text` for objects of `schema`.
///
/// `arguments` fill `%@`/`$n` (values, or arrays for IN) and `%K`/`$Kn` (property names) in
/// order. Throws `QueryError` for syntax errors (with what was expected), unknown properties
/// (with a suggestion), operators that do not apply to a property's type, nil compared with a
/// required property, and missing or ill-typed arguments.
///
/// `lookup` holds the classes key paths may reach through relationships (links, inverse
/// relationships), asked for only when the text reaches past the class; without it only the
/// class's own properties can be named.
package func compileQuery(_ text: String, arguments: [Any] = [], schema: ClassSchema,
                          lookup: (any SchemaLookupSource)? = nil) throws(QueryError) -> CompiledQuery {
    let ast = try ParseCache.parse(text)
    let resolved = try Resolver(schema: schema, arguments: arguments, lookup: lookup).resolve(ast)
    return CompiledQuery(resolved, schema: schema)
}

/// A query ready to run against rows of one class: the matching function plus what a planner
/// needs to know about it.
///
/// A class, so that the `Results` values holding it copy one reference. Sendable: it holds
/// only immutable values and closures that capture immutable values.
package final class CompiledQuery: Sendable, CustomStringConvertible {
    /// The class the query was resolved against.
    package let schema: ClassSchema
    /// The lookup of a query that is exactly `indexed == value`, which one index lookup
    /// answers alone; nil for any other. Execution looks the value up directly, and a
    /// prepared query bound to a new value makes only this (no tree, no plan).
    package let exactLookup: ExactLookup?
    /// The resolved tree and its plan, made when the query is compiled; nil for a bound
    /// exact lookup, which makes them when asked (`query`, `plan`).
    private let tree: (query: ResolvedQuery, plan: QueryPlan)?
    /// The resolved tree (printable; also what `and` combines).
    package var query: ResolvedQuery { tree?.query ?? ResolvedQuery(predicate: .comparison(exactLookup!.comparison), suffixes: []) }
    /// How execution finds the candidate rows (an index access or a scan).
    package var plan: QueryPlan { tree?.plan ?? exactLookup!.plan }
    /// The `SORT/DISTINCT/LIMIT` suffixes, in the order they apply.
    package let suffixes: [ResolvedSuffix]
    /// The ids (row slots) of every property the predicate reads.
    package var propertyIDs: Set<Int> { query.predicate.propertyIDs }
    /// An index lookup that yields a superset of the matches, when one applies (worked out
    /// on demand: execution follows `plan`, which weighs every such lookup).
    package var indexHint: IndexHint? { IndexHint.find(in: query.predicate) }
    /// The predicate on the row alone, when it reads no other object and the plan reads rows
    /// (nil otherwise).
    private let predicate: RowPredicate?
    /// The same, compiled on first use, when the plan answers the query from an index alone
    /// (`deferredCompile`): most such queries never read a row. Held in a box: a closure kept
    /// in the mutex's generic storage would be wrapped in one more reabstraction thunk by each
    /// access (an `inout` writes it back), until a scan that tests every row overflows the stack.
    private let deferredPredicate = Mutex<PredicateBox?>(nil)

    /// A compiled row predicate, held by reference.
    private final class PredicateBox: Sendable {
        let predicate: RowPredicate
        init(_ predicate: @escaping RowPredicate) { self.predicate = predicate }
    }
    /// The predicate on the object (key, row and linked objects), when it follows relationships.
    private let objectPredicate: ObjectPredicate?
    /// The classes the predicate reads objects of, numbered as `LinkSource` sees them.
    package let linkedClasses: [String]
    /// Whether matching reads more than the object's row (other objects, or its key): such a
    /// query matches with `matches(_:_:_:)` and a reader.
    package let followsLinks: Bool
    /// Whether the plan visits every row (`QueryPlan.scan`).
    package let scans: Bool

    /// Compiles an already resolved query (the type-safe query API builds these directly).
    /// `plan`, when given, must be what `QueryPlanner.plan` makes of the predicate.
    package init(_ query: ResolvedQuery, schema: ClassSchema, plan: QueryPlan? = nil) {
        let plan = plan ?? QueryPlanner.plan(query.predicate)
        self.schema = schema
        tree = (query, plan)
        suffixes = query.suffixes
        if case .comparison(let c) = query.predicate, query.suffixes.isEmpty, let lookup = ExactLookup(c) {
            exactLookup = lookup
        } else {
            exactLookup = nil
        }
        if case .scan = plan { scans = true } else { scans = false }
        followsLinks = query.predicate.followsLinks
        if followsLinks {
            var classes = ClassNumbers()
            objectPredicate = Evaluator.compileObject(query.predicate, &classes)
            linkedClasses = classes.names
            predicate = nil
        } else {
            predicate = Self.deferredCompile(plan) ? nil : Evaluator.compile(query.predicate)
            objectPredicate = nil
            linkedClasses = []
        }
    }

    /// The query that is `lookup`'s comparison alone: a prepared `name == %@` bound to a new
    /// argument. Its tree and plan are made only if asked for, and its row predicate is
    /// compiled only if a row is ever tested.
    package init(_ lookup: ExactLookup, schema: ClassSchema) {
        self.schema = schema
        exactLookup = lookup
        tree = nil
        suffixes = []
        scans = false
        followsLinks = false
        predicate = nil
        objectPredicate = nil
        linkedClasses = []
    }

    /// Whether the plan finds the matches without reading rows (nothing, or an index access
    /// that covers the predicate), so the row predicate is compiled only if asked for.
    private static func deferredCompile(_ plan: QueryPlan) -> Bool {
        switch plan {
        case .nothing, .index(_, covers: true): true
        default: false
        }
    }

    /// A query that matches every object (for `objects(_:)` with no filter).
    package static func all(_ schema: ClassSchema) -> CompiledQuery {
        CompiledQuery(ResolvedQuery(predicate: .constant(true), suffixes: []), schema: schema)
    }

    /// Whether the object whose encoded row is `row` matches the predicate. Only for queries
    /// that do not follow links (`followsLinks` is false).
    @inline(__always)
    package func matches(_ row: RowView) -> Bool {
        if let predicate { return predicate(row) }
        return rowPredicate()(row)
    }

    /// The row predicate compiled on first use (see `deferredPredicate`).
    private func rowPredicate() -> RowPredicate {
        deferredPredicate.withLock { compiled in
            if let compiled { return compiled }
            let box = PredicateBox(Evaluator.compile(query.predicate))
            compiled = box
            return box
        }.predicate
    }

    /// Whether object `key` with encoded row `row` matches, reading linked objects through
    /// `reader` (a reader for `linkedClasses`).
    @inline(__always)
    package func matches(_ key: ObjectKey, _ row: RowView, _ reader: LinkReader) -> Bool {
        if let objectPredicate { return objectPredicate(key, row, reader) }
        return matches(row)
    }

    /// The predicate's value when it does not depend on the row (TRUEPREDICATE, `1 == 2`),
    /// so callers can skip the scan entirely.
    package var constantResult: Bool? {
        if case .constant(let b) = tree?.query.predicate { return b }
        return nil
    }

    /// Both queries at once, as `filter(a).filter(b)`: predicates ANDed, suffixes of `self`
    /// then of `other`, the better index hint of the two. Both must be on the same class.
    package func and(_ other: CompiledQuery) -> CompiledQuery {
        precondition(schema.name == other.schema.name, "cannot combine queries on '\(schema.name)' and '\(other.schema.name)'")
        var parts: [ResolvedPredicate] = []
        for p in [query.predicate, other.query.predicate] {
            switch p {
            case .constant(true): continue
            case .and(let ps): parts += ps
            default: parts.append(p)
            }
        }
        let predicate: ResolvedPredicate = parts.isEmpty ? .constant(true) : (parts.count == 1 ? parts[0] : .and(parts))
        return CompiledQuery(ResolvedQuery(predicate: predicate, suffixes: query.suffixes + other.query.suffixes), schema: schema)
    }

    /// The resolved query as text.
    package var description: String { query.description }
}
