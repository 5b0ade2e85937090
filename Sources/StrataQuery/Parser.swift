import Foundation
import StrataStorage
import StrataValues

// The query grammar (NSPredicate / realm-core query-language syntax). Keywords are
// case-insensitive; `[...]` is optional, `{...}` repeats zero or more times, `|` separates
// alternatives; quoted text is literal.
//
//   query       = predicate { suffix } END
//   suffix      = "SORT" "(" sortKey { "," sortKey } ")"
//               | "DISTINCT" "(" keyPath { "," keyPath } ")"
//               | "LIMIT" "(" integer ")"
//   sortKey     = keyPath ( "ASC" | "ASCENDING" | "DESC" | "DESCENDING" )
//   predicate   = orPred
//   orPred      = andPred { ( "OR" | "||" ) andPred }
//   andPred     = notPred { ( "AND" | "&&" ) notPred }
//   notPred     = ( "NOT" | "!" ) notPred | atom
//   atom        = "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
//   comparison  = [ "ANY" | "SOME" | "ALL" | "NONE" ] expression operator [ options ] expression
//   operator    = "==" | "=" | "!=" | "<>" | "<" | "<=" | "=<" | ">" | ">=" | "=>"
//               | "BEGINSWITH" | "ENDSWITH" | "CONTAINS" | "LIKE" | "IN" | "BETWEEN"
//   options     = "[" ( "c" | "d" | "cd" | "dc" ) "]"
//   expression  = list | argument | literal | subquery | keyPath
//   list        = "{" [ expression { "," expression } ] "}"
//   argument    = "%@" | "$" digits
//   literal     = [ "-" ] number | [ "-" ] ( "inf" | "infinity" ) | "nan" | string
//               | "true" | "false" | "nil" | "null" | "uuid(" hex-uuid ")" | "B64" string
//               | "T" seconds ":" nanoseconds | YYYY-MM-DD "@" HH:MM:SS [ ":" nanoseconds ]
//   number      = digits [ "." digits ] [ exponent ] | "0x" hexdigits
//   string      = "'" { char | escape } "'" | '"' { char | escape } '"'
//   escape      = "\" ( "\" | "'" | '"' | "/" | "n" | "t" | "r" | "0" | "b" | "f" | "u" hex4 )
//   subquery    = "SUBQUERY" "(" keyPath "," variable "," predicate ")" "." ( "@count" | "@size" )
//   keyPath     = component { "." component }
//   component   = name [ "[" string "]" ] | "%K" | "$K" digits | variable | "@" name
//               | "@links" "." name "." name
//   variable    = "$" name
//
// Precedence, loosest first: OR, AND, NOT, comparison. `%@` and `%K` are numbered in order of
// appearance (from 0) and `$n`/`$Kn` name an argument explicitly; both may be mixed.

