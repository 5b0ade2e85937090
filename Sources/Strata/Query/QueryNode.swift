import Foundation
import StrataQuery
import StrataStorage

/// What a `Query` value stands for, before it becomes part of a condition.
enum QueryNode {
    /// The object itself (`$0`).
    case object
    /// A stored property of the object (`$0.age`).
    case property(PropertySchema)
    /// A condition (`$0.age > 3`).
    case predicate(ResolvedPredicate)
}

/// The class a type-safe query is built for and the schema it resolves against (the stored
/// one once the class has a table, as for string queries).
final class QueryContext {
    let schema: ClassSchema

    init(schema: ClassSchema) {
        self.schema = schema
    }

    /// Builds a checked comparison, trapping with the string form's message on a
    /// combination the string form would reject (such as `>` with nil).
    func comparison(_ p: PropertySchema, _ op: ComparisonOperator, options: StrataQuery.StringOptions,
                    _ operand: ResolvedOperand) -> ResolvedPredicate {
        let result = Result { () throws(QueryError) -> ResolvedPredicate in
            try Resolver(schema: schema, arguments: []).comparison(p, op, options: options, operand)
        }
        switch result {
        case .success(let predicate): return predicate
        case .failure(let error): fatalError("Invalid query: \(error.message)")
        }
    }
}

/// Swift values given to type-safe queries, as stored values.
enum QueryValue {
    /// The stored form of `value`: any `@Persisted` type (optionals: nil is null), or
    /// anything a string query accepts as an argument.
    static func of(_ value: Any) -> Value {
        if let persistable = value as? any _Persistable { return persistable._strataValue.value }
        if case .value(let v)? = ArgumentConversion.convert(value) { return v }
        fatalError("Invalid query: a value of type \(type(of: value)) cannot be used in a query")
    }
}

extension Query {
    /// The property this expression reads; traps if it is not a property.
    var property: PropertySchema {
        guard case .property(let p) = node else {
            fatalError("Invalid query: a comparison needs a property on the left, such as $0.age")
        }
        return p
    }

    /// The condition this expression stands for. A bool property on its own means
    /// `property == true`, as in RealmSwift (`where { $0.isActive }`).
    var predicate: ResolvedPredicate {
        switch node {
        case .predicate(let p): return p
        case .property(let p) where p.type == .bool && !p.isOptional:
            return context.comparison(p, .equal, options: [], .value(.bool(true)))
        case .property(let p):
            fatalError("Invalid query: '\(p.name)' is \(p.isOptional ? "an optional " : "a ")\(p.type), not a condition")
        case .object:
            fatalError("Invalid query: an object is not a condition")
        }
    }

    /// `self op value`, for a constant of the expression's type.
    func compare(_ op: ComparisonOperator, _ value: T, options: StrataQuery.StringOptions = []) -> Query<Bool> {
        let v = QueryValue.of(value)
        if case .predicate(let p) = node, op == .equal || op == .notEqual, case .bool(let b) = v {
            return Query<Bool>(.predicate(b == (op == .equal) ? p : .not(p)), context)
        }
        return Query<Bool>(.predicate(context.comparison(property, op, options: options, .value(v))), context)
    }

    /// `self op other`, for another property of the same object.
    func compare(_ op: ComparisonOperator, to other: Query) -> Query<Bool> {
        Query<Bool>(.predicate(context.comparison(property, op, options: [], .property(other.property))), context)
    }

    /// `self IN {values}` or `self BETWEEN {low, high}`.
    func compare(_ op: ComparisonOperator, values: [Value]) -> Query<Bool> {
        Query<Bool>(.predicate(context.comparison(property, op, options: [], .values(values))), context)
    }
}
