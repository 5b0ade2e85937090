import Foundation
import StrataStorage
import StrataValues

// The protocols RealmSwift uses to say which Swift types `@Persisted` may store, with the
// hidden requirements Strata uses to move values between Swift and storage without
// reflection.

/// A stored value in transit between a Swift property and storage (opaque to users).
public struct _StrataValue {
    let value: StrataStorage.Value
    /// The object a link value stands for, or a box around a collection value; one reference
    /// keeps the common case (a plain value) small to copy.
    private let reference: AnyObject?

    /// A plain value (the hot path of every property read: nothing to box).
    @inline(__always)
    init(_ value: StrataStorage.Value) {
        self.value = value
        reference = nil
    }

    /// A link value and the object it stands for.
    init(_ value: StrataStorage.Value, object: ObjectBase) {
        self.value = value
        reference = object
    }

    /// A collection property's value (`value` is `.null`).
    init(_ value: StrataStorage.Value, collection: Any) {
        self.value = value
        reference = CollectionBox(collection)
    }

    /// The object a link value stands for (managed or not), when there is one.
    var object: ObjectBase? { reference as? ObjectBase }
    /// The collection a collection property reads as (`List`, `LinkingObjects`, or the values
    /// of an unmanaged list), when there is one.
    var collection: Any? { (reference as? CollectionBox)?.value }
}

/// Holds a collection value inside a `_StrataValue`.
private final class CollectionBox {
    let value: Any
    init(_ value: Any) { self.value = value }
}

/// How a Swift type is stored (opaque to users): the storage type, optionality, integer width,
/// and for a link the target class.
public struct _StrataTypeInfo {
    let type: StrataStorage.PropertyType
    let isOptional: Bool
    let intWidth: Int
    var linkTarget: ObjectBase.Type? = nil
    /// Whether this is an inverse relationship (computed from backlinks, never stored).
    var isLinkingObjects = false
    /// Whether this is a list of values of the rest of this description.
    var isList = false
    /// Whether that list is a set (unique elements kept in value order).
    var isSet = false
    /// Whether that list is a map (values under string keys, kept in key order).
    var isMap = false
    /// Whether the values are a custom type stored as this one (`CustomPersistable`).
    var isCustomMapping = false
}

public protocol _HasPersistedType {
    /// The type actually stored (Self for all directly supported types).
    associatedtype PersistedType
}

/// A type that can be the `Value` of `@Persisted`.
public protocol _Persistable: _HasPersistedType, _RealmSchemaDiscoverable {
    /// How values of this type are stored.
    static var _strataTypeInfo: _StrataTypeInfo { get }
    /// The Swift value of a stored value.
    static func _strataFrom(_ value: _StrataValue) -> Self
    /// The Swift value of a stored value, or nil when the stored value stands for none (an
    /// enum raw value without a case, a failed custom mapping): how an optional reads it.
    static func _strataFromStored(_ value: _StrataValue) -> Self?
    /// The stored form of this value.
    var _strataValue: _StrataValue { get }
    /// The value of managed property `index` of `object`: by default decoded as a `Value`
    /// first; ints, doubles and strings read their slot directly.
    static func _strataRead(_ object: ObjectBase, _ index: Int) -> Self
    /// The value of a property declared without one: by default the stored type's default
    /// (nil for an optional); a new `ObjectId` for an `ObjectId`, as RealmSwift gives.
    static var _strataDefault: Self { get }
    /// `_strataDefault`, or nil for a type that has none (a failable custom type that does
    /// not convert its stored type's default), whose `_strataDefault` traps.
    static var _strataDefaultIfAny: Self? { get }
    /// What an unmanaged object's field that holds `current` (nil: none made yet) stores when
    /// `value` is assigned: by default `value`; a list, set or map copies the elements into
    /// `current` (a new one if none) and keeps it, as RealmSwift's do (the property keeps its
    /// own collection).
    static func _strataAssigned(_ value: Self, over current: Self?) -> Self
}

extension _Persistable {
    public static func _strataFromStored(_ value: _StrataValue) -> Self? { _strataFrom(value) }

