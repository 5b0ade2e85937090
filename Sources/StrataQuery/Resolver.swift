import Foundation
import StrataStorage

/// Binds a parsed query to a class: key paths to properties, arguments to values, and checks
/// that every operator applies to its operands' types.
///
/// Comparisons are normalised so the property is on the left (`5 < age` becomes `age > 5`),
/// constants are converted to the property's type where that is exact (`age == 8.0` becomes
/// `age == 8`), and comparisons between two constants are folded to TRUE/FALSE.
package struct Resolver {
    let schema: ClassSchema
    let arguments: [Any]
    /// The classes reachable through relationships (and their inverse relationships).
    let classes: ReachableClasses
    /// Inside a SUBQUERY: its variable and the class of the objects it ranges over, or the
    /// element of the list of values it ranges over (`$t` in `SUBQUERY(tags, $t, …)`).
    let scope: (variable: String, schema: ClassSchema, element: PropertySchema?)?
    /// Watches what becomes of the arguments, when the query is being prepared.
    let recorder: ArgumentRecorder?

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

    init(subquery variable: String, of schema: ClassSchema, element: PropertySchema? = nil, _ parent: Resolver) {
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

    func typedOperand(_ operand: ResolvedOperand) -> Operand {
        switch operand {
        case .value(let v): .constant(v, position: 0, source: .literal(v))
        case .values(let vs): .list(vs.map { ($0, source: .literal($0)) }, position: 0)
        case .property(let q): .path(ResolvedPath(steps: [], end: .property(q), written: q.name), position: 0)
        }
    }
}
