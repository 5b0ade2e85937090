import Foundation
import StrataStorage

// Operands: what each side of a comparison is bound to (a key path, a constant, a list,
// objects given as arguments).

extension Resolver {
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

    /// Binds one side of a comparison: a key path, a literal, an argument or a SUBQUERY.
    func operand(_ e: ExpressionNode) throws(QueryError) -> Operand {
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

    func argument(_ i: Int, at position: Int) throws(QueryError) -> Any {
        guard i < arguments.count else {
            throw QueryError("the query uses argument \(i) but only \(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given",
                             at: position)
        }
        recorder?.read(i)
        return arguments[i]
    }
}
