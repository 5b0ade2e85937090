// The value types of `StrataValues` (`ObjectId`, with its `ValueParsingError`) are part of
// Strata's public API, as they are of RealmSwift's: `import Strata` alone must let a model
// declare, extend and query them. The module is re-exported whole rather than through one
// `public typealias` per type, so that every public symbol of it (types, their errors, and
// what later value types add) reaches users without a list here to keep in step, and
// diagnostics and extensions see the one real type.
@_exported import StrataValues

import StrataStorage

extension ObjectId: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _PrimaryKey, _Indexable, SortableType {
    public typealias PersistedType = ObjectId
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.objectId) }
    public static func _strataFrom(_ v: _StrataValue) -> ObjectId { if case .objectId(let id) = v.value { id } else { ObjectId() } }
    public var _strataValue: _StrataValue { _StrataValue(.objectId(self)) }
    /// A property declared as `@Persisted var _id: ObjectId` starts with a new identifier.
    public static var _strataDefault: ObjectId { .generate() }
}
