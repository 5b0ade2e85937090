import StrataStorage

/// A whole predicate that one index lookup answers exactly: `indexed == value` without options,
/// where index keys decide the comparison (an int on an int property, a string short enough
/// that no other string shares its key). The lookup yields the matches in key order, once
/// each, and no row is read: the one place that decides when an index answers a query alone,
/// for compiling (`CompiledQuery`), binding a prepared query (`PreparedQuery`) and running it
/// (`QueryExecution`).
package struct ExactLookup: Sendable {
    /// The comparison looked up; its operand is `.value(value)`.
    package let comparison: ResolvedComparison

    /// The lookup of `c`, or nil when the index does not answer it exactly.
    package init?(_ c: ResolvedComparison) {
        guard let v = QueryPlanner.indexedValue(c), QueryPlanner.exactKey(v, c.property) else { return nil }
        comparison = c
    }

    /// The indexed property.
    package var property: PropertySchema { comparison.property }

    /// The value looked up.
    package var value: Value {
        guard case .value(let v) = comparison.operand else { preconditionFailure("an exact lookup compares with one value") }
        return v
    }

    /// Its plan: the one index lookup, covering the predicate.
    var plan: QueryPlan { .index(.equal(property, [value]), covers: true) }
}
