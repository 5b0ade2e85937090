import Foundation
import StrataStorage

// Key paths: property names, relationships, inverse relationships, collection operators
// and SUBQUERY variables, bound to the classes they reach.

extension Resolver {
    /// One part of a key path after `%K` arguments are spliced in.
    enum Part {
        case name(String, Int)
        case backlink(String, String, Int)
        case collectionOperator(String, Int)
        case variable(String, Int)
        case mapKey(String, Int)
    }

    /// Resolves a key path: property names, to-one links, inverse relationships
    /// (`LinkingObjects` names or `@links.Class.property`), collection operators, and a
    /// SUBQUERY variable at the start.
    func path(_ k: KeyPathNode) throws(QueryError) -> ResolvedPath {
        var parts: [Part] = []
        for c in k.components {
            switch c {
            case .property(let n, let p): parts.append(.name(n, p))
            case .argument(let i, let p):
                guard let s = try argument(i, at: p) as? String, !s.isEmpty else {
                    throw QueryError("argument \(i) is used as a key path (%K) but is not a property name string", at: p)
                }
                for part in s.split(separator: ".", omittingEmptySubsequences: false) {
                    if part.hasPrefix("@"), part.count > 1 {
                        parts.append(.collectionOperator(String(part.dropFirst()).lowercased(), p))
                    } else {
                        parts.append(.name(String(part), p))
                    }
                }
            case .variable(let n, let p): parts.append(.variable(n, p))
            case .collectionOperator(let n, let p): parts.append(.collectionOperator(n, p))
            case .backlink(let c, let q, let p): parts.append(.backlink(c, q, p))
            case .mapKey(let key, let p): parts.append(.mapKey(key, p))
            }
        }
        var current = schema
        var steps: [LinkStep] = []
        var i = 0
        if case .variable(let n, let p) = parts[0] {
            guard let scope, scope.variable == n else {
                throw QueryError("the variable '$\(n)' is only valid inside a SUBQUERY that declares it", at: p)
            }
            if let element = scope.element {
                guard parts.count == 1 else {
                    throw QueryError("'$\(n)' is one value of the list '\(element.name)', so nothing can follow it", at: p)
                }
                return ResolvedPath(steps: [], end: .property(element), written: k)
            }
            current = scope.schema
            i = 1
        } else if let scope {
            // realm-core reads a key path without the variable on the SUBQUERY's objects too.
            if let element = scope.element {
                throw QueryError("inside a SUBQUERY over the list '\(element.name)', '$\(scope.variable)' stands for each value; a key path cannot name a property there",
                                 at: k.position)
            }
            current = scope.schema
        }
        while i < parts.count {
            let isLast = i == parts.count - 1
            switch parts[i] {
            case .name(let n, let position):
                if var p = current.property(named: n) {
                    if p.isList {
                        var isLast = isLast
                        if !isLast, case .mapKey(let key, let q) = parts[i + 1] {
                            // `map['key']`: the value under that key (null when it is missing).
                            guard p.isMap else { throw QueryError("'\(n)' is not a map, so '[\(literalText(.string(key)))]' cannot follow it", at: q) }
                            p = p.mapEntry(key)
                            parts.remove(at: i + 1)
                            isLast = i == parts.count - 1
                        } else if !isLast, case .collectionOperator(let op, let q) = parts[i + 1], op == "keys" || op == "values" {
                            // `map.@values` is the map's values, `map.@keys` its keys.
                            guard p.isMap else { throw QueryError("'@\(op)' needs a map before it, but '\(n)' is not a map", at: q) }
                            if op == "keys" { p = p.mapKeys }
                            parts.remove(at: i + 1)
                            isLast = i == parts.count - 1
                        }
                        let step = LinkStep.list(owner: current.name, property: p)
                        steps.append(step)
                        if let element = step.element {
                            // A list of values yields values: only a collection operator may follow.
                            if isLast { return ResolvedPath(steps: steps, end: .values(element), written: k) }
                            guard case .collectionOperator = parts[i + 1] else {
                                throw QueryError("'\(n)' is a list of \(p.type) values, so only a collection operator (@count, @sum, @avg, @min, @max) may follow it",
                                                 at: position)
                            }
                        } else {
                            current = try classSchema(p.linkTarget ?? "", at: position)
                        }
                        i += 1
                        continue
                    }
                    if isLast { return ResolvedPath(steps: steps, end: .property(p), written: k) }
                    guard p.type == .link else {
                        switch parts[i + 1] {
                        case .name(let next, let q):
                            throw QueryError("'\(n)' is \(article(p.type)), not a link, so '.\(next)' cannot follow it", at: q)
                        case .collectionOperator(let op, let q):
                            throw QueryError("the collection operator '@\(op)' needs a to-many relationship (a list or linking objects) before it, but '\(n)' is \(article(p.type))", at: q)
                        case .backlink(_, _, let q), .variable(_, let q):
                            throw QueryError("'\(n)' is \(article(p.type)), not a link", at: q)
                        case .mapKey(let key, let q):
                            throw QueryError("'\(n)' is \(article(p.type)), not a map, so '[\(literalText(.string(key)))]' cannot follow it", at: q)
                        }
                    }
                    steps.append(.link(p))
                    current = try classSchema(p.linkTarget ?? "", at: position)
                } else if let inverse = classes.inverses(of: current.name)?.first(where: { $0.name == n }) {
                    let origin = try classSchema(inverse.originClass, at: position)
                    guard let p = origin.property(named: inverse.originProperty), p.type == .link, p.linkTarget == current.name else {
                        throw QueryError("'\(current.name).\(n)' is the inverse of '\(inverse.originClass).\(inverse.originProperty)', which is not a link to '\(current.name)'", at: position)
                    }
                    steps.append(.backlinks(origin: origin.name, property: p, name: n))
                    current = origin
                } else {
                    throw QueryError(unknownProperty(n, in: current), at: position)
                }
            case .backlink(let className, let propertyName, let position):
                let origin = try classSchema(className, at: position)
                guard let p = origin.property(named: propertyName) else {
                    throw QueryError(unknownProperty(propertyName, in: origin), at: position)
                }
                guard p.type == .link, p.linkTarget == current.name else {
                    throw QueryError("'@links.\(className).\(propertyName)' needs '\(className).\(propertyName)' to be a link to '\(current.name)'", at: position)
                }
                steps.append(.backlinks(origin: className, property: p, name: nil))
                current = origin
            case .mapKey(let key, let position):
                throw QueryError("'[\(literalText(.string(key)))]' needs a map property before it", at: position)
            case .collectionOperator(let op, let position):
                if op == "keys" || op == "values" { throw QueryError("'@\(op)' needs a map before it", at: position) }
                guard steps.contains(where: \.isToMany) else {
                    throw QueryError("the collection operator '@\(op)' needs a to-many relationship (a list or linking objects) before it", at: position)
                }
                if op == "count" || op == "size" {
                    guard isLast else { throw QueryError("nothing can follow '@\(op)'", at: position) }
                    return ResolvedPath(steps: steps, end: .aggregate(.count), written: k)
                }
                let n: String, q: Int, p: PropertySchema
                if let element = steps.last?.element {
                    // `scores.@sum`: the list's own values.
                    guard isLast else { throw QueryError("nothing can follow '@\(op)' on the list of values '\(element.name)'", at: position) }
                    (n, q, p) = (element.name, position, element)
                } else {
                    guard i == parts.count - 2, case .name(let name, let at) = parts[i + 1] else {
                        throw QueryError("'@\(op)' must be followed by one property of '\(current.name)', such as '@\(op).age'", at: position)
                    }
                    guard let property = current.property(named: name) else { throw QueryError(unknownProperty(name, in: current), at: at) }
                    (n, q, p) = (name, at, property)
                }
                let function: AggregateFunction
                switch op {
                case "sum": function = .sum(p)
                case "avg": function = .avg(p)
                case "min": function = .min(p)
                default: function = .max(p)
                }
                let allowed = (op == "sum" || op == "avg") ? p.type.isNumeric : (p.type.isNumeric || p.type == .date)
                guard allowed else {
                    throw QueryError("'@\(op)' needs a \(op == "sum" || op == "avg" ? "numeric" : "numeric or date") property, but '\(n)' is \(article(p.type))", at: q)
                }
                return ResolvedPath(steps: steps, end: .aggregate(function), written: k)
            case .variable(let n, let position):
                throw QueryError("the variable '$\(n)' can only start a key path", at: position)
            }
            i += 1
        }
        return ResolvedPath(steps: steps, end: .objects, written: k)
    }

