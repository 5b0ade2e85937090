import StrataStorage

/// One side of a comparison between two key paths: what the key path reads from an object.
package enum KeyPathOperand: Equatable, Sendable, CustomStringConvertible {
    /// The property at the end of the steps (the elements, when a list of values ends them):
    /// one value through to-one links (null when a link on the way is nil), any number through
    /// a to-many step.
    case property([LinkStep], PropertySchema)
    /// A collection operator over the steps: one value per object.
    case aggregate(CollectionAggregate)

    /// Whether the key path reads any number of values (a to-many step, no collection operator).
    package var isMultiple: Bool {
        if case .property(let steps, _) = self { return steps.contains(where: \.isToMany) }
        return false
    }

    /// What the values are compared as: the property, or the collection operator's result.
    package var valueType: PropertySchema {
        switch self {
        case .property(_, let p): p
        case .aggregate(let a): a.function.result
        }
    }

    /// The relationship steps the key path follows.
    package var steps: [LinkStep] {
        switch self {
        case .property(let steps, _): steps
        case .aggregate(let a): a.path
        }
    }

    /// The property of the object's own row that is read: the property itself, or the link
    /// followed first (nil when the first step is a list or an inverse relationship).
    package var rowProperty: PropertySchema? {
        switch (self, steps.first) {
        case (.property(_, let p), nil): p
        case (_, .link(let p)?): p
        default: nil
        }
    }

    /// The key path as text: `age`, `owner.age`, `dogs.age`, `tags`, `dogs.@count`.
    package var description: String { description(prefix: "") }

    /// The text with `prefix` before the key path (`$d.` inside a SUBQUERY).
    package func description(prefix: String) -> String {
        switch self {
        case .property(let steps, _) where steps.last?.isValueList == true: prefix + pathText(steps)
        case .property(let steps, let p): prefix + (steps.isEmpty ? "" : pathText(steps) + ".") + p.name
        case .aggregate(let a): a.description(prefix: prefix)
        }
    }
}

/// `lhs op[options] rhs` between two key paths, at least one of which goes through a
/// relationship or is a collection operator: `owner.age > age`, `ANY dogs.age > age`,
/// `age IN scores`, `dogs.@count > age`.
///
/// At most one side reads several values; `quantifier` says how many of them must satisfy
/// the comparison (ANY when the several values are on the right). Nulls follow
/// `ValueSemantics`, the same rules as a property compared with a constant.
package struct KeyPathComparison: Equatable, Sendable, CustomStringConvertible {
    /// The left side.
    package var lhs: KeyPathOperand
    /// The operator (`IN` with a key path on the right is `==` over its values).
    package var op: ComparisonOperator
    /// `[c]`/`[d]`, only between strings.
    package var options: StringOptions
    /// The right side.
    package var rhs: KeyPathOperand
    /// ANY, ALL or NONE of the values of the side that reads several.
    package var quantifier: Quantifier

    /// The comparison `lhs op[options] rhs` under `quantifier`.
    package init(lhs: KeyPathOperand, op: ComparisonOperator, options: StringOptions, rhs: KeyPathOperand, quantifier: Quantifier) {
        (self.lhs, self.op, self.options, self.rhs, self.quantifier) = (lhs, op, options, rhs, quantifier)
    }

    /// Query text.
    package var description: String { description(prefix: "") }

    /// The text with `prefix` before both key paths (`$d.` inside a SUBQUERY).
    package func description(prefix: String) -> String {
        let q = lhs.isMultiple ? quantifier.rawValue + " " : ""
        return "\(q)\(lhs.description(prefix: prefix)) \(op.rawValue)\(options) \(rhs.description(prefix: prefix))"
    }
}
