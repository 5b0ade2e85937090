/// What the resolver checks a comparison as, apart from its operands: the quantifier, the
/// operator, its string options and where errors about them point. Taken from a parsed
/// `ComparisonNode`, or made by the type-safe query API's typed entries into the resolver
/// (`Resolver.comparison(_:_:options:_:)` and the rest), which have no query text.
struct ComparisonSite {
    /// `ANY`/`ALL`/`NONE` when written.
    var quantifier: Quantifier?
    /// The operator.
    var op: ComparisonOperator
    /// The string modifiers.
    var options: StringOptions
    /// The position of the operator in the text (0 without text).
    var position: Int

    /// The site of a parsed comparison.
    init(_ node: ComparisonNode) {
        (quantifier, op, options, position) = (node.quantifier, node.op, node.options, node.position)
    }

    /// The site of a comparison built without text: no quantifier, no position.
    init(_ op: ComparisonOperator, _ options: StringOptions) {
        (quantifier, self.op, self.options, position) = (nil, op, options, 0)
    }
}
