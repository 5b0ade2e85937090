import Foundation
import StrataStorage
import StrataValues

/// Binds a parsed query to a class: key paths to properties, arguments to values, and checks
/// that every operator applies to its operands' types.
///
/// Comparisons are normalised so the property is on the left (`5 < age` becomes `age > 5`),
/// constants are converted to the property's type where that is exact (`age == 8.0` becomes
/// `age == 8`), and comparisons between two constants are folded to TRUE/FALSE.
package struct Resolver {
    private let schema: ClassSchema
    private let arguments: [Any]
    /// The classes reachable through relationships (and their inverse relationships).
    private let classes: ReachableClasses
    /// Inside a SUBQUERY: its variable and the class of the objects it ranges over, or the
    /// element of the list of values it ranges over (`$t` in `SUBQUERY(tags, $t, …)`).
    private let scope: (variable: String, schema: ClassSchema, element: PropertySchema?)?
    /// Watches what becomes of the arguments, when the query is being prepared.
    private let recorder: ArgumentRecorder?

    /// A resolver for queries on `schema` with `arguments` for `%@`/`%K`/`$n`; key paths
    /// through relationships reach the classes of `lookup` (without it, only the class's
    /// own properties can be named).
    package init(schema: ClassSchema, arguments: [Any], lookup: (any SchemaLookupSource)? = nil) {
        self.init(schema: schema, arguments: arguments, classes: lookup.map { ReachableClasses(of: schema, from: $0) }, recorder: nil)
    }

    /// A resolver that reaches other classes through `classes` (nil: none), which tells
    /// afterwards whether it did. `recorder` learns where the arguments went (`PreparedQuery`).
    init(schema: ClassSchema, arguments: [Any], classes: ReachableClasses? = nil, recorder: ArgumentRecorder?) {
        self.schema = schema
        self.arguments = arguments
        self.recorder = recorder
        self.classes = classes ?? ReachableClasses(of: schema, from: SchemaLookup(schema))
        scope = nil
    }

    private init(subquery variable: String, of schema: ClassSchema, element: PropertySchema? = nil, _ parent: Resolver) {
        self.schema = schema
        arguments = parent.arguments
        classes = parent.classes
        recorder = parent.recorder
        scope = (variable, schema, element)
    }

    /// Resolves a whole query.
    package func resolve(_ ast: QueryAST) throws(QueryError) -> ResolvedQuery {
        let predicate = try resolve(ast.predicate)
        var suffixes: [ResolvedSuffix] = []
        for suffix in ast.suffixes {
            switch suffix {
            case .sort(let keys, _):
                var resolved: [SortKey] = []
                for (key, ascending) in keys {
                    let target = try propertyPath(key, sorting: true)
                    resolved.append(SortKey(property: target.property, ascending: ascending, path: target.path))
                }
                suffixes.append(.sort(resolved))
            case .distinct(let keys, _):
                var resolved: [PropertyPath] = []
                for key in keys { resolved.append(try propertyPath(key, sorting: false)) }
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
    enum Operand {
        case path(ResolvedPath, position: Int)
        case constant(Value, position: Int, source: OperandSource)
        case list([(Value, source: OperandSource)], position: Int)
        /// A managed (or unmanaged) object given as an argument.
        case object(ObjectArgument, position: Int, source: OperandSource)
        /// A collection of objects given as an argument (for IN).
        case objects([ObjectArgument], position: Int, source: OperandSource)

        var position: Int {
            switch self {
            case .path(_, let p), .constant(_, let p, _), .list(_, let p), .object(_, let p, _), .objects(_, let p, _): p
            }
        }
    }

    /// A key path after binding: the relationship steps, then what it ends at.
    struct ResolvedPath {
        enum End {
            /// A property of the last class (a link property too: `owner == nil`).
            case property(PropertySchema)
            /// The objects themselves (a to-many step, or a SUBQUERY variable on its own).
            case objects
            /// A collection operator over the objects (`@count`, `@sum.age`), or over the
            /// values of a list of values (`tags.@count`, `scores.@sum`).
            case aggregate(AggregateFunction)
            /// The elements of a list of values (`tags`), as the property they are compared as.
            case values(PropertySchema)
        }
        var steps: [LinkStep]
        var end: End
        /// SUBQUERY's condition and variable.
        var filter: ResolvedPredicate?
        var variable: String?
        /// The key path (or SUBQUERY) as written, for messages: kept as the node, and made
        /// into text only when a message needs it.
        var written: any CustomStringConvertible
        var text: String { written.description }

        var isToMany: Bool { steps.contains(where: \.isToMany) }
        var targetClass: String? { steps.last?.targetClass }
    }

    private func operand(_ e: ExpressionNode) throws(QueryError) -> Operand {
        switch e {
        case .keyPath(let k):
            return .path(try path(k), position: k.position)
        case .literal(let v, let p):
            return .constant(v, position: p, source: .literal(v))
        case .argument(let i, let p):
            let any = try argument(i, at: p)
            if type(of: any) == ObjectArgument.self, let object = any as? ObjectArgument {
                return .object(object, position: p, source: .text("argument \(i) (\(object.className) object)"))
            }
            if type(of: any) == [ObjectArgument].self, let objects = any as? [ObjectArgument] {
                return .objects(objects, position: p, source: .text("argument \(i) (\(objects.count) objects)"))
            }
            switch ArgumentConversion.convert(any) {
            case .value(let v)?: return .constant(v, position: p, source: .argument(i, any))
            case .list(let vs)?:
                return .list(vs.map { ($0, source: .element(i)) }, position: p)
            case nil:
                throw QueryError("argument \(i) (\(ArgumentConversion.describe(any))) has a type that cannot be used in a query",
                                 at: p)
            }
        case .list(let items, let p):
            var values: [(Value, source: OperandSource)] = []
            for item in items {
                switch try operand(item) {
                case .constant(let v, _, let source): values.append((v, source))
                case .path(_, let q): throw QueryError("a list may hold only values, not properties", at: q)
                case .list(_, let q): throw QueryError("a list may not contain another list", at: q)
                case .object(_, let q, _), .objects(_, let q, _): throw QueryError("a list {…} may hold only values; pass objects as an array argument", at: q)
                }
            }
            return .list(values, position: p)
        case .subquery(let s):
            let collection = try path(s.collection)
            if case .values(let element) = collection.end {
                // `SUBQUERY(tags, $t, $t BEGINSWITH 'a')`: `$t` is one element of the list.
                let inner = try Resolver(subquery: s.variable, of: schema, element: element, self).resolve(s.predicate)
                return .path(ResolvedPath(steps: collection.steps, end: .aggregate(.count), filter: inner, variable: s.variable,
                                          written: s), position: s.position)
            }
            guard case .objects = collection.end, collection.isToMany, let target = collection.targetClass,
                  let targetSchema = classes.schema(named: target) else {
                throw QueryError("SUBQUERY needs a to-many relationship (a list or linking objects), but '\(s.collection)' is not one",
                                 at: s.collection.position)
            }
            let inner = try Resolver(subquery: s.variable, of: targetSchema, self).resolve(s.predicate)
            return .path(ResolvedPath(steps: collection.steps, end: .aggregate(.count), filter: inner, variable: s.variable,
                                      written: s), position: s.position)
        }
    }

    private func argument(_ i: Int, at position: Int) throws(QueryError) -> Any {
        guard i < arguments.count else {
            throw QueryError("the query uses argument \(i) but only \(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given",
                             at: position)
        }
        recorder?.read(i)
        return arguments[i]
    }

    /// One part of a key path after `%K` arguments are spliced in.
    private enum Part {
        case name(String, Int)
        case backlink(String, String, Int)
        case collectionOperator(String, Int)
        case variable(String, Int)
    }

    /// Resolves a key path: property names, to-one links, inverse relationships
    /// (`LinkingObjects` names or `@links.Class.property`), collection operators, and a
    /// SUBQUERY variable at the start.
    private func path(_ k: KeyPathNode) throws(QueryError) -> ResolvedPath {
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
            throw QueryError("inside the SUBQUERY, key paths must start with its variable '$\(scope.variable)'", at: k.position)
        }
        while i < parts.count {
            let isLast = i == parts.count - 1
            switch parts[i] {
            case .name(let n, let position):
                if let p = current.property(named: n) {
                    if p.isList {
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
            case .collectionOperator(let op, let position):
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
    private func classSchema(_ name: String, at position: Int) throws(QueryError) -> ClassSchema {
        guard let s = classes.schema(named: name) else { throw QueryError("the class '\(name)' is not in this Realm's schema", at: position) }
        return s
    }

    /// A `SORT` or `DISTINCT` key: a property of the class, or of a class reached through
    /// to-one links (a link itself may be a DISTINCT key, not a sort key).
    private func propertyPath(_ k: KeyPathNode, sorting: Bool) throws(QueryError) -> PropertyPath {
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
    private func unknownProperty(_ name: String, in schema: ClassSchema) -> String {
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

    // MARK: Comparisons

    private func resolve(_ node: ComparisonNode) throws(QueryError) -> ResolvedPredicate {
        let lhs = try operand(node.lhs)
        let rhs = try operand(node.rhs)
        let c = ComparisonSite(node)
        switch (lhs, rhs) {
        case (.path(let k, _), _):
            return try compare(k, c, rhs, at: node.lhs.position)
        case (_, .path(let k, let position)):
            if c.op == .in {
                // `'Rex' IN dogs.name`, `%@ IN dogs`: ANY element equals the value.
                guard k.isToMany, c.quantifier == nil else {
                    throw QueryError("'IN' with a key path on the right needs a to-many relationship (a list or linking objects), but '\(k.text)' is not one",
                                     at: position)
                }
                var equal = c
                equal.op = .equal
                equal.quantifier = .any
                return try compare(k, equal, lhs, at: position)
            }
            guard !c.op.isStringOperator, c.op != .between else {
                throw QueryError("the left side of \(c.op.rawValue) must be a property", at: lhs.position)
            }
            var flipped = c
            flipped.op = c.op.mirrored
            return try compare(k, flipped, lhs, at: position)
        case (.object(_, let p, _), _), (.objects(_, let p, _), _):
            throw QueryError("an object argument must be compared with a link or a to-many relationship", at: p)
        default:
            if let q = c.quantifier {
                throw QueryError("\(q.rawValue) needs a key path through a to-many relationship (a list or linking objects)", at: node.lhs.position)
            }
            return .constant(try constantComparison(c, lhs, rhs))
        }
    }

    /// `path op[options] operand` for a key path on the left.
    private func compare(_ k: ResolvedPath, _ c: ComparisonSite, _ rhs: Operand, at position: Int) throws(QueryError) -> ResolvedPredicate {
        if let q = c.quantifier, !k.isToMany {
            throw QueryError("\(q.rawValue) needs a key path through a to-many relationship (a list or linking objects), but '\(k.text)' is not one",
                             at: position)
        }
        if case .path(let other, let q) = rhs { return try compare(k, c, other, at: position, rhsAt: q) }
        var plain = c
        plain.quantifier = nil
        let quantifier = c.quantifier ?? .any
        switch k.end {
        case .property(let p):
            if k.steps.isEmpty { return try compare(p, plain, rhs) }
            return .path(k.steps, quantifier, try compare(p, plain, rhs, throughLinks: true))
        case .values(let element):
            // `ANY tags == 'x'`: the comparison on each element (ANY without a quantifier).
            return .path(k.steps, quantifier, try compare(element, plain, rhs))
        case .objects:
            let identity = try identity(k, plain, rhs)
            return k.steps.isEmpty ? identity : .path(k.steps, quantifier, identity)
        case .aggregate(let function):
            if let q = c.quantifier { throw oneValuePerObject(q, k.text, at: position) }
            let result = function.result
            guard case .comparison(let resolved) = try compare(result, plain, rhs) else {
                throw QueryError("cannot compare '\(k.text)' with this value", at: rhs.position)
            }
            return .aggregate(ResolvedAggregate(path: k.steps, function: function, filter: k.filter, variable: k.variable,
                                                op: resolved.op, operand: resolved.operand))
        }
    }

    /// "ANY cannot be used with 'dogs.@count', which is one value per object".
    func oneValuePerObject(_ q: Quantifier, _ text: String, at position: Int) -> QueryError {
        QueryError("\(q.rawValue) cannot be used with '\(text)', which is one value per object", at: position)
    }

    /// `objects == %@`, `objects != %@`, `objects IN %@`: object identity with managed objects
    /// of the same Realm (an unmanaged or deleted object equals nothing, as in Realm).
    func identity(_ k: ResolvedPath, _ c: ComparisonSite, _ rhs: Operand) throws(QueryError) -> ResolvedPredicate {
        let target = k.targetClass ?? scope?.schema.name ?? schema.name
        let objects: [ObjectArgument]
        switch (c.op, rhs) {
        case (.equal, .object(let o, _, _)), (.notEqual, .object(let o, _, _)): objects = [o]
        case (.contains, .object(let o, _, _)) where k.isToMany: objects = [o]  // `dogs CONTAINS %@`
        case (.in, .objects(let os, _, _)): objects = os
        default:
            throw QueryError("'\(k.text)' is \(k.steps.isEmpty ? "an object" : "a collection of objects"): it can only be compared with an object argument using '==', '!=' or IN",
                             at: rhs.position)
        }
        let keys = try objectKeys(objects, target: target, what: "'\(k.text)'", at: rhs)
        let match: ResolvedPredicate = keys.isEmpty ? .constant(false) : .identity(keys)
        return c.op == .notEqual ? .not(match) : match
    }

    /// The keys of object arguments, after checking their class and Realm.
    private func objectKeys(_ objects: [ObjectArgument], target: String, what: String, at rhs: Operand) throws(QueryError) -> [ObjectKey] {
        var keys: [ObjectKey] = []
        for o in objects {
            guard o.className == target else {
                throw QueryError("cannot compare \(what), which holds '\(target)' objects, with a '\(o.className)' object", at: rhs.position)
            }
            guard !o.isFromOtherRealm else {
                throw QueryError("the object compared with \(what) must be from the Realm being queried", at: rhs.position)
            }
            if let key = o.key { keys.append(key) }
        }
        return keys
    }

    /// Checks and builds `p op[options] operand` exactly as the text form does for a
    /// comparison written with a constant, a list or another property: the same operator and
    /// type checks, the same conversion of constants to the property's type. The type-safe
    /// query API builds its predicates through this, never through query text.
    package func comparison(_ p: PropertySchema, _ op: ComparisonOperator, options: StringOptions,
                            _ operand: ResolvedOperand) throws(QueryError) -> ResolvedPredicate {
        try compare(p, ComparisonSite(op, options), typedOperand(operand))
    }

    /// The same for a property reached through relationships (`$0.owner.name`,
    /// `$0.dogs.age`): the comparison on the target objects, under `quantifier` when a step
    /// is to-many; nil may be compared with any property there (a nil link reads as null).
    package func comparison(path: [LinkStep], quantifier: Quantifier, _ p: PropertySchema, _ op: ComparisonOperator,
                            options: StringOptions, _ operand: ResolvedOperand) throws(QueryError) -> ResolvedPredicate {
        if path.isEmpty { return try comparison(p, op, options: options, operand) }
        if path.last?.isValueList == true {
            // The elements of a list of values: `p` is `path.last!.element`.
            return .path(path, quantifier, try compare(p, ComparisonSite(op, options), typedOperand(operand)))
        }
        return .path(path, quantifier, try compare(p, ComparisonSite(op, options), typedOperand(operand), throughLinks: true))
    }

    /// A collection operator compared with a value (`$0.dogs.count > 1`, `$0.dogs.age.sum > 3`).
    package func aggregate(path: [LinkStep], _ function: AggregateFunction, filter: ResolvedPredicate? = nil,
                           _ op: ComparisonOperator, _ operand: ResolvedOperand) throws(QueryError) -> ResolvedPredicate {
        guard case .comparison(let c) = try compare(function.result, ComparisonSite(op, []), typedOperand(operand)) else {
            return .constant(false)
        }
        return .aggregate(ResolvedAggregate(path: path, function: function, filter: filter, op: c.op, operand: c.operand))
    }

    /// A link property (or, with `path`, a collection) compared with objects by identity.
    package func objectComparison(path: [LinkStep], quantifier: Quantifier, link: PropertySchema?, target: String,
                                  _ op: ComparisonOperator, _ objects: [ObjectArgument]) throws(QueryError) -> ResolvedPredicate {
        let rhs: Operand = op == .in ? .objects(objects, position: 0, source: .text("the objects")) : .object(objects[0], position: 0, source: .text("the object"))
        if let link {
            let inner = try compare(link, ComparisonSite(op, []), rhs, throughLinks: !path.isEmpty)
            return path.isEmpty ? inner : .path(path, quantifier, inner)
        }
        let k = ResolvedPath(steps: path, end: .objects, written: pathText(path))
        let inner = try identity(k, ComparisonSite(op, []), rhs)
        return path.isEmpty ? inner : .path(path, quantifier, inner)
    }

    private func typedOperand(_ operand: ResolvedOperand) -> Operand {
        switch operand {
        case .value(let v): .constant(v, position: 0, source: .literal(v))
        case .values(let vs): .list(vs.map { ($0, source: .literal($0)) }, position: 0)
        case .property(let q): .path(ResolvedPath(steps: [], end: .property(q), written: q.name), position: 0)
        }
    }

    /// Folds a comparison between two constants, after the same checks a property would get.
    private func constantComparison(_ c: ComparisonSite, _ lhs: Operand, _ rhs: Operand) throws(QueryError) -> Bool {
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

    /// Checks and builds `property op operand`. `throughLinks`: the property is read through
    /// links, so it may be null even when required, and may be compared with nil.
    func compare(_ p: PropertySchema, _ c: ComparisonSite, _ rhs: Operand, throughLinks: Bool = false) throws(QueryError) -> ResolvedPredicate {
        try checkOperator(p, c)
        switch rhs {
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

    /// Converts a constant to the property's type, or explains why it cannot be compared.
    private func coerce(_ v: Value, to p: PropertySchema, op: ComparisonOperator, source: OperandSource, at position: Int,
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
        case (.decimal128, .string(let s)):
            guard let d = BID128(text: s) else { throw mismatch() }
            return .decimal128(d)
        case (.decimal128, _):
            guard let d = v.decimal128 else { throw mismatch() }
            return .decimal128(d)
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
