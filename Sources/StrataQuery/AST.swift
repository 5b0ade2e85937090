import Foundation
import StrataStorage

/// A parsed query: a predicate and its `SORT/DISTINCT/LIMIT` suffixes, in written order.
///
/// This is the syntax tree only: names are not yet bound to properties and arguments are not
/// yet substituted (see `Resolver`). Printing it gives canonical query text, which tests use
/// to check precedence and which error reports can quote.
package struct QueryAST: Equatable, CustomStringConvertible {
    /// The filter condition.
    package var predicate: PredicateNode
    /// The suffixes, in the order written (they apply in that order).
    package var suffixes: [SuffixNode]

    /// Canonical query text.
    package var description: String {
        ([predicate.description] + suffixes.map(\.description)).joined(separator: " ")
    }
}

/// A boolean condition in the syntax tree.
package indirect enum PredicateNode: Equatable, CustomStringConvertible {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool, position: Int)
    /// Every operand holds (flattened: `a AND b AND c` is one node).
    case and([PredicateNode])
    /// At least one operand holds (flattened).
    case or([PredicateNode])
    /// The operand does not hold.
    case not(PredicateNode, position: Int)
    /// A comparison between two expressions.
    case comparison(ComparisonNode)

    /// Canonical text: fully parenthesised compound predicates.
    package var description: String {
        switch self {
        case .constant(let b, _): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let ps): return "(" + ps.map(\.description).joined(separator: " AND ") + ")"
        case .or(let ps): return "(" + ps.map(\.description).joined(separator: " OR ") + ")"
        case .not(let p, _): return "NOT \(p)"
        case .comparison(let c): return c.description
        }
    }
}

/// `ANY`/`SOME`, `ALL`, `NONE`: how a comparison over a to-many key path combines the
/// per-element results.
package enum Quantifier: String, Equatable, Sendable {
    /// `ANY`/`SOME`: at least one element matches.
    case any = "ANY"
    /// `ALL`: every element matches (true for an empty list).
    case all = "ALL"
    /// `NONE`: no element matches (true for an empty list).
    case none = "NONE"
}

/// A comparison operator.
package enum ComparisonOperator: String, Equatable, Sendable, CaseIterable {
    /// `==` or `=`.
    case equal = "=="
    /// `!=` or `<>`; matches nil.
    case notEqual = "!="
    /// `<`.
    case less = "<"
    /// `<=` or `=<`.
    case lessOrEqual = "<="
    /// `>`.
    case greater = ">"
    /// `>=` or `=>`.
    case greaterOrEqual = ">="
    /// `BETWEEN {low, high}`, inclusive.
    case between = "BETWEEN"
    /// `IN {a, b}` or `IN %@` with an array.
    case `in` = "IN"
    /// Prefix; an empty prefix matches nothing.
    case beginsWith = "BEGINSWITH"
    /// Suffix; an empty suffix matches nothing.
    case endsWith = "ENDSWITH"
    /// Substring; an empty one matches nothing.
    case contains = "CONTAINS"
    /// Wildcards: `*` any run, `?` one character.
    case like = "LIKE"

    /// Whether the operator is one of the string operators (BEGINSWITH, ENDSWITH, CONTAINS, LIKE).
    package var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like: true
        default: false
        }
    }

    /// Whether the operator orders its operands (`< <= > >=` and BETWEEN).
    package var isOrdering: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between: true
        default: false
        }
    }

    /// The operator with its operands swapped: `5 < age` is `age > 5`.
    package var mirrored: ComparisonOperator {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: self
        }
    }
}