    /// The schema of a class reached through a relationship.
    func classSchema(_ name: String, at position: Int) throws(QueryError) -> ClassSchema {
        guard let s = classes.schema(named: name) else { throw QueryError("the class '\(name)' is not in this Realm's schema", at: position) }
        return s
    }

    /// A `SORT` or `DISTINCT` key: a property of the class, or of a class reached through
    /// to-one links (a link itself may be a DISTINCT key, not a sort key).
    func propertyPath(_ k: KeyPathNode, sorting: Bool) throws(QueryError) -> PropertyPath {
        let path = try self.path(k)
        guard case .property(let p) = path.end, !path.isToMany, !(sorting && p.type == .link) else {
            let (verb, use) = sorting ? ("sort on", "sort") : ("use DISTINCT on", "DISTINCT")
            throw QueryError("cannot \(verb) '\(k)': a \(use) key must be a property, reached through to-one links only", at: k.position)
        }
        return PropertyPath(property: p, path: path.steps)
    }

    /// The SORT (`sorting`) or DISTINCT key for a key path written as text
    /// (`sorted(byKeyPath: "owner.name")`, `distinct(by: ["owner.name"])`).
    package func propertyPath(_ keyPath: String, sorting: Bool) throws(QueryError) -> PropertyPath {
        var components: [KeyPathComponent] = []
        var offset = 0
        for part in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            components.append(.property(String(part), position: offset))
            offset += part.count + 1
        }
        return try propertyPath(KeyPathNode(components: components, position: 0), sorting: sorting)
    }

    /// "'Dog' has no property 'nmae'; did you mean 'name'?"
    func unknownProperty(_ name: String, in schema: ClassSchema) -> String {
        var message = "'\(schema.name)' has no property '\(name)'"
        let lower = name.lowercased()
        var best: (String, Int)?
        let names = schema.properties.map(\.name) + (classes.inverses(of: schema.name)?.map(\.name) ?? [])
        for candidate in names {
            let d = candidate.lowercased() == lower ? 0 : editDistance(lower, candidate.lowercased())
            if d <= max(1, min(3, name.count / 3 + 1)), d < best?.1 ?? Int.max { best = (candidate, d) }
        }
        if let best { message += "; did you mean '\(best.0)'?" }
        return message
    }
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
