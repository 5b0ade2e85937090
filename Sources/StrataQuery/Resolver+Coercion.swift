import Foundation
import StrataStorage
import StrataValues

// Literals and coercion: a property compared with constants, the operator checks, and the
// exact conversion of each constant to the property's type.

extension Resolver {
    /// Checks and builds `property op operand`. `throughLinks`: the property is read through
    /// links, so it may be null even when required, and may be compared with nil.
    func compare(_ p: PropertySchema, _ c: ComparisonSite, _ rhs: Operand, throughLinks: Bool = false) throws(QueryError) -> ResolvedPredicate {
        try checkOperator(p, c)
        switch rhs {
        case .object(let o, _, _) where p.type == .mixed:
            guard c.op == .equal || c.op == .notEqual else {
                throw QueryError("a mixed value can only be compared with an object using '==', '!=' or IN, not '\(c.op.rawValue)'", at: c.position)
            }
            guard let link = try heldLinks([o], what: "'\(p.name)'", at: rhs).first else { return .constant(c.op == .notEqual) }
            return .comparison(ResolvedComparison(property: p, op: c.op, options: [], operand: .value(link)))
        case .objects(let os, _, _) where p.type == .mixed && c.op == .in:
            return .comparison(ResolvedComparison(property: p, op: .in, options: [], operand: .values(try heldLinks(os, what: "'\(p.name)'", at: rhs))))
        case .object(let o, _, _):
            guard p.type == .link else {
                throw QueryError("cannot compare '\(p.name)' (\(p.type)) with an object", at: rhs.position)
            }
            guard c.op == .equal || c.op == .notEqual else {
                throw QueryError("a link can only be compared with '==', '!=' or IN, not '\(c.op.rawValue)'", at: c.position)
            }
            let keys = try objectKeys([o], target: p.linkTarget ?? "", what: "'\(p.name)'", at: rhs)
            guard let key = keys.first else { return .constant(c.op == .notEqual) }
            return .comparison(ResolvedComparison(property: p, op: c.op, options: [], operand: .value(.link(key))))
        case .objects(let os, _, _):
            guard p.type == .link, c.op == .in else {
                throw QueryError("an array of objects can only follow IN, with a link on the left", at: rhs.position)
            }
            let keys = try objectKeys(os, target: p.linkTarget ?? "", what: "'\(p.name)'", at: rhs)
            return .comparison(ResolvedComparison(property: p, op: .in, options: [], operand: .values(keys.map { .link($0) })))
        case .path(let k, let position):
            return try compare(ResolvedPath(steps: [], end: .property(p), written: p.name), c, k, at: c.position, rhsAt: position)
        case .constant(let v, let position, let source):
            guard c.op != .in, c.op != .between else {
                throw QueryError("\(c.op.rawValue) needs a list {…} or an array argument, but found \(source)", at: position)
            }
            // An ordering comparison of an optional value with nil, as realm-core orders
            // null (`ValueSemantics`); a required property's is an error below.
            if v.isNull, c.op.isOrdering, p.isOptional || throughLinks { return orderedAgainstNull(p, c.op) }
            let value = try coerce(v, to: p, op: c.op, source: source, at: position, allowNil: throughLinks)
            recorder?.constant(v, from: source, resolved: value)
            return .comparison(ResolvedComparison(property: p, op: c.op, options: c.options, operand: .value(value)))
        case .list(let items, let position):
            switch c.op {
            case .in:
                var values: [Value] = []
                for (v, source) in items { values.append(try coerce(v, to: p, op: .equal, source: source, at: position, allowNil: throughLinks)) }
                recorder?.list(items, resolved: values, spread: true)
                return .comparison(ResolvedComparison(property: p, op: .in, options: c.options, operand: .values(values)))
            case .between:
                guard items.count == 2 else {
                    throw QueryError("BETWEEN needs exactly two values, {low, high}, but found \(items.count)", at: position)
                }
                let low = try coerce(items[0].0, to: p, op: .greaterOrEqual, source: items[0].source, at: position)
                let high = try coerce(items[1].0, to: p, op: .lessOrEqual, source: items[1].source, at: position)
                recorder?.list(items, resolved: [low, high], spread: false)
                return .comparison(ResolvedComparison(property: p, op: .between, options: [], operand: .values([low, high])))
            default:
                throw QueryError("a list {…} can only follow IN or BETWEEN, not \(c.op.rawValue)", at: position)
            }
        }
    }

    /// Whether the operator and its options apply to the property's type.
    func checkOperator(_ p: PropertySchema, _ c: ComparisonSite) throws(QueryError) {
        if c.op.isOrdering && !p.type.isOrdered {
            throw QueryError("'\(c.op.rawValue)' is not valid for '\(p.name)', which is \(article(p.type))", at: c.position)
        }
        if c.op.isStringOperator && p.type != .string && p.type != .data {
            throw QueryError("\(c.op.rawValue) is not valid for '\(p.name)', which is \(article(p.type)); it needs a string or data property",
                             at: c.position)
        }
        if !c.options.isEmpty {
            guard p.type == .string else {
                throw QueryError("the \(c.options) option applies to strings only, but '\(p.name)' is \(article(p.type))", at: c.position)
            }
            guard !c.op.isOrdering else {
                throw QueryError("the \(c.options) option cannot be used with '\(c.op.rawValue)'", at: c.position)
            }
        }
    }