/// The `[c]`, `[d]`, `[cd]` modifiers of a string comparison.
package struct StringOptions: OptionSet, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Bit 0: `[c]`; bit 1: `[d]`.
    package let rawValue: UInt8
    /// Options from their bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `[c]`: Unicode case folding.
    package static let caseInsensitive = StringOptions(rawValue: 1)
    /// `[d]`: diacritics removed before comparing.
    package static let diacriticInsensitive = StringOptions(rawValue: 2)

    /// `""`, `"[c]"`, `"[d]"` or `"[cd]"`.
    package var description: String {
        if isEmpty { return "" }
        return "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}

/// One comparison: `[quantifier] lhs op[options] rhs`.
package struct ComparisonNode: Equatable, CustomStringConvertible {
    /// `ANY`/`ALL`/`NONE` when written.
    package var quantifier: Quantifier?
    /// The left operand.
    package var lhs: ExpressionNode
    /// The operator.
    package var op: ComparisonOperator
    /// The string modifiers.
    package var options: StringOptions
    /// The right operand.
    package var rhs: ExpressionNode
    /// The position of the operator, where type errors about it point.
    package var position: Int

    /// Canonical text.
    package var description: String {
        let q = quantifier.map { $0.rawValue + " " } ?? ""
        return "\(q)\(lhs) \(op.rawValue)\(options) \(rhs)"
    }
}

/// An operand of a comparison.
package indirect enum ExpressionNode: Equatable, CustomStringConvertible {
    /// A property path such as `name` or `owner.name` or `dogs.@count`.
    case keyPath(KeyPathNode)
    /// A literal written in the query.
    case literal(Value, position: Int)
    /// A value argument (`%@` numbered in order of appearance, or `$n`), by index.
    case argument(Int, position: Int)
    /// A braced list `{a, b}` for IN and BETWEEN.
    case list([ExpressionNode], position: Int)
    /// `SUBQUERY(collection, $var, predicate).@count`.
    case subquery(SubqueryNode)

    /// Where the operand starts in the text.
    package var position: Int {
        switch self {
        case .keyPath(let k): k.position
        case .literal(_, let p), .argument(_, let p), .list(_, let p): p
        case .subquery(let s): s.position
        }
    }

    /// Canonical text.
    package var description: String {
        switch self {
        case .keyPath(let k): return k.description
        case .literal(let v, _): return literalText(v)
        case .argument(let i, _): return "$\(i)"
        case .list(let items, _): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .subquery(let s): return s.description
        }
    }
}

/// `SUBQUERY(collection, $variable, predicate)` followed by a collection operator (`.@count`).
package struct SubqueryNode: Equatable, CustomStringConvertible {
    /// The to-many key path the subquery ranges over.
    package var collection: KeyPathNode
    /// The variable name without `$`.
    package var variable: String
    /// The condition on each element.
    package var predicate: PredicateNode
    /// The operator applied to the matching elements (realm-core allows only `@count`/`@size`).
    package var collectionOperator: String
    /// Where `SUBQUERY` starts.
    package var position: Int

    /// Canonical text.
    package var description: String {
        "SUBQUERY(\(collection), $\(variable), \(predicate)).@\(collectionOperator)"
    }
}

/// A dotted key path: `a.b.c`, `list.@count`, `list.@sum.age`, `@links.Class.property`, `%K`,
/// `map['key']`.
package struct KeyPathNode: Equatable, CustomStringConvertible {
    /// The path's parts, in order.
    package var components: [KeyPathComponent]
    /// Where the key path starts.
    package var position: Int

    /// Canonical text.
    package var description: String {
        components.enumerated().map { i, c in
            if i == 0 { return c.description }
            if case .mapKey = c { return c.description }
            return "." + c.description
        }.joined()
    }
}

/// One part of a key path.
package enum KeyPathComponent: Equatable, CustomStringConvertible {
    /// A property name.
    case property(String, position: Int)
    /// A key-path argument (`%K`, `$Kn`) whose string value is spliced in by the resolver.
    case argument(Int, position: Int)
    /// A subquery variable (`$x`), valid only as the first component inside its SUBQUERY.
    case variable(String, position: Int)
    /// A collection operator: `@count @size @sum @avg @min @max`.
    case collectionOperator(String, position: Int)
    /// A backlink: `@links.Class.property`.
    case backlink(className: String, property: String, position: Int)
    /// The value under one key of the map before it: `stock['eggs']`.
    case mapKey(String, position: Int)

    /// Where the component starts.
    package var position: Int {
        switch self {
        case .property(_, let p), .argument(_, let p), .variable(_, let p), .collectionOperator(_, let p), .mapKey(_, let p): p
        case .backlink(_, _, let p): p
        }
    }

    /// Canonical text.
    package var description: String {
        switch self {
        case .property(let n, _): n
        case .argument(let i, _): "$K\(i)"
        case .variable(let n, _): "$" + n
        case .collectionOperator(let n, _): "@" + n
        case .backlink(let c, let p, _): "@links.\(c).\(p)"
        case .mapKey(let key, _): "[\(literalText(.string(key)))]"
        }
    }
}

/// A `SORT(...)`, `DISTINCT(...)` or `LIMIT(n)` suffix.
package enum SuffixNode: Equatable, CustomStringConvertible {
    /// Sort keys with their directions (true: ascending).
    case sort([(KeyPathNode, ascending: Bool)], position: Int)
    /// Keep the first object of each distinct combination of these key paths.
    case distinct([KeyPathNode], position: Int)
    /// Keep at most this many objects.
    case limit(Int, position: Int)

    /// Canonical text.
    package var description: String {
        switch self {
        case .sort(let keys, _): "SORT(" + keys.map { "\($0.0) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ") + ")"
        case .distinct(let keys, _): "DISTINCT(" + keys.map(\.description).joined(separator: ", ") + ")"
        case .limit(let n, _): "LIMIT(\(n))"
        }
    }

    /// Tuples are not Equatable; compare suffixes by their text and position.
    package static func == (a: SuffixNode, b: SuffixNode) -> Bool {
        switch (a, b) {
        case (.sort(let x, let p), .sort(let y, let q)):
            return p == q && x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.ascending == $1.ascending }
        case (.distinct(let x, let p), .distinct(let y, let q)): return x == y && p == q
        case (.limit(let x, let p), .limit(let y, let q)): return x == y && p == q
        default: return false
        }
    }
}

/// A value as query text: strings quoted and escaped, nil as `nil`, dates as timestamps.
package func literalText(_ v: Value) -> String {
    switch v {
    case .null: return "nil"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .float(let f): return "\(f)"
    case .double(let d): return d.isNaN ? "nan" : (d.isInfinite ? (d < 0 ? "-inf" : "inf") : "\(d)")
    case .string(let s):
        var out = "'"
        for c in s.unicodeScalars {
            switch c {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "'"
    case .data(let d): return "B64\"\(d.base64EncodedString())\""
    case .date(let d):
        let t = d.timeIntervalSince1970
        guard t.isFinite, abs(t) < 9e15 else { return "T\(t):0" }
        let s = t.rounded(.down)
        return "T\(Int64(s)):\(Int64(((t - s) * 1e9).rounded()))"
    case .uuid(let u): return "uuid(\(u.uuidString))"
    case .link(let k): return "link(\(k))"
    case .typedLink(let c, let k): return "link(\(c), \(k))"
    case .objectId(let id): return "oid(\(id.stringValue))"
    case .decimal128(let d): return d.isFinite ? d.text : "'\(d.text)'"
    }
}
