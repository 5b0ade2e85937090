import Foundation
import StrataStorage

/// Binds a parsed query to a class: key paths to properties, arguments to values, and checks
/// that every operator applies to its operands' types.
///
/// Comparisons are normalised so the property is on the left (`5 < age` becomes `age > 5`),
/// constants are converted to the property's type where that is exact (`age == 8.0` becomes
/// `age == 8`), and comparisons between two constants are folded to TRUE/FALSE.
package struct Resolver {
    private let schema: ClassSchema
    private let arguments: [Any]

    /// A resolver for queries on `schema` with `arguments` for `%@`/`%K`/`$n`.
    package init(schema: ClassSchema, arguments: [Any]) {
        self.schema = schema
        self.arguments = arguments
    }

    /// Resolves a whole query.
    package func resolve(_ ast: QueryAST) throws(QueryError) -> ResolvedQuery {
        let predicate = try resolve(ast.predicate)
        var suffixes: [ResolvedSuffix] = []
        for suffix in ast.suffixes {
            switch suffix {
            case .sort(let keys, _):
                var resolved: [SortKey] = []
                for (key, ascending) in keys { resolved.append(SortKey(property: try property(key), ascending: ascending)) }
                suffixes.append(.sort(resolved))
            case .distinct(let keys, _):
                var resolved: [PropertySchema] = []
                for key in keys { resolved.append(try property(key)) }
                suffixes.append(.distinct(resolved))
            case .limit(let n, _):
                suffixes.append(.limit(n))
            }
        }
        return ResolvedQuery(predicate: predicate, suffixes: suffixes)
    }

    /// Resolves a predicate; recursion depth is bounded by the parser's nesting cap.
    package func resolve(_ node: PredicateNode) throws(QueryError) -> ResolvedPredicate {
        switch node {
        case .constant(let b, _): return .constant(b)
        case .and(let ps):
            var out: [ResolvedPredicate] = []
            for p in ps { out.append(try resolve(p)) }
            return .and(out)
        case .or(let ps):
            var out: [ResolvedPredicate] = []
            for p in ps { out.append(try resolve(p)) }
            return .or(out)
        case .not(let p, _): return .not(try resolve(p))
        case .comparison(let c): return try resolve(c)
        }
    }

    // MARK: Operands

    /// An operand after binding.
    private enum Operand {
        case property(PropertySchema, position: Int)
        case constant(Value, position: Int, source: String)
        case list([(Value, source: String)], position: Int)

        var position: Int {
            switch self {
            case .property(_, let p), .constant(_, let p, _), .list(_, let p): p
            }
        }
    }

    private func operand(_ e: ExpressionNode) throws(QueryError) -> Operand {
        switch e {
        case .keyPath(let k):
            return .property(try property(k), position: k.position)
        case .literal(let v, let p):
            return .constant(v, position: p, source: literalText(v))
        case .argument(let i, let p):
            let any = try argument(i, at: p)
            switch ArgumentConversion.convert(any) {
            case .value(let v)?: return .constant(v, position: p, source: "argument \(i) (\(ArgumentConversion.describe(any)))")
            case .list(let vs)?:
                return .list(vs.map { ($0, source: "an element of argument \(i)") }, position: p)
            case nil:
                throw QueryError("argument \(i) (\(ArgumentConversion.describe(any))) has a type that cannot be used in a query",
                                 at: p)
            }
        case .list(let items, let p):
            var values: [(Value, source: String)] = []
            for item in items {
                switch try operand(item) {
                case .constant(let v, _, let source): values.append((v, source))
                case .property(_, let q): throw QueryError("a list may hold only values, not properties", at: q)
                case .list(_, let q): throw QueryError("a list may not contain another list", at: q)
                }
            }
            return .list(values, position: p)
        case .subquery(let s):
            throw QueryError("SUBQUERY is not supported yet", at: s.position)
        }
    }

    private func argument(_ i: Int, at position: Int) throws(QueryError) -> Any {
        guard i < arguments.count else {
            throw QueryError("the query uses argument \(i) but only \(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given",
                             at: position)
        }
        return arguments[i]
    }

    /// Resolves a key path to a property of this class (links, lists and collection
    /// operators come with the relationships work).
    private func property(_ k: KeyPathNode) throws(QueryError) -> PropertySchema {
        var names: [(String, Int)] = []
        for c in k.components {
            switch c {
            case .property(let n, let p): names.append((n, p))
            case .argument(let i, let p):
                guard let s = try argument(i, at: p) as? String, !s.isEmpty else {
                    throw QueryError("argument \(i) is used as a key path (%K) but is not a property name string", at: p)
                }
                for part in s.split(separator: ".", omittingEmptySubsequences: false) { names.append((String(part), p)) }
            case .variable(let n, let p):
                throw QueryError("the variable '$\(n)' is only valid inside a SUBQUERY", at: p)
            case .collectionOperator(let n, let p):
                throw QueryError("the collection operator '@\(n)' is not supported yet", at: p)
            case .backlink(_, _, let p):
                throw QueryError("backlinks (@links) are not supported yet", at: p)
            }
        }
        let (name, position) = names[0]
        guard let property = schema.property(named: name) else {
            throw QueryError(unknownProperty(name), at: position)
        }
        if names.count > 1 {
            if property.type == .link {
                throw QueryError("key paths through links ('\(names.map(\.0).joined(separator: "."))') are not supported yet",
                                 at: names[1].1)
            }
            throw QueryError("'\(name)' is \(article(property.type)), not a link, so '.\(names[1].0)' cannot follow it",
                             at: names[1].1)
        }
        return property
    }

    /// "'Dog' has no property 'nmae'; did you mean 'name'?"
    private func unknownProperty(_ name: String) -> String {
        var message = "'\(schema.name)' has no property '\(name)'"
        let lower = name.lowercased()
        var best: (String, Int)?
        for p in schema.properties {
            let d = p.name.lowercased() == lower ? 0 : editDistance(lower, p.name.lowercased())
            if d <= max(1, min(3, name.count / 3 + 1)), d < best?.1 ?? Int.max { best = (p.name, d) }
        }
        if let best { message += "; did you mean '\(best.0)'?" }
        return message
    }

    // MARK: Comparisons

    private func resolve(_ c: ComparisonNode) throws(QueryError) -> ResolvedPredicate {
        if let q = c.quantifier {
            throw QueryError("\(q.rawValue) applies to lists and to-many relationships, which are not supported yet",
                             at: c.lhs.position)
        }
        let lhs = try operand(c.lhs)
        let rhs = try operand(c.rhs)
        switch (lhs, rhs) {
        case (.property(let p, _), _):
            return try compare(p, c, rhs)
        case (_, .property(let p, let position)):
            guard c.op != .in else {
                throw QueryError("'IN' with a property on the right needs a list property, which is not supported yet",
                                 at: position)
            }
            guard !c.op.isStringOperator, c.op != .between else {
                throw QueryError("the left side of \(c.op.rawValue) must be a property", at: lhs.position)
            }
            var flipped = c
            flipped.op = c.op.mirrored
            return try compare(p, flipped, lhs)
        default:
            return .constant(try constantComparison(c, lhs, rhs))
        }
    }

    /// Checks and builds `p op[options] operand` exactly as the text form does for a
    /// comparison written with a constant, a list or another property: the same operator and
    /// type checks, the same conversion of constants to the property's type. The type-safe
    /// query API builds its predicates through this, never through query text.
    package func comparison(_ p: PropertySchema, _ op: ComparisonOperator, options: StringOptions,
                            _ operand: ResolvedOperand) throws(QueryError) -> ResolvedPredicate {
        let node = ComparisonNode(quantifier: nil, lhs: .keyPath(KeyPathNode(components: [.property(p.name, position: 0)], position: 0)),
                                  op: op, options: options, rhs: .literal(.null, position: 0), position: 0)
        let rhs: Operand
        switch operand {
        case .value(let v): rhs = .constant(v, position: 0, source: literalText(v))
        case .values(let vs): rhs = .list(vs.map { ($0, source: literalText($0)) }, position: 0)
        case .property(let q): rhs = .property(q, position: 0)
        }
        return try compare(p, node, rhs)
    }

    /// Folds a comparison between two constants, after the same checks a property would get.
    private func constantComparison(_ c: ComparisonNode, _ lhs: Operand, _ rhs: Operand) throws(QueryError) -> Bool {
        guard case .constant(let a, _, _) = lhs else { throw QueryError("a list cannot be on the left of \(c.op.rawValue)", at: lhs.position) }
        switch (c.op, rhs) {
        case (.in, .list(let items, _)):
            return items.contains { ValueSemantics.compare(a, .equal, $0.0, options: c.options) }
        case (.between, .list(let items, let p)):
            guard items.count == 2 else { throw QueryError("BETWEEN needs exactly two values, {low, high}", at: p) }
            return ValueSemantics.compare(a, .greaterOrEqual, items[0].0, options: [])
                && ValueSemantics.compare(a, .lessOrEqual, items[1].0, options: [])
        case (_, .constant(let b, _, _)):
            guard c.op != .in, c.op != .between else { throw QueryError("\(c.op.rawValue) needs a list {…} or an array argument", at: rhs.position) }
            return ValueSemantics.compare(a, c.op, b, options: c.options)
        default:
            throw QueryError("a list can only follow IN or BETWEEN", at: rhs.position)
        }
    }

    /// Checks and builds `property op operand`.
    private func compare(_ p: PropertySchema, _ c: ComparisonNode, _ rhs: Operand) throws(QueryError) -> ResolvedPredicate {
        try checkOperator(p, c)
        switch rhs {
        case .property(let q, let position):
            guard c.op != .in, c.op != .between else {
                throw QueryError("\(c.op.rawValue) needs a list {…} or an array argument, not the property '\(q.name)'", at: position)
            }
            guard comparable(p.type, q.type) else {
                throw QueryError("cannot compare '\(p.name)' (\(p.type)) with '\(q.name)' (\(q.type))", at: c.position)
            }
            if c.op.isStringOperator, q.type != .string, q.type != .data {
                throw QueryError("\(c.op.rawValue) needs a string on the right, but '\(q.name)' is \(article(q.type))", at: position)
            }
            return .comparison(ResolvedComparison(property: p, op: c.op, options: c.options, operand: .property(q)))
        case .constant(let v, let position, let source):
            guard c.op != .in, c.op != .between else {
                throw QueryError("\(c.op.rawValue) needs a list {…} or an array argument, but found \(source)", at: position)
            }
            let value = try coerce(v, to: p, op: c.op, source: source, at: position)
            return .comparison(ResolvedComparison(property: p, op: c.op, options: c.options, operand: .value(value)))
        case .list(let items, let position):
            switch c.op {
            case .in:
                var values: [Value] = []
                for (v, source) in items { values.append(try coerce(v, to: p, op: .equal, source: source, at: position)) }
                return .comparison(ResolvedComparison(property: p, op: .in, options: c.options, operand: .values(values)))
            case .between:
                guard items.count == 2 else {
                    throw QueryError("BETWEEN needs exactly two values, {low, high}, but found \(items.count)", at: position)
                }
                let low = try coerce(items[0].0, to: p, op: .greaterOrEqual, source: items[0].source, at: position)
                let high = try coerce(items[1].0, to: p, op: .lessOrEqual, source: items[1].source, at: position)
                return .comparison(ResolvedComparison(property: p, op: .between, options: [], operand: .values([low, high])))
            default:
                throw QueryError("a list {…} can only follow IN or BETWEEN, not \(c.op.rawValue)", at: position)
            }
        }
    }

    /// Whether the operator and its options apply to the property's type.
    private func checkOperator(_ p: PropertySchema, _ c: ComparisonNode) throws(QueryError) {
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

    private func comparable(_ a: PropertyType, _ b: PropertyType) -> Bool {
        a == b || (a.isNumeric && b.isNumeric) || (a == .string && b == .data) || (a == .data && b == .string)
    }

    /// Converts a constant to the property's type, or explains why it cannot be compared.
    private func coerce(_ v: Value, to p: PropertySchema, op: ComparisonOperator, source: String, at position: Int) throws(QueryError) -> Value {
        func mismatch() -> QueryError {
            QueryError("cannot compare '\(p.name)' (\(p.type)) with \(source)", at: position)
        }
        if v.isNull {
            guard op == .equal || op == .notEqual else {
                throw QueryError("'\(op.rawValue)' cannot compare '\(p.name)' with nil", at: position)
            }
            guard p.isOptional || p.type == .link else {
                throw QueryError("'\(p.name)' is not optional, so it cannot be compared with nil", at: position)
            }
            return .null
        }
        switch (p.type, v) {
        case (.int, .int): return v
        case (.int, .float), (.int, .double):
            let d = v.numeric!
            if d.rounded() == d, d >= -9.2e18, d <= 9.2e18 { return .int(Int64(d)) }
            return .double(d)
        case (.float, .int), (.float, .float), (.float, .double): return .float(Float(v.numeric!))
        case (.double, .int), (.double, .float), (.double, .double): return .double(v.numeric!)
        case (.bool, .bool), (.string, .string), (.data, .data), (.date, .date), (.uuid, .uuid): return v
        case (.data, .string(let s)): return .data(Data(s.utf8))
        case (.uuid, .string(let s)):
            guard let u = UUID(uuidString: s) else { throw mismatch() }
            return .uuid(u)
        case (.link, _):
            throw QueryError("comparing the link '\(p.name)' with a value other than nil is not supported yet", at: position)
        default:
            throw mismatch()
        }
    }
}

/// "an int", "a string", ... for messages.
func article(_ t: PropertyType) -> String {
    (t == .int ? "an " : "a ") + t.description
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var row = Array(0...y.count)
    for i in 1...x.count {
        var prev = row[0]
        row[0] = i
        for j in 1...y.count {
            let cur = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (x[i - 1] == y[j - 1] ? 0 : 1))
            prev = cur
        }
    }
    return row[y.count]
}