    @inlinable
    public static func _strataAssigned(_ value: Self, over current: Self?) -> Self { value }

    public static var _strataDefaultIfAny: Self? { _strataDefault }

    public static var _strataDefault: Self {
        let info = _strataTypeInfo
        return _strataFrom(_StrataValue(info.isOptional ? .null : ValueCodec.defaultValue(info.type)))
    }

    public static func _strataRead(_ object: ObjectBase, _ index: Int) -> Self {
        _strataFrom(object._managedValue(index))
    }
}

/// A `_Persistable` that may also appear wrapped in `Optional`.
public protocol _PersistableInsideOptional: _Persistable {}

/// A type usable as a `List` element / `Results` element.
public protocol RealmCollectionValue: Hashable, _HasPersistedType {}

/// A `RealmCollectionValue` that may also appear wrapped in `Optional`.
public protocol _RealmCollectionValueInsideOptional: RealmCollectionValue {}

/// Marker: allowed as `@Persisted(primaryKey: true)`.
@_marker public protocol _PrimaryKey {}
/// Marker: allowed as `@Persisted(indexed: true)`.
@_marker public protocol _Indexable {}
/// Marker: allowed in `min`/`max`.
@_marker public protocol MinMaxType {}
/// Marker: allowed in `sum`/`average`.
@_marker public protocol AddableType {}
/// Marker: allowed in `sorted(ascending:)` on collections of primitives.
@_marker public protocol SortableType {}
/// Marker: element types that can be sorted by key path.
@_marker public protocol KeypathSortable {}

/// Implemented by `Optional` (used by the type-safe query API).
public protocol OptionalProtocol {
    associatedtype Wrapped
}
extension Optional: OptionalProtocol {}

extension _StrataTypeInfo {
    static func plain(_ type: StrataStorage.PropertyType, width: Int = 64) -> _StrataTypeInfo {
        _StrataTypeInfo(type: type, isOptional: false, intWidth: width)
    }
}

extension Bool: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _PrimaryKey, _Indexable, SortableType {
    public typealias PersistedType = Bool
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.bool) }
    public static func _strataFrom(_ v: _StrataValue) -> Bool { if case .bool(let b) = v.value { b } else { false } }
    public var _strataValue: _StrataValue { _StrataValue(.bool(self)) }
}

/// Integer widths share one implementation.
public protocol _StrataInteger: FixedWidthInteger, _PersistableInsideOptional {}
extension _StrataInteger {
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.int, width: bitWidth) }
    public static func _strataFrom(_ v: _StrataValue) -> Self {
        if case .int(let i) = v.value { Self(truncatingIfNeeded: i) } else { 0 }
    }
    public var _strataValue: _StrataValue { _StrataValue(.int(Int64(self))) }
    @inlinable
    public static func _strataRead(_ object: ObjectBase, _ index: Int) -> Self {
        object._managedInt(index).map { Self(truncatingIfNeeded: $0) } ?? _strataFrom(object._managedValue(index))
    }
}

