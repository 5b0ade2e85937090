/// RealmSwift's protocol of the types a schema can hold, as generic code names it
/// (`V: _RealmSchemaDiscoverable`, `V._rlmType`): every type `@Persisted` stores conforms,
/// through `_Persistable`.
public protocol _RealmSchemaDiscoverable {
    /// The property type values of this type are stored as (a collection's: its elements').
    static var _rlmType: PropertyType { get }
    /// Whether the type is optional (a collection's: whether its elements are).
    static var _rlmOptional: Bool { get }
    /// Whether only Objective-C's runtime can see the property: never, here.
    static var _rlmRequireObjc: Bool { get }
}

extension _Persistable {
    public static var _rlmType: PropertyType {
        let info = _strataTypeInfo
        return info.isLinkingObjects ? .linkingObjects : PropertyType(info.type)
    }

    /// A mixed value holds null without being optional, as in RealmSwift.
    public static var _rlmOptional: Bool {
        let info = _strataTypeInfo
        return info.isOptional && info.type != .mixed
    }

    public static var _rlmRequireObjc: Bool { false }
}

extension Optional: _RealmSchemaDiscoverable where Wrapped: _PersistableInsideOptional {}
