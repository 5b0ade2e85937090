import StrataStorage

/// What one side of a key path comparison reads from an object (key, row, linked objects).
typealias ObjectValue = @Sendable (ObjectKey, RowView, LinkReader) -> Value

/// Visits the values one side of a key path comparison reads from an object, calling the
/// body until it returns false; returns false when the body stopped the walk.
typealias ObjectValueWalk = @Sendable (ObjectKey, RowView, LinkReader, (Value) -> Bool) -> Bool

extension Evaluator {
    /// Compiles `lhs op rhs` between two key paths (`owner.age > age`, `ANY dogs.age > age`,
    /// `dogs.@count > age`): each side's values are read from the object and compared with
    /// `ValueSemantics`, the side that reads several under the quantifier (ALL and NONE hold
    /// when it reads none).
    static func compileKeyPaths(_ c: KeyPathComparison, _ classes: inout ClassNumbers) -> ObjectPredicate {
        let (op, options) = (c.op, c.options)
        guard c.lhs.isMultiple || c.rhs.isMultiple else {
            let lhs = compileValue(c.lhs, &classes), rhs = compileValue(c.rhs, &classes)
            return { key, row, reader in ValueSemantics.compare(lhs(key, row, reader), op, rhs(key, row, reader), options: options) }
        }
        // One side reads several values (`each`), the other one (`other`); `test(value, x)`
        // compares one of the several with the other side's value, in written order.
        let each: ObjectValueWalk, other: ObjectValue, test: @Sendable (Value, Value) -> Bool
        if c.lhs.isMultiple {
            (each, other) = (compileWalk(c.lhs, &classes), compileValue(c.rhs, &classes))
            test = { ValueSemantics.compare($0, op, $1, options: options) }
        } else {
            (other, each) = (compileValue(c.lhs, &classes), compileWalk(c.rhs, &classes))
            test = { ValueSemantics.compare($1, op, $0, options: options) }
        }
        switch c.quantifier {
        case .any:
            return { key, row, reader in
                let x = other(key, row, reader)
                return !each(key, row, reader) { !test($0, x) }
            }
        case .all:
            return { key, row, reader in
                let x = other(key, row, reader)
                return each(key, row, reader) { test($0, x) }
            }
        case .none:
            return { key, row, reader in
                let x = other(key, row, reader)
                return each(key, row, reader) { !test($0, x) }
            }
        }
    }

    /// The one value a side reads: a property of the object, of the object reached through
    /// to-one links (null when a link is nil), or a collection operator's value.
    private static func compileValue(_ operand: KeyPathOperand, _ classes: inout ClassNumbers) -> ObjectValue {
        switch operand {
        case .aggregate(let a):
            return compileAggregateValue(a, &classes)
        case .property(let steps, let p) where steps.isEmpty:
            return { _, row, _ in row.value(p) }
        case .property(let steps, let p):
            let compiled = compileSteps(steps, &classes)
            return { key, row, reader in
                var value = Value.null
                _ = forEachTarget(compiled, 0, key, row, reader) { _, target in
                    value = target.value(p)
                    return false
                }
                return value
            }
        }
    }

    /// The values a side reads through a to-many step: the property of each object reached,
    /// or the elements of the lists of values reached.
    private static func compileWalk(_ operand: KeyPathOperand, _ classes: inout ClassNumbers) -> ObjectValueWalk {
        guard case .property(let steps, let p) = operand else { preconditionFailure("a collection operator reads one value") }
        let compiled = compileSteps(steps, &classes)
        if steps.last?.isValueList == true {
            let head = Array(compiled.dropLast()), list = compiled[compiled.count - 1]
            return { key, row, reader, body in forEachValue(head, list, key, row, reader, body) }
        }
        return { key, row, reader, body in forEachTarget(compiled, 0, key, row, reader) { _, target in body(target.value(p)) } }
    }
}
