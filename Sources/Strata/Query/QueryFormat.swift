import Foundation

/// A type-safe query expression in RealmSwift's shape, kept beside the resolved one so that
/// `_constructPredicate()` gives the predicate format and arguments RealmSwift gives for the
/// same expression (its tests compare them): `(intCol > %@)` with `[6]`,
/// `((intCol >= %@) && (intCol < %@))`, `(%@ IN ANY list)`, `SUBQUERY(list, $col1, …).@count`.
/// It only renders; the resolved predicate is what queries run.
indirect enum QueryFormat {
    /// `!`.
    case not(QueryFormat)
    /// A value, rendered `%@` with the value as its argument (`NSNull` for nil).
    case constant(Any?)
    /// Names from the object (`dogs.age`); a collection's marked, and `ANY` before one
    /// compared element by element.
    case keyPath([String], isCollection: Bool, requiresAny: Bool)
    /// `(lhs op[options] rhs)`; `&&` and `||` join conditions.
    case comparison(String, QueryFormat, QueryFormat, options: StringOptions)
    /// `(lhs BETWEEN {low, high})`.
    case between(QueryFormat, QueryFormat, QueryFormat)
    /// `SUBQUERY(collection, $colN, condition).@count`.
    case subqueryCount(QueryFormat)
    /// `map[%@]` with the key as argument.
    case mapSubscript(QueryFormat, key: Any)
    /// A member of what a map subscript reads (`pets[%@].name`; RealmSwift refuses it).
    case member(QueryFormat, String)

    /// The object itself (`$0`).
    static let root = QueryFormat.keyPath([], isCollection: false, requiresAny: false)

    /// `self` followed by the property `name` (a collection: `ANY` once compared).
    func appending(_ name: String, collection: Bool = false) -> QueryFormat {
        guard case .keyPath(let names, let isCollection, let requiresAny) = self else { return .member(self, name) }
        return .keyPath(names + [name], isCollection: isCollection || collection, requiresAny: requiresAny || collection)
    }

    /// `self` read as a whole (no `ANY`), followed by `name` when given (`list.@count`).
    func wholeCollection(appending name: String? = nil) -> QueryFormat {
        guard case .keyPath(let names, let isCollection, _) = self else { return name.map { .member(self, $0) } ?? self }
        return .keyPath(names + (name.map { [$0] } ?? []), isCollection: isCollection, requiresAny: false)
    }

    /// A collection operator over a property of a collection's objects: after the collection
    /// (`dogs.@min.age`).
    func aggregated(_ function: String) -> QueryFormat {
        guard case .keyPath(var names, let isCollection, _) = self else { return .member(self, function) }
        if names.count > 1 { names.insert(function, at: 1) } else { names.append(function) }
        return .keyPath(names, isCollection: isCollection, requiresAny: false)
    }

    /// RealmSwift's predicate format and its arguments.
    var predicate: (String, [Any]) {
        var renderer = QueryFormatRenderer()
        renderer.render(self, startsCondition: true)
        return (renderer.text, renderer.arguments)
    }
}

/// Writes a `QueryFormat` as RealmSwift's `buildPredicate` does.
private struct QueryFormatRenderer {
    var text = ""
    var arguments: [Any] = []
    /// Subqueries met so far: each names its element `$colN`.
    var subqueries = 0

    mutating func render(_ node: QueryFormat, prefix: String? = nil, startsCondition: Bool = false) {
        switch node {
        case .constant(let value):
            text += "%@"
            arguments.append(value.map(Self.argument) ?? NSNull())
        case .keyPath(let names, _, let requiresAny):
            if startsCondition {
                // A bool property on its own is a condition.
                text += names.joined(separator: ".") + " == true"
                return
            }
            if requiresAny { text += "ANY " }
            text += names.joined(separator: ".")
        case .not(let child):
            if case .keyPath(let names, _, _) = child, startsCondition {
                text += names.joined(separator: ".") + " == false"
                return
            }
            render(child, prefix: "NOT ")
        case .comparison(let op, let lhs, let rhs, let options):
            if op == "&&" || op == "||" {
                text += prefix ?? ""
                text += "("
                render(lhs, startsCondition: true)
                text += " \(op) "
                render(rhs, startsCondition: true)
                text += ")"
            } else {
                text += "("
                text += prefix ?? ""
                render(lhs)
                text += " \(op)\(Self.suffix(options)) "
                render(rhs)
                text += ")"
            }
        case .between(let lhs, let low, let high):
            text += "("
            render(lhs)
            text += " BETWEEN {"
            render(low)
            text += ", "
            render(high)
            text += "})"
        case .subqueryCount(let inner):
            subqueries += 1
            let variable = "$col\(subqueries)"
            var collection: String?
            let rewritten = Self.rewrite(inner, variable, &collection)
            text += "SUBQUERY(\(collection ?? ""), \(variable), "
            render(rewritten)
            text += ").@count"
        case .mapSubscript(let map, let key):
            render(map)
            text += "[%@]"
            arguments.append(Self.argument(key))
        case .member(let base, let name):
            render(base)
            text += ".\(name)"
        }
    }

    /// `[c]`, `[d]`, `[cd]` or nothing.
    private static func suffix(_ options: StringOptions) -> String {
        if options.isEmpty { return "" }
        return "[\(options.contains(.caseInsensitive) ? "c" : "")\(options.contains(.diacriticInsensitive) ? "d" : "")]"
    }

    /// A subquery's condition with its collection's name replaced by `variable` (the first
    /// collection met names the subquery's collection).
    private static func rewrite(_ node: QueryFormat, _ variable: String, _ collection: inout String?) -> QueryFormat {
        switch node {
        case .keyPath(var names, true, _) where !names.isEmpty:
            collection = names[0]
            names[0] = variable
            return .keyPath(names, isCollection: true, requiresAny: false)
        case .not(let child):
            return .not(rewrite(child, variable, &collection))
        case .comparison(let op, let lhs, let rhs, let options):
            return .comparison(op, rewrite(lhs, variable, &collection), rewrite(rhs, variable, &collection), options: options)
        case .between(let lhs, let low, let high):
            return .between(rewrite(lhs, variable, &collection), rewrite(low, variable, &collection), rewrite(high, variable, &collection))
        default:
            return node
        }
    }

    /// A value as RealmSwift hands it to `NSPredicate`: an optional unwrapped, nil as `NSNull`.
    private static func argument(_ value: Any) -> Any {
        ValueConversion.flatten(value) ?? NSNull()
    }
}
