import Foundation
import StrataQuery
import StrataStorage

/// What a `Query` value stands for, before it becomes part of a condition.
enum QueryNode {
    /// The object itself (`$0`).
    case object
    /// A stored property of the object (`$0.age`).
    case property(PropertySchema)
    /// A property reached through relationships (`$0.owner.name`, `$0.dogs.age`).
    case keyPath([LinkStep], PropertySchema)
    /// The objects at the end of a to-many path (`$0.dogs`), or the values of a list of
    /// values at its end (`$0.tags`).
    case collection([LinkStep])
    /// A value computed over a to-many path (`$0.dogs.count`, `$0.dogs.age.sum`, and a
    /// SUBQUERY's `(…).count` with its condition).
    case aggregate([LinkStep], AggregateFunction, filter: ResolvedPredicate?)
    /// A condition (`$0.age > 3`).
    case predicate(ResolvedPredicate)

    /// Whether the node reads a list, set, map or inverse relationship as a whole.
    var isCollection: Bool {
        if case .collection = self { return true }
        return false
    }
}

/// The class a type-safe query is built for and the schema it resolves against (the stored
/// one once the class has a table, as for string queries), with the classes reachable
/// through its relationships.
final class QueryContext {
    let schema: ClassSchema
    let lookup: SchemaLookup
    /// The Realm queried, for object arguments (nil: objects are compared as unmanaged).
    let core: RealmCore?

    init(schema: ClassSchema, lookup: SchemaLookup? = nil, core: RealmCore? = nil) {
        self.schema = schema
        self.lookup = lookup ?? SchemaLookup(schema)
        self.core = core
    }

    private var resolver: Resolver { Resolver(schema: schema, arguments: [], lookup: lookup) }

    /// Runs a resolver call, trapping with the string form's message on a combination the
    /// string form would reject (such as `>` with nil).
    private func checked(_ body: (Resolver) throws(QueryError) -> ResolvedPredicate) -> ResolvedPredicate {
        let resolver = self.resolver
        let result = Result { () throws(QueryError) -> ResolvedPredicate in try body(resolver) }
        switch result {
        case .success(let predicate): return predicate
        case .failure(let error): fatalError("Invalid query: \(error.message)")
        }
    }

    /// Builds a checked comparison of a property of the object.
    func comparison(_ p: PropertySchema, _ op: ComparisonOperator, options: StrataQuery.StringOptions,
                    _ operand: ResolvedOperand) -> ResolvedPredicate {
        checked { r throws(QueryError) in try r.comparison(p, op, options: options, operand) }
    }

    /// Builds a checked comparison of a property reached through `path` (ANY when a step is
    /// to-many).
    func comparison(path: [LinkStep], _ p: PropertySchema, _ op: ComparisonOperator, options: StrataQuery.StringOptions,
                    _ operand: ResolvedOperand) -> ResolvedPredicate {
        checked { r throws(QueryError) in try r.comparison(path: path, quantifier: .any, p, op, options: options, operand) }
    }

    /// Two key paths compared (`$0.owner.age > $0.age`, `$0.dogs.count > $0.age`).
    func comparison(_ lhs: KeyPathOperand, _ op: ComparisonOperator, options: StrataQuery.StringOptions,
                    _ rhs: KeyPathOperand) -> ResolvedPredicate {
        checked { r throws(QueryError) in try r.comparison(lhs, op, options: options, rhs) }
    }

    /// The point held by the embedded object `link` points at (through `path`) lies in `region`.
    func geoWithin(path: [LinkStep], _ link: PropertySchema, _ region: GeoRegion) -> ResolvedPredicate {
        checked { r throws(QueryError) in try r.geoWithin(path: path, link, region, text: link.name) }
    }

    /// A collection operator compared with a value.
    func aggregate(path: [LinkStep], _ function: AggregateFunction, filter: ResolvedPredicate?, _ op: ComparisonOperator,
                   _ operand: ResolvedOperand) -> ResolvedPredicate {
        checked { r throws(QueryError) in try r.aggregate(path: path, function, filter: filter, op, operand) }
    }

    /// A link (`link` non-nil) or the objects of a to-many path compared with objects.
    func objectComparison(path: [LinkStep], link: PropertySchema?, target: String, _ op: ComparisonOperator,
                          _ objects: [ObjectBase]) -> ResolvedPredicate {
        let arguments = objects.map { object -> ObjectArgument in
            if let core { return QueryArguments.argument(object, for: core) }
            let type = Swift.type(of: object) as ObjectBase.Type
            return ObjectArgument(className: type._realmObjectName() ?? type.className(), key: nil)
        }
        if op == .in, arguments.isEmpty { return .constant(false) }
        return checked { r throws(QueryError) in
            try r.objectComparison(path: path, quantifier: .any, link: link, target: target, op, arguments)
        }
    }