/// Turns tokens into a `QueryAST`, one function per grammar rule above.
///
/// Nesting (parentheses, NOT, lists, subqueries) is capped at `maxDepth` so hostile input
/// gets an error instead of overflowing the stack; everything else is loops. Every error
/// names what was expected and what was found, at the found token's position.
package struct Parser {
    /// How deep parentheses, NOT, lists and subqueries may nest.
    package static let maxDepth = 100

    private let tokens: [Token]
    private var index = 0
    private var depth = 0
    private var nextArgument = 0

    /// Parses a whole query.
    package static func parse(_ text: String) throws(QueryError) -> QueryAST {
        var parser = Parser(tokens: try Lexer.tokenize(text))
        return try parser.parseQuery()
    }

    private init(tokens: [Token]) { self.tokens = tokens }

    // MARK: Token helpers

    private var current: Token { tokens[index] }
    private var previous: Token? { index > 0 ? tokens[index - 1] : nil }
    private func peek(_ n: Int) -> Token { tokens[min(index + n, tokens.count - 1)] }

    private mutating func advance() -> Token {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    private mutating func acceptSymbol(_ s: String) -> Bool {
        if current.isSymbol(s) { index += 1; return true }
        return false
    }

    private mutating func acceptKeyword(_ w: String) -> Bool {
        if current.isKeyword(w) { index += 1; return true }
        return false
    }

    private mutating func expectSymbol(_ s: String, _ what: String) throws(QueryError) {
        guard acceptSymbol(s) else { throw unexpected("expected \(what)") }
    }

    /// "expected X, found Y" at the current token.
    private func unexpected(_ expected: String) -> QueryError {
        QueryError("\(expected), found \(current)", at: current.position)
    }

    private mutating func enter() throws(QueryError) {
        depth += 1
        if depth > Parser.maxDepth {
            throw QueryError("the query nests more than \(Parser.maxDepth) levels deep", at: current.position)
        }
    }

    private mutating func leave() { depth -= 1 }

    // MARK: query, suffixes

    private mutating func parseQuery() throws(QueryError) -> QueryAST {
        if case .end = current.kind { throw QueryError("the query is empty", at: 0) }
        let predicate = try parsePredicate()
        var suffixes: [SuffixNode] = []
        while let suffix = try parseSuffix() { suffixes.append(suffix) }
        guard case .end = current.kind else {
            throw unexpected("expected AND, OR, SORT, DISTINCT, LIMIT or the end of the query")
        }
        return QueryAST(predicate: predicate, suffixes: suffixes)
    }

    private mutating func parseSuffix() throws(QueryError) -> SuffixNode? {
        let start = current.position
        guard peek(1).isSymbol("(") else { return nil }
        if acceptKeyword("SORT") {
            index += 1
            var keys: [(KeyPathNode, ascending: Bool)] = []
            repeat {
                let key = try parseKeyPath()
                let ascending: Bool
                if acceptKeyword("ASC") || acceptKeyword("ASCENDING") { ascending = true }
                else if acceptKeyword("DESC") || acceptKeyword("DESCENDING") { ascending = false }
                else { throw unexpected("expected ASC or DESC after the sort key '\(key)'") }
                keys.append((key, ascending))
            } while acceptSymbol(",")
            try expectSymbol(")", "',' or ')' in SORT")
            return .sort(keys, position: start)
        }
        if acceptKeyword("DISTINCT") {
            index += 1
            var keys: [KeyPathNode] = []
            repeat { keys.append(try parseKeyPath()) } while acceptSymbol(",")
            try expectSymbol(")", "',' or ')' in DISTINCT")
            return .distinct(keys, position: start)
        }
        if acceptKeyword("LIMIT") {
            index += 1
            guard case .literal(.int(let n)) = current.kind, n >= 0, n <= Int64(Int.max) else {
                throw unexpected("expected a non-negative integer in LIMIT")
            }
            index += 1
            try expectSymbol(")", "')' after the LIMIT count")
            return .limit(Int(n), position: start)
        }
        return nil
    }

    // MARK: predicates

    private mutating func parsePredicate() throws(QueryError) -> PredicateNode {
        try parseOr()
    }

    private mutating func parseOr() throws(QueryError) -> PredicateNode {
        var operands = [try parseAnd()]
        while acceptKeyword("OR") || acceptSymbol("||") { operands.append(try parseAnd()) }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(QueryError) -> PredicateNode {
        var operands = [try parseNot()]
        while acceptKeyword("AND") || acceptSymbol("&&") { operands.append(try parseNot()) }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseNot() throws(QueryError) -> PredicateNode {
        let start = current.position
        if current.isKeyword("NOT") || current.isSymbol("!") {
            try enter()
            defer { leave() }
            index += 1
            return .not(try parseNot(), position: start)
        }
        return try parseAtom()
    }

    private mutating func parseAtom() throws(QueryError) -> PredicateNode {
        let start = current.position
        if current.isSymbol("(") {
            try enter()
            defer { leave() }
            index += 1
            let inner = try parsePredicate()
            try expectSymbol(")", "')' to close the '(' at position \(start)")
            return inner
        }
        if acceptKeyword("TRUEPREDICATE") { return .constant(true, position: start) }
        if acceptKeyword("FALSEPREDICATE") { return .constant(false, position: start) }
        return .comparison(try parseComparison())
    }

    private mutating func parseComparison() throws(QueryError) -> ComparisonNode {
        var quantifier: Quantifier?
        if !peek(1).isSymbol(".") && !isOperatorStart(peek(1)) {
            if acceptKeyword("ANY") || acceptKeyword("SOME") { quantifier = .any }
            else if acceptKeyword("ALL") { quantifier = .all }
            else if acceptKeyword("NONE") { quantifier = Quantifier.none }
        }
        if case .end = current.kind { throw unexpected("expected a predicate") }
        let lhs = try parseExpression(context: "a predicate")
        let opToken = current
        guard let op = parseOperator() else {
            throw unexpected("expected a comparison operator after '\(lhs)'")
        }
        let options = try parseOptions()
        let rhs = try parseExpression(context: "a value after '\(opToken.text)'")
        return ComparisonNode(quantifier: quantifier, lhs: lhs, op: op, options: options, rhs: rhs,
                              position: opToken.position)
    }

    private func isOperatorStart(_ t: Token) -> Bool {
        if case .symbol(let s) = t.kind { return ["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>"].contains(s) }
        return ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN", "BETWEEN", "GEOWITHIN"].contains { t.isKeyword($0) }
    }

    private mutating func parseOperator() -> ComparisonOperator? {
        let t = current
        let op: ComparisonOperator?
        switch t.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .identifier:
            // `GEOWITHIN` is `IN` with a region argument (the resolver tells them apart).
            op = t.isKeyword("GEOWITHIN") ? .in : [ComparisonOperator.beginsWith, .endsWith, .contains, .like, .in, .between]
                .first { t.isKeyword($0.rawValue) }
        default: op = nil
        }
        if op != nil { index += 1 }
        return op
    }

    private mutating func parseOptions() throws(QueryError) -> StringOptions {
        guard acceptSymbol("[") else { return [] }
        guard case .identifier(let word) = current.kind else { throw unexpected("expected c, d or cd inside '[ ]'") }
        var options: StringOptions = []
        for ch in word.lowercased() {
            switch ch {
            case "c" where !options.contains(.caseInsensitive): options.insert(.caseInsensitive)
            case "d" where !options.contains(.diacriticInsensitive): options.insert(.diacriticInsensitive)
            default: throw QueryError("unknown comparison option '\(word)'; expected c, d or cd", at: current.position)
            }
        }
        index += 1
        try expectSymbol("]", "']' after the comparison options")
        return options
    }

    // MARK: expressions

    private mutating func parseExpression(context: String) throws(QueryError) -> ExpressionNode {
        let t = current
        switch t.kind {
        case .symbol("{"):
            return try parseList()
        case .symbol("-"):
            index += 1
            switch current.kind {
            case .literal(.int(let i)) where i != Int64.min:
                index += 1
                return .literal(.int(-i), position: t.position)
            case .literal(.double(let d)):
                index += 1
                return .literal(.double(-d), position: t.position)
            case .literal(.decimal128(let d)):
                index += 1
                return .literal(.decimal128(d.negated), position: t.position)
            case .identifier(let w) where ["inf", "infinity"].contains(w.lowercased()):
                index += 1
                return .literal(.double(-.infinity), position: t.position)
            default:
                throw unexpected("expected a number after '-'")
            }
        case .literal(let v):
            index += 1
            return .literal(v, position: t.position)
        case .argument(let explicit):
            index += 1
            return .argument(argumentIndex(explicit), position: t.position)
        case .identifier(let w):
            switch w.lowercased() {
            case "true": index += 1; return .literal(.bool(true), position: t.position)
            case "false": index += 1; return .literal(.bool(false), position: t.position)
            case "nil", "null": index += 1; return .literal(.null, position: t.position)
            case "inf", "infinity": index += 1; return .literal(.double(.infinity), position: t.position)
            case "nan": index += 1; return .literal(.double(.nan), position: t.position)
            case "subquery" where peek(1).isSymbol("("): return .subquery(try parseSubquery())
            default: return .keyPath(try parseKeyPath())
            }
        case .keyPathArgument, .atIdentifier, .variable:
            return .keyPath(try parseKeyPath())
        default:
            throw unexpected("expected \(context)")
        }
    }

    /// `%@`/`%K` take the next index in order of appearance; `$n` its own.
    private mutating func argumentIndex(_ explicit: Int?) -> Int {
        if let explicit { return explicit }
        defer { nextArgument += 1 }
        return nextArgument
    }

    private mutating func parseList() throws(QueryError) -> ExpressionNode {
        let start = current.position
        try enter()
        defer { leave() }
        index += 1
        var items: [ExpressionNode] = []
        if acceptSymbol("}") { return .list(items, position: start) }
        repeat { items.append(try parseExpression(context: "a value in the list")) } while acceptSymbol(",")
        try expectSymbol("}", "',' or '}' in the list that starts at position \(start)")
        return .list(items, position: start)
    }

    private mutating func parseSubquery() throws(QueryError) -> SubqueryNode {
        let start = current.position
        try enter()
        defer { leave() }
        index += 2
        let collection = try parseKeyPath()
        try expectSymbol(",", "',' after the SUBQUERY collection")
        guard case .variable(let name) = current.kind else { throw unexpected("expected a variable such as $x") }
        index += 1
        try expectSymbol(",", "',' after the SUBQUERY variable")
        let predicate = try parsePredicate()
        try expectSymbol(")", "')' to close SUBQUERY")
        try expectSymbol(".", "'.@count' after SUBQUERY(...)")
        guard case .atIdentifier(let op) = current.kind, ["count", "size"].contains(op.lowercased()) else {
            throw unexpected("expected '@count' after SUBQUERY(...)")
        }
        index += 1
        return SubqueryNode(collection: collection, variable: name, predicate: predicate,
                            collectionOperator: op.lowercased(), position: start)
    }

    // MARK: key paths

    private mutating func parseKeyPath() throws(QueryError) -> KeyPathNode {
        let start = current.position
        var components: [KeyPathComponent] = []
        repeat {
            let t = current
            switch t.kind {
            case .identifier(let name):
                index += 1
                components.append(.property(name, position: t.position))
                if case .symbol("[") = current.kind {
                    // `map['key']`: the value under one key of a map.
                    let at = current.position
                    index += 1
                    guard case .literal(.string(let key)) = current.kind else {
                        throw unexpected("expected a string key after '\(name)[' (such as \(name)['key'])")
                    }
                    index += 1
                    try expectSymbol("]", "']' after the map key")
                    components.append(.mapKey(key, position: at))
                }
            case .keyPathArgument(let explicit):
                index += 1
                components.append(.argument(argumentIndex(explicit), position: t.position))
            case .variable(let name) where components.isEmpty:
                index += 1
                components.append(.variable(name, position: t.position))
            case .atIdentifier(let name) where name.lowercased() == "links":
                index += 1
                try expectSymbol(".", "'.' and a class name after '@links'")
                guard case .identifier(let className) = current.kind else { throw unexpected("expected a class name after '@links.'") }
                index += 1
                try expectSymbol(".", "'.' and a property name after '@links.\(className)'")
                guard case .identifier(let property) = current.kind else {
                    throw unexpected("expected a property name after '@links.\(className).'")
                }
                index += 1
                components.append(.backlink(className: className, property: property, position: t.position))
            case .atIdentifier(let name):
                // `@allKeys` and `@allValues` are Realm's other names of `@keys` and `@values`.
                let op = ["allkeys": "keys", "allvalues": "values"][name.lowercased()] ?? name.lowercased()
                guard ["count", "size", "sum", "avg", "min", "max", "keys", "values"].contains(op) else {
                    throw QueryError("unknown collection operator '@\(name)'; expected @count, @size, @sum, @avg, @min, @max, @keys or @values",
                                     at: t.position)
                }
                index += 1
                components.append(.collectionOperator(op, position: t.position))
            default:
                throw unexpected(components.isEmpty ? "expected a property name" : "expected a property name after '.'")
            }
        } while acceptSymbol(".")
        return KeyPathNode(components: components, position: start)
    }
}
