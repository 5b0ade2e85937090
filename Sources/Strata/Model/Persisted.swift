import Foundation
import StrataStorage

/// Declares a stored property of an `Object` subclass:
/// `@Persisted var name = ""`, `@Persisted(primaryKey: true) var id = 0`,
/// `@Persisted(indexed: true) var email: String?`.
///
/// Unmanaged, the wrapper holds the value itself. Once the object is managed by a Realm, it
/// holds only the property's index and every read and write goes straight to the store.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    enum Storage {
        case unmanaged(Value)
        /// The property's declaration index in its class (`ClassInfo.properties`).
        case managed(Int)
    }

    var storage: Storage
    let options: PersistedOptions

    @available(*, unavailable, message: "@Persisted can only be used as a property on a Realm object")
    public var wrappedValue: Value {
        get { fatalError("@Persisted can only be used as a property on a Realm object") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Persisted can only be used as a property on a Realm object") }
    }

    /// A property with the type's default value (0, "", false, empty Data, nil, the reference
    /// date, the zero UUID).
    public init() {
        self.init(wrappedValue: Value._strataFrom(_StrataValue(Self.defaultValue)), options: [])
    }

    /// A property with an explicit default value.
    public init(wrappedValue value: Value) { self.init(wrappedValue: value, options: []) }

    init(wrappedValue value: Value, options: PersistedOptions) {
        storage = .unmanaged(value)
        self.options = options
    }

    private static var defaultValue: StrataStorage.Value {
        let info = Value._strataTypeInfo
        return info.isOptional ? .null : ValueCodec.defaultValue(info.type)
    }

    /// Access through the enclosing object (restricts @Persisted to ObjectBase subclasses).
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance observed: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            switch observed[keyPath: storageKeyPath].storage {
            case .unmanaged(let value): return value
            case .managed(let index): return Value._strataFrom(_StrataValue(observed.managedValue(index)))
            }
        }
        set {
            switch observed[keyPath: storageKeyPath].storage {
            case .unmanaged: observed[keyPath: storageKeyPath].storage = .unmanaged(newValue)
            case .managed(let index): observed.setManagedValue(newValue._strataValue.value, index)
            }
        }
    }
}

/// The flags given to `@Persisted(...)`.
struct PersistedOptions: OptionSet {
    let rawValue: UInt8
    static let indexed = PersistedOptions(rawValue: 1)
    static let primaryKey = PersistedOptions(rawValue: 2)
}

extension Persisted where Value.PersistedType: _Indexable {
    /// An indexed property: equality and range queries on it use a B-tree index.
    public init(indexed: Bool) {
        self.init()
        if indexed { self = Self(wrappedValue: unmanagedValue, options: .indexed) }
    }

    /// An indexed property with a default value.
    public init(wrappedValue value: Value, indexed: Bool) {
        self.init(wrappedValue: value, options: indexed ? .indexed : [])
    }
}

extension Persisted where Value.PersistedType: _PrimaryKey {
    /// The primary key: unique, looked up in O(log n), immutable once the object is added.
    public init(primaryKey: Bool) {
        self.init()
        if primaryKey { self = Self(wrappedValue: unmanagedValue, options: .primaryKey) }
    }

    /// The primary key with a default value.
    public init(wrappedValue value: Value, primaryKey: Bool) {
        self.init(wrappedValue: value, options: primaryKey ? .primaryKey : [])
    }
}

extension Persisted {
    var unmanagedValue: Value {
        guard case .unmanaged(let v) = storage else { preconditionFailure("property is managed") }
        return v
    }
}

/// What the object layer needs from a `Persisted<T>` field without knowing `T`: its type, its
/// flags, and reading or replacing its storage in place (by the field's address).
protocol PersistedField {
    static var typeInfo: _StrataTypeInfo { get }
    static func options(at field: UnsafeMutableRawPointer) -> PersistedOptions
    static func value(at field: UnsafeMutableRawPointer) -> StrataStorage.Value
    static func setValue(_ value: StrataStorage.Value, at field: UnsafeMutableRawPointer)
    static func markManaged(at field: UnsafeMutableRawPointer, index: Int)
    /// The stored value as this field's Swift type, boxed.
    static func box(_ value: StrataStorage.Value) -> Any
}

extension Persisted: PersistedField {
    static var typeInfo: _StrataTypeInfo { Value._strataTypeInfo }

    static func options(at field: UnsafeMutableRawPointer) -> PersistedOptions {
        field.assumingMemoryBound(to: Self.self).pointee.options
    }

    static func value(at field: UnsafeMutableRawPointer) -> StrataStorage.Value {
        field.assumingMemoryBound(to: Self.self).pointee.unmanagedValue._strataValue.value
    }

    static func setValue(_ value: StrataStorage.Value, at field: UnsafeMutableRawPointer) {
        field.assumingMemoryBound(to: Self.self).pointee.storage = .unmanaged(Value._strataFrom(_StrataValue(value)))
    }

    static func markManaged(at field: UnsafeMutableRawPointer, index: Int) {
        field.assumingMemoryBound(to: Self.self).pointee.storage = .managed(index)
    }

    static func box(_ value: StrataStorage.Value) -> Any { Value._strataFrom(_StrataValue(value)) }
}