    func comparable(_ a: PropertyType, _ b: PropertyType) -> Bool {
        a == b || (a.isNumeric && b.isNumeric) || (a == .string && b == .data) || (a == .data && b == .string)
    }

    /// `p op nil` for an ordering operator: null is equal to null and before every string or
    /// data value, and unordered against anything else (`ValueSemantics`), so it reads as a
    /// test for null, for not null, or a constant.
    private func orderedAgainstNull(_ p: PropertySchema, _ op: ComparisonOperator) -> ResolvedPredicate {
        let isNull = ResolvedPredicate.comparison(ResolvedComparison(property: p, op: .equal, options: [], operand: .value(.null)))
        let sortsAfterNull = p.type == .string || p.type == .data
        switch op {
        case .greaterOrEqual: return sortsAfterNull ? .constant(true) : isNull
        case .lessOrEqual: return isNull
        case .greater: return sortsAfterNull ? .not(isNull) : .constant(false)
        default: return .constant(false)
        }
    }

    /// Converts a constant to the property's type, or explains why it cannot be compared.
    func coerce(_ v: Value, to p: PropertySchema, op: ComparisonOperator, source: OperandSource, at position: Int,
                        allowNil: Bool = false) throws(QueryError) -> Value {
        func mismatch() -> QueryError {
            QueryError("cannot compare '\(p.name)' (\(p.type)) with \(source)", at: position)
        }
        if v.isNull {
            guard op == .equal || op == .notEqual else {
                throw QueryError("'\(op.rawValue)' cannot compare '\(p.name)' with nil", at: position)
            }
            guard p.isOptional || p.type == .link || allowNil else {
                throw QueryError("'\(p.name)' is not optional, so it cannot be compared with nil", at: position)
            }
            return .null
        }
        // A literal of more than 15 digits, or a Decimal128 argument, compared with a binary
        // number: its nearest double.
        var v = v
        if case .decimal128(let d) = v, p.type == .int || p.type == .float || p.type == .double { v = .double(d.doubleValue) }
        switch (p.type, v) {
        case (.int, .int): return v
        case (.int, .float), (.int, .double):
            let d = v.numeric!
            if d.rounded() == d, d >= -9.2e18, d <= 9.2e18 { return .int(Int64(d)) }
            return .double(d)
        case (.float, .int), (.float, .float), (.float, .double): return .float(Float(v.numeric!))
        case (.double, .int), (.double, .float), (.double, .double): return .double(v.numeric!)
        case (.bool, .bool), (.string, .string), (.data, .data), (.date, .date), (.uuid, .uuid), (.objectId, .objectId): return v
        case (.data, .string(let s)): return .data(Data(s.utf8))
        case (.uuid, .string(let s)):
            guard let u = UUID(uuidString: s) else { throw mismatch() }
            return .uuid(u)
        case (.objectId, .string(let s)):
            guard let id = try? ObjectId(string: s) else { throw mismatch() }
            return .objectId(id)
        case (.decimal128, .string(let s)):
            guard let d = BID128(text: s) else { throw mismatch() }
            return .decimal128(d)
        case (.decimal128, _):
            guard let d = v.asDecimal128 else { throw mismatch() }
            return .decimal128(d)
        case (.mixed, .link), (.mixed, .typedLink):
            throw QueryError("cannot compare the mixed '\(p.name)' with \(source); compare it with an object argument", at: position)
        case (.mixed, _):
            // Any kind: numbers of every kind compare by value, other kinds only with their own.
            return v
        case (.link, _):
            throw QueryError("cannot compare the link '\(p.name)' with \(source); a link compares with nil or an object argument", at: position)
        default:
            throw mismatch()
        }
    }
}

/// "an int", "a string", ... for messages.
func article(_ t: PropertyType) -> String {
    (t == .int ? "an " : "a ") + t.description
}

/// Where a constant of a query came from, as error messages name it; the text is made only
/// when a message needs it.
enum OperandSource: CustomStringConvertible {
    /// Text given as is.
    case text(String)
    /// A literal written in the query.
    case literal(Value)
    /// Argument `i`, a single value.
    case argument(Int, Any)
    /// An element of argument `i`, an array.
    case element(Int)

    var description: String {
        switch self {
        case .text(let s): s
        case .literal(let v): literalText(v)
        case .argument(let i, let any): "argument \(i) (\(ArgumentConversion.describe(any)))"
        case .element(let i): "an element of argument \(i)"
        }
    }
}