    /// The schema of a class reached through a relationship.
    func classSchema(_ name: String) -> ClassSchema {
        guard let s = lookup.classes[name] else { fatalError("Invalid query: the class '\(name)' is not in this Realm's schema") }
        return s
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

    /// Whether `value` is a custom type (stored as an object, it is compared member by member).
    static func isMapped(_ value: Any) -> Bool { value is any _MappedPersistable }

    /// The object `value` holds, if it is one (or an optional wrapping one).
    static func object(_ value: Any) -> ObjectBase? {
        if let object = value as? ObjectBase { return object }
        if let persistable = value as? any _Persistable { return persistable._strataValue.object }
        return nil
    }
}

extension Query {
    /// The property this expression reads; traps if it is not a property of the object.
    var property: PropertySchema {
        switch node {
        case .property(let p): return p
        default: fatalError("Invalid query: a comparison needs a property on the left, such as $0.age")
        }
    }

    /// The steps and the property of a property expression (steps empty for the object's own).
    var propertyPath: ([LinkStep], PropertySchema) {
        switch node {
        case .property(let p): return ([], p)
        case .keyPath(let steps, let p): return (steps, p)
        default: fatalError("Invalid query: a comparison needs a property on the left, such as $0.age")
        }
    }

    /// The condition this expression stands for. A bool property on its own means
    /// `property == true`, as in RealmSwift (`where { $0.isActive }`).
    var predicate: ResolvedPredicate {
        switch node {
        case .predicate(let p): return p
        case .property(let p) where p.type == .bool && !p.isOptional:
            return context.comparison(p, .equal, options: [], .value(.bool(true)))
        case .keyPath(let steps, let p) where p.type == .bool && !p.isOptional:
            return context.comparison(path: steps, p, .equal, options: [], .value(.bool(true)))
        case .property(let p), .keyPath(_, let p):
            fatalError("Invalid query: '\(p.name)' is \(p.isOptional ? "an optional " : "a ")\(p.type), not a condition")
        case .object, .collection:
            fatalError("Invalid query: an object is not a condition")
        case .aggregate:
            fatalError("Invalid query: a collection operator is not a condition; compare it with a value")
        }
    }

    /// `self op operand` for a property (of the object or through relationships) or an
    /// aggregate.
    func condition(_ op: ComparisonOperator, options: StrataQuery.StringOptions = [], _ operand: ResolvedOperand) -> ResolvedPredicate {
        switch node {
        case .property(let p): return context.comparison(p, op, options: options, operand)
        case .keyPath(let steps, let p): return context.comparison(path: steps, p, op, options: options, operand)
        case .aggregate(let steps, let function, let filter):
            return context.aggregate(path: steps, function, filter: filter, op, operand)
        case .collection(let steps) where steps.last?.element != nil:
            // The elements of a list of values (ANY): `$0.scores > 3`.
            return context.comparison(path: steps, steps.last!.element!, op, options: options, operand)
        default: fatalError("Invalid query: a comparison needs a property on the left, such as $0.age")
        }
    }

    /// `self op value`, for a constant of the expression's type.
    func compare(_ op: ComparisonOperator, _ value: T, options: StrataQuery.StringOptions = []) -> Query<Bool> {
        if let object = QueryValue.object(value) { return compare(op, objects: [object], memberwise: QueryValue.isMapped(value)) }
        let v = QueryValue.of(value)
        if case .predicate(let p) = node, op == .equal || op == .notEqual, case .bool(let b) = v {
            return Query<Bool>(.predicate(b == (op == .equal) ? p : .not(p)), context, format: comparisonFormat(op, .constant(value), options))
        }
        return Query<Bool>(.predicate(condition(op, options: options, .value(v))), context, format: comparisonFormat(op, .constant(value), options))
    }

    /// RealmSwift's shape of `self op[options] rhs`.
    func comparisonFormat(_ op: ComparisonOperator, _ rhs: QueryFormat, _ options: StrataQuery.StringOptions) -> QueryFormat {
        .comparison(op.rawValue, format, rhs, options: StringOptions(rawValue: Int8(options.rawValue)))
    }

