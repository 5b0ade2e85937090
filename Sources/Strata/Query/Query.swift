import Foundation
import StrataQuery
import StrataStorage

/// A type-safe query expression over values of type `T` (RealmSwift's `Query<T>`), built in
/// the closure passed to `where`: `dogs.where { $0.age > 8 && $0.name.starts(with: "B") }`.
///
/// `$0` is a `Query` over the object; member access (`$0.age`) gives a `Query` over that
/// property, and operators on it give `Query<Bool>` conditions. The result is the same
/// resolved predicate the string form builds (`filter("age > 8 AND name BEGINSWITH 'B'")`),
/// so it is checked, planned and evaluated the same way. Only the library creates queries.
@dynamicMemberLookup
public struct Query<T> {
    /// What this expression stands for.
    let node: QueryNode
    /// The class and schema the expression resolves against.
    let context: QueryContext
    /// The expression in RealmSwift's shape, for `_constructPredicate()`.
    let format: QueryFormat

    init(_ node: QueryNode, _ context: QueryContext, format: QueryFormat) {
        self.node = node
        self.context = context
        self.format = format
    }

    /// This query written as `format` instead (an operator whose RealmSwift shape differs
    /// from the helper's that built it).
    func formatted(_ format: QueryFormat) -> Query {
        Query(node, context, format: format)
    }

    /// A query over an object of model class `T` (or `T?`) outside any Realm, against the
    /// schema the code declares (RealmSwift's hook for checking the predicates its type-safe
    /// queries build: `query(Query<Dog>())._constructPredicate()`). Traps for any other `T`.
    public init(isPrimitive: Bool = false) {
        let type = (T.self as? ObjectBase.Type) ?? (T.self as? any _Persistable.Type)?._strataTypeInfo.linkTarget
        guard let type, !isPrimitive else { fatalError("Query<\(T.self)>() needs a model class, such as Query<Dog>()") }
        let info = ModelClass.forType(type)
        self.init(.object, QueryContext(schema: info.publicSchema(info.schema), lookup: SchemaLookup(declaredOver: [:])), format: .root)
    }

    /// `Query<T>()` (RealmSwift's testing hook).
    public static func _constructForTesting() -> Query<T> { Query<T>() }

    /// The predicate format and arguments RealmSwift builds for this expression
    /// (`("(intCol > %@)", [6])`): its tests compare them. Strata runs the resolved
    /// predicate instead (`Results.explain()` shows it).
    public func _constructPredicate() -> (String, [Any]) { format.predicate }

    // MARK: Equality

    /// `property == value`; with `nil`, matches objects whose optional property is nil.
    public static func == (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.equal, rhs)
    }

    /// `property == otherProperty`.
    public static func == (_ lhs: Query, _ rhs: Query) -> Query<Bool> {
        lhs.compare(.equal, to: rhs)
    }

    /// `property != value`; matches nil unless `value` is nil.
    public static func != (_ lhs: Query, _ rhs: T) -> Query<Bool> {
        lhs.compare(.notEqual, rhs)
    }

    /// `property != otherProperty`.
    public static func != (_ lhs: Query, _ rhs: Query) -> Query<Bool> {
        lhs.compare(.notEqual, to: rhs)
    }

    // MARK: IN

    /// `property IN {values}`: the property equals one of the values (none for an empty
    /// collection; nil among them matches nil).
    public func `in`<U: Sequence>(_ collection: U) -> Query<Bool> where U.Element == T {
        let items = Array(collection)
        let format = QueryFormat.comparison("IN", self.format, .constant(items), options: [])
        if case .property(let p) = node, p.type == .link { return compare(.in, objects: items.compactMap { QueryValue.object($0) }).formatted(format) }
        if case .keyPath(_, let p) = node, p.type == .link { return compare(.in, objects: items.compactMap { QueryValue.object($0) }).formatted(format) }
        return compare(.in, values: items.map { QueryValue.of($0) }).formatted(format)
    }

    // MARK: Member access

    /// The query over a property of the object: `$0.age`, or of an object it reaches through a
    /// non-optional link (a custom type stored as an embedded object: `$0.address.persistableValue.city`).
    public subscript<V>(dynamicMember member: KeyPath<T, V>) -> Query<V> where T: ObjectBase {
        memberOfObject(member, of: T.self)
    }

    /// The name RealmSwift gives `member` in a predicate: the declared name of the property
    /// or inverse relationship.
    func memberName<Root: ObjectBase, V>(_ member: KeyPath<Root, V>, of type: Root.Type) -> String {
        let info = ModelClass.forType(type)
        let index = KeyPathRecorder.declarationIndex(of: member, in: info)
        return index >= info.properties.count ? info.linkingObjects[index - info.properties.count].name : info.properties[index].name
    }

    /// The node for a member of an object of `type` (whose stored schema is `schema`),
    /// reached through `steps`: a property, or the objects of an inverse relationship or a
    /// list (the values of a list of values).
    func member<Root: ObjectBase, V>(_ member: KeyPath<Root, V>, of type: Root.Type, in schema: ClassSchema,
                                     after steps: [LinkStep]) -> QueryNode {
        let info = ModelClass.forType(type)
        let index = KeyPathRecorder.declarationIndex(of: member, in: info)
        if index >= info.properties.count {
            let inverse = info.linkingObjects[index - info.properties.count]
            let originName = inverse.origin._realmObjectName() ?? inverse.origin.className()
            let origin = context.classSchema(originName)
            guard let link = origin.property(named: inverse.originProperty) else {
                fatalError("Invalid query: '\(originName)' has no stored property '\(inverse.originProperty)'")
            }
            return .collection(steps + [.backlinks(origin: originName, property: link, name: inverse.name)])
        }
        let name = info.properties[index].name
        guard let property = schema.property(named: name) else {
            fatalError("Invalid query: '\(schema.name)' has no stored property '\(name)'")
        }
        if property.isList { return .collection(steps + [.list(owner: schema.name, property: property)]) }
        return steps.isEmpty ? .property(property) : .keyPath(steps, property)
    }
}
