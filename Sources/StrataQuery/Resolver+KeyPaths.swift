import StrataStorage

/// Comparisons with a key path on both sides: two properties of the object (`age == weight`),
/// or key paths through relationships and collection operators (`owner.age > age`,
/// `ANY dogs.age > age`, `age IN scores`, `dogs.@count > age`), as realm-core compares them.
extension Resolver {
    /// `k op other`, both resolved key paths: the same checks for the text and the type-safe
    /// form.
    func compare(_ k: ResolvedPath, _ c: ComparisonSite, _ other: ResolvedPath, at position: Int,
                 rhsAt rhsPosition: Int) throws(QueryError) -> ResolvedPredicate {
        guard let lhs = keyPathOperand(k) else { throw objectsOnly(k.text, at: position) }
        guard let rhs = keyPathOperand(other) else { throw objectsOnly(other.text, at: rhsPosition) }
        return try compare(lhs, k.text, c, rhs, other.text, at: position, rhsAt: rhsPosition)
    }

    /// The same for the type-safe form (`$0.owner.age > $0.age`, `$0.dogs.count > $0.age`,
    /// `$0.name.starts(with: $0.owner.name)`).
    package func comparison(_ lhs: KeyPathOperand, _ op: ComparisonOperator, options: StringOptions,
                            _ rhs: KeyPathOperand) throws(QueryError) -> ResolvedPredicate {
        try compare(lhs, lhs.description, ComparisonSite(op, options), rhs, rhs.description, at: 0, rhsAt: 0)
    }

    /// Checks the operator against both sides' types and builds the comparison: a plain
    /// `.comparison` between two properties of the object, a `.keyPaths` comparison otherwise.
    private func compare(_ lhs: KeyPathOperand, _ lhsText: String, _ c: ComparisonSite, _ rhs: KeyPathOperand,
                         _ rhsText: String, at position: Int, rhsAt rhsPosition: Int) throws(QueryError) -> ResolvedPredicate {
        if let q = c.quantifier, !lhs.isMultiple { throw oneValuePerObject(q, lhsText, at: position) }
        var checked = c
        switch c.op {
        case .between:
            throw QueryError("BETWEEN needs a list {…} or an array argument, not the key path '\(rhsText)'", at: rhsPosition)
        case .in:
            // `age IN scores`: some value on the right equals the left side.
            guard rhs.isMultiple else {
                throw QueryError("IN needs a list {…}, an array argument or a key path through a to-many relationship, not '\(rhsText)'",
                                 at: rhsPosition)
            }
            checked.op = .equal
        default:
            break
        }
        if lhs.isMultiple, rhs.isMultiple {
            throw QueryError("comparing '\(lhsText)' with '\(rhsText)' is not supported: both go through a to-many relationship; compare one of them with a value, or use SUBQUERY",
                             at: position)
        }
        var left = lhs.valueType, right = rhs.valueType
        (left.name, right.name) = (lhsText, rhsText)
        try checkOperator(left, checked)
        guard comparable(left.type, right.type) else {
            throw QueryError("cannot compare '\(lhsText)' (\(left.type)) with '\(rhsText)' (\(right.type))", at: c.position)
        }
        if case .property([], let p) = lhs, case .property([], let q) = rhs {
            return .comparison(ResolvedComparison(property: p, op: checked.op, options: c.options, operand: .property(q)))
        }
        return .keyPaths(KeyPathComparison(lhs: lhs, op: checked.op, options: c.options, rhs: rhs,
                                           quantifier: c.quantifier ?? .any))
    }

    /// What a resolved key path reads, as one side of a comparison; nil for objects themselves.
    private func keyPathOperand(_ k: ResolvedPath) -> KeyPathOperand? {
        switch k.end {
        case .property(let p), .values(let p): .property(k.steps, p)
        case .aggregate(let function): .aggregate(CollectionAggregate(path: k.steps, function: function, filter: k.filter, variable: k.variable))
        case .objects: nil
        }
    }

    /// "'dogs' is a collection of objects: …" for objects on either side of a key path comparison.
    private func objectsOnly(_ text: String, at position: Int) -> QueryError {
        QueryError("'\(text)' stands for objects: it can only be compared with an object argument using '==', '!=' or IN",
                   at: position)
    }
}