    /// A link (or the objects of a to-many path) compared with objects by identity, or, given
    /// a custom type's value (`memberwise`) stored as an unmanaged embedded object, member by
    /// member.
    func compare(_ op: ComparisonOperator, objects: [ObjectBase], memberwise: Bool = false) -> Query<Bool> {
        if memberwise, objects.count == 1, op == .equal || op == .notEqual, let value = objects[0] as? EmbeddedObject,
           value.managingCore == nil {
            return Query<Bool>(.predicate(memberwisePredicate(op, value)), context, format: comparisonFormat(op, .constant(objects[0]), []))
        }
        switch node {
        case .property(let p), .keyPath(_, let p):
            let steps = propertyPath.0
            guard p.type == .link || p.type == .mixed else { fatalError("Invalid query: cannot compare '\(p.name)' (\(p.type)) with an object") }
            return Query<Bool>(.predicate(context.objectComparison(path: steps, link: p, target: p.linkTarget ?? "", op, objects)), context,
                               format: comparisonFormat(op, .constant(objects.first), []))
        case .collection(let steps):
            return Query<Bool>(.predicate(context.objectComparison(path: steps, link: nil, target: steps.last?.targetClass ?? "", op, objects)),
                               context, format: comparisonFormat(op, .constant(objects.first), []))
        default:
            fatalError("Invalid query: only a link or a collection of objects can be compared with an object")
        }
    }

    /// `self == value` for a custom type's unmanaged embedded object (RealmSwift's memberwise equality): an
    /// embedded object the link or collection reaches whose every property equals `value`'s;
    /// `!=`, one that differs in some property (a nil link reads as an object of nulls).
    private func memberwisePredicate(_ op: ComparisonOperator, _ value: EmbeddedObject) -> ResolvedPredicate {
        let steps: [LinkStep], target: String?
        switch node {
        case .property(let p), .keyPath(_, let p):
            guard p.type == .link else { fatalError("Invalid query: cannot compare '\(p.name)' (\(p.type)) with an object") }
            (steps, target) = (propertyPath.0 + [.link(p)], p.linkTarget)
        case .collection(let s):
            (steps, target) = (s, s.last?.targetClass)
        default:
            fatalError("Invalid query: only a link or a collection of objects can be compared with an object")
        }
        let schema = context.classSchema(target ?? "")
        let info = ModelClass.forType(type(of: value))
        let base = Unmanaged.passUnretained(value).toOpaque()
        let equalities = info.properties.enumerated().map { index, member -> ResolvedPredicate in
            let className = info.name
            if member.schema.isList {
                fatalError("Invalid query: Unsupported property '\(className).\(member.name)' for memberwise equality query: equality on collections is not implemented.")
            }
            if member.schema.type == .link {
                fatalError("Invalid query: Unsupported property '\(className).\(member.name)' for memberwise equality query: object links are not implemented.")
            }
            guard let stored = schema.property(named: member.schema.name) else {
                fatalError("Invalid query: '\(schema.name)' has no stored property '\(member.schema.name)'")
            }
            return context.comparison(stored, .equal, options: [], .value(info.unmanagedValue(index, of: base).value))
        }
        return .path(steps, .any, op == .equal ? .and(equalities) : .not(.and(equalities)))
    }

    /// `self op[options] other` for two key paths: properties of the object or of objects
    /// reached through relationships, or collection operators.
    func compare<U>(_ op: ComparisonOperator, options: StrataQuery.StringOptions = [], to other: Query<U>) -> Query<Bool> {
        guard let lhs = keyPathOperand, let rhs = other.keyPathOperand else {
            fatalError("Invalid query: a comparison between key paths needs a property or a collection operator on each side, such as $0.age or $0.dogs.count")
        }
        return Query<Bool>(.predicate(context.comparison(lhs, op, options: options, rhs)), context,
                           format: comparisonFormat(op, other.format, options))
    }

    /// What the expression reads as a side of a key path comparison; nil for objects and conditions.
    var keyPathOperand: KeyPathOperand? {
        switch node {
        case .property(let p): .property([], p)
        case .keyPath(let steps, let p): .property(steps, p)
        case .collection(let steps): steps.last?.element.map { .property(steps, $0) }
        case .aggregate(let steps, let function, let filter): .aggregate(CollectionAggregate(path: steps, function: function, filter: filter))
        case .object, .predicate: nil
        }
    }

    /// `self IN {values}` or `self BETWEEN {low, high}`.
    func compare(_ op: ComparisonOperator, values: [Value]) -> Query<Bool> {
        Query<Bool>(.predicate(condition(op, .values(values))), context, format: comparisonFormat(op, .constant(values), []))
    }
}
