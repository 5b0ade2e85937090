import StrataStorage

/// A whole predicate that one index lookup answers exactly: `indexed == value` without options,
/// where index keys decide the comparison (an int on an int property, a string short enough
/// that no other string shares its key). The lookup yields the matches in key order, once
/// each, and no row is read: the one place that decides when an index answers a query alone,
/// for compiling (`CompiledQuery`), binding a prepared query (`PreparedQuery`) and running it
/// (`QueryExecution`).
package struct ExactLookup: Sendable {
    /// The indexed property.
    package let property: PropertySchema
    /// The value looked up.
    package let value: Value

    /// The lookup of `c`, or nil when the index does not answer it exactly.
    package init?(_ c: ResolvedComparison) {
        guard let v = QueryPlanner.indexedValue(c), QueryPlanner.exactKey(v, c.property) else { return nil }
        property = c.property
        value = v
    }

    /// The lookup of `value` in the index of `lookup`'s property (a prepared `name == %@`
    /// bound to a new value), or nil when the index does not answer it exactly (a null, or a
    /// string too long for its index key alone to decide).
    package init?(_ value: Value, asIn lookup: ExactLookup) {
        guard !value.isNull, QueryPlanner.exactKey(value, lookup.property) else { return nil }
        property = lookup.property
        self.value = value
    }

    /// The comparison looked up: `property == value`.
    package var comparison: ResolvedComparison {
        ResolvedComparison(property: property, op: .equal, options: [], operand: .value(value))
    }

    /// Its plan: the one index lookup, covering the predicate.
    var plan: QueryPlan { .index(.equal(property, [value]), covers: true) }
}