extension Int: _StrataInteger, _RealmCollectionValueInsideOptional, _PrimaryKey, _Indexable, MinMaxType, AddableType, SortableType {
    public typealias PersistedType = Int
}
extension Int8: _StrataInteger, _RealmCollectionValueInsideOptional, _PrimaryKey, _Indexable, MinMaxType, AddableType, SortableType {
    public typealias PersistedType = Int8
}
extension Int16: _StrataInteger, _RealmCollectionValueInsideOptional, _PrimaryKey, _Indexable, MinMaxType, AddableType, SortableType {
    public typealias PersistedType = Int16
}
extension Int32: _StrataInteger, _RealmCollectionValueInsideOptional, _PrimaryKey, _Indexable, MinMaxType, AddableType, SortableType {
    public typealias PersistedType = Int32
}
extension Int64: _StrataInteger, _RealmCollectionValueInsideOptional, _PrimaryKey, _Indexable, MinMaxType, AddableType, SortableType {
    public typealias PersistedType = Int64
}
extension Float: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, MinMaxType, AddableType, SortableType {
    public typealias PersistedType = Float
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.float) }
    public static func _strataFrom(_ v: _StrataValue) -> Float { if case .float(let f) = v.value { f } else { 0 } }
    public var _strataValue: _StrataValue { _StrataValue(.float(self)) }
}
extension Double: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, MinMaxType, AddableType, SortableType {
    public typealias PersistedType = Double
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.double) }
    public static func _strataFrom(_ v: _StrataValue) -> Double { if case .double(let d) = v.value { d } else { 0 } }
    public var _strataValue: _StrataValue { _StrataValue(.double(self)) }
    @inlinable
    public static func _strataRead(_ object: ObjectBase, _ index: Int) -> Double {
        object._managedDouble(index) ?? _strataFrom(object._managedValue(index))
    }
}
extension String: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _PrimaryKey, _Indexable, SortableType {
    public typealias PersistedType = String
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.string) }
    public static func _strataFrom(_ v: _StrataValue) -> String { if case .string(let s) = v.value { s } else { "" } }
    public var _strataValue: _StrataValue { _StrataValue(.string(self)) }
    @inlinable
    public static func _strataRead(_ object: ObjectBase, _ index: Int) -> String {
        object._managedString(index) ?? _strataFrom(object._managedValue(index))
    }
}
extension Data: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, SortableType {
    public typealias PersistedType = Data
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.data) }
    public static func _strataFrom(_ v: _StrataValue) -> Data { if case .data(let d) = v.value { d } else { Data() } }
    public var _strataValue: _StrataValue { _StrataValue(.data(self)) }
}
extension Date: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _Indexable, MinMaxType, SortableType {
    public typealias PersistedType = Date
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.date) }
    public static func _strataFrom(_ v: _StrataValue) -> Date {
        if case .date(let d) = v.value { d } else { Date(timeIntervalSinceReferenceDate: 0) }
    }
    public var _strataValue: _StrataValue { _StrataValue(.date(self)) }
    /// A property declared as `@Persisted var date: Date` starts at the moment the object is
    /// made, as in RealmSwift.
    public static var _strataDefault: Date { Date() }
}
extension UUID: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, _PrimaryKey, _Indexable, SortableType {
    public typealias PersistedType = UUID
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.uuid) }
    public static func _strataFrom(_ v: _StrataValue) -> UUID {
        if case .uuid(let u) = v.value { u } else { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    }
    public var _strataValue: _StrataValue { _StrataValue(.uuid(self)) }
}

extension Decimal128: _PersistableInsideOptional, _RealmCollectionValueInsideOptional, MinMaxType, AddableType, SortableType {
    public typealias PersistedType = Decimal128
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.decimal128) }
    public static func _strataFrom(_ v: _StrataValue) -> Decimal128 {
        if case .decimal128(let d) = v.value { Decimal128(bid: d) } else { Decimal128() }
    }
    public var _strataValue: _StrataValue { _StrataValue(.decimal128(bid)) }
}

extension Optional: _HasPersistedType where Wrapped: _HasPersistedType {
    public typealias PersistedType = Optional<Wrapped.PersistedType>
}
extension Optional: _Persistable where Wrapped: _PersistableInsideOptional {
    public static var _strataTypeInfo: _StrataTypeInfo {
        var info = Wrapped._strataTypeInfo
        info = _StrataTypeInfo(type: info.type, isOptional: true, intWidth: info.intWidth, linkTarget: info.linkTarget)
        return info
    }
    public static func _strataFrom(_ v: _StrataValue) -> Wrapped? {
        if case .null = v.value { return nil }
        return Wrapped._strataFromStored(v)
    }
    public var _strataValue: _StrataValue { self?._strataValue ?? _StrataValue(.null) }
}
extension Optional: RealmCollectionValue where Wrapped: _RealmCollectionValueInsideOptional {}
extension Optional: _PrimaryKey where Wrapped: _PrimaryKey {}
extension Optional: _Indexable where Wrapped: _Indexable {}
extension Optional: MinMaxType where Wrapped: MinMaxType {}
extension Optional: AddableType where Wrapped: AddableType {}
extension Optional: SortableType where Wrapped: SortableType {}

extension ObjectBase: KeypathSortable {}
