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

    init(_ node: QueryNode, _ context: QueryContext) {
        self.node = node
        self.context = context
    }

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
        compare(.in, values: collection.map { QueryValue.of($0) })
    }

    // MARK: Member access

    /// The query over a property of the object: `$0.age`.
    public subscript<V>(dynamicMember member: KeyPath<T, V>) -> Query<V> where T: ObjectBase {
        guard case .object = node else {
            fatalError("Invalid query: key paths through links are not supported yet")
        }
        let info = ClassInfo.forType(T.self)
        let index = KeyPathRecorder.declarationIndex(of: member, in: info)
        let name = info.properties[index].name
        guard let property = context.schema.property(named: name) else {
            fatalError("Invalid query: '\(context.schema.name)' has no stored property '\(name)'")
        }
        return Query<V>(.property(property), context)
    }
}
