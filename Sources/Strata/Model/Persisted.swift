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
    /// The property's declaration index once the object is managed, -1 before. The first
    /// field, so that making an object managed writes it in place (`ObjectBase.attach`).
    @usableFromInline var managedIndex: Int32 = -1
    /// The value while unmanaged (ignored once managed: reads go to the store). Nil only for
    /// a property declared without a value whose type has no default (a failable custom type
    /// that does not convert the stored type's default): reading it fails then, as in
    /// RealmSwift, rather than making an object of the class (as building the default schema
    /// does) or setting it.
    @usableFromInline var value: Value?
    @usableFromInline let options: PersistedOptions

    @available(*, unavailable, message: "@Persisted can only be used as a property on a Realm object")
    public var wrappedValue: Value {
        get { fatalError("@Persisted can only be used as a property on a Realm object") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Persisted can only be used as a property on a Realm object") }
    }

    /// A property with the type's default value (0, "", false, empty Data, nil, the reference
    /// date, the zero UUID, a newly generated ObjectId).
    @inlinable
    public init() {
        self.init(options: [])
    }

    /// A property with an explicit default value.
    @inlinable
    public init(wrappedValue value: Value) { self.init(wrappedValue: value, options: []) }

    @inlinable
    init(wrappedValue value: Value, options: PersistedOptions) {
        self.value = value
        self.options = options
    }

    /// A property declared without a value: the type's default, when it has one.
    @inlinable
    init(options: PersistedOptions) {
        value = Value._strataDefaultIfAny
        self.options = options
    }

    /// The value of a property of a type without a default that was never set: the
    /// default's failure (kept out of line, off the path of every other read).
    @usableFromInline @inline(never)
    static func unsetValue() -> Value { Value._strataDefault }

    /// The unmanaged value of the field at `field` (for a type without a default, unset: the
    /// default's failure).
    static func unmanagedValue(at field: UnsafeMutablePointer<Self>) -> Value {
        field.pointee.value ?? Value._strataDefault
    }

    /// Access through the enclosing object (restricts @Persisted to ObjectBase subclasses).
    /// Always inlined into the model's property, where `storageKeyPath` is a constant that
    /// compiles to the field's address; left a call, it is a key path walked at run time
    /// (about a thousand instructions per access).
    @inlinable
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance observed: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        @inline(__always) get {
            let index = observed[keyPath: storageKeyPath].managedIndex
            if index < 0 {
                if let value = observed[keyPath: storageKeyPath].value { return value }
                return unsetValue()
            }
            return observed._managedGet(Int(index), as: Value.self)
        }
        @inline(__always) set {
            let index = observed[keyPath: storageKeyPath].managedIndex
            if index < 0 {
                observed[keyPath: storageKeyPath].value = Value._strataAssigned(newValue, over: observed[keyPath: storageKeyPath].value)
            } else {
                observed._managedSet(newValue, Int(index))
            }
        }
    }
}

/// The flags given to `@Persisted(...)`.
@usableFromInline
struct PersistedOptions: OptionSet {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
    @inlinable static var indexed: PersistedOptions { PersistedOptions(rawValue: 1) }
    @inlinable static var primaryKey: PersistedOptions { PersistedOptions(rawValue: 2) }
}

extension Persisted where Value.PersistedType: _Indexable {
    /// An indexed property: `==` and `IN` queries on it use a B-tree index.
    @inlinable
    public init(indexed: Bool) {
        self.init(options: indexed ? .indexed : [])
    }

    /// An indexed property with a default value.
    @inlinable
    public init(wrappedValue value: Value, indexed: Bool) {
        self.init(wrappedValue: value, options: indexed ? .indexed : [])
    }
}

extension Persisted where Value.PersistedType: _PrimaryKey {
    /// The primary key: unique, looked up in O(log n), immutable once the object is added.
    @inlinable
    public init(primaryKey: Bool) {
        self.init(options: primaryKey ? .primaryKey : [])
    }

    /// The primary key with a default value.
    @inlinable
    public init(wrappedValue value: Value, primaryKey: Bool) {
        self.init(wrappedValue: value, options: primaryKey ? .primaryKey : [])
    }
}

/// What the object layer needs from a `Persisted<T>` field without knowing `T`: its type, its
/// flags, and reading or replacing its value in place (by the field's address). Making a field
/// managed needs no `T`: it writes `managedIndex`, the first field.
protocol PersistedField {
    static var typeInfo: _StrataTypeInfo { get }
    /// The Swift type of the property (`T`).
    static var valueType: Any.Type { get }
    /// Whether `managedIndex` is at offset 0, as `ObjectBase.attach` assumes.
    static var managedIndexIsFirst: Bool { get }
    static func options(at field: UnsafeMutableRawPointer) -> PersistedOptions
    static func value(at field: UnsafeMutableRawPointer) -> _StrataValue
    /// `value(at:)` as an object made once per property: calling it needs no generic type
    /// lookups (it carries `T`), which matters on the path that adds objects.
    static var reader: FieldReader { get }
    static func setValue(_ value: _StrataValue, at field: UnsafeMutableRawPointer)
    /// The stored value as this field's Swift type, boxed.
    static func box(_ value: _StrataValue) -> Any
    /// For a list, set or map field of `owner` (just added to a Realm, as its property
    /// `index`): makes the collection the field holds the managed one, for whoever kept it, and
    /// gives the field a fresh one (the object must not hold a collection that holds it).
    static func adoptCollection(at field: UnsafeMutableRawPointer, owner: ObjectBase, index: Int)
    /// The value the field holds, as its Swift type: for a list, set or map the instance
    /// itself (key-value coding of an unmanaged object hands it out, and writes through it).
    static func instance(at field: UnsafeMutableRawPointer) -> Any
    /// For a to-one link field of an object just added to a Realm: lets go of the unmanaged
    /// object it held (reads now go to storage), so added objects linking each other do not
    /// keep each other alive.
    static func releaseLinkedObject(at field: UnsafeMutableRawPointer)
}

extension PersistedField {
    /// A field that holds no collection has none to adopt.
    static func adoptCollection(at field: UnsafeMutableRawPointer, owner: ObjectBase, index: Int) {}

    /// A field that holds no link directly has no object to let go of.
    static func releaseLinkedObject(at field: UnsafeMutableRawPointer) {}

    /// A boxed field's value, made from what it holds.
    static func instance(at field: UnsafeMutableRawPointer) -> Any { box(value(at: field)) }
}

/// Reads the unmanaged value one kind of field holds at its address (`PersistedField.reader`),
/// through the field type's `value(at:)`. A class held by the `ModelClass`, so that the path
/// adding objects calls it borrowed, with no reference counted per call (as a closure's
/// context would be).
class FieldReader {
    private let field: PersistedField.Type

    init(_ field: PersistedField.Type) { self.field = field }

    func value(at field: UnsafeMutableRawPointer) -> _StrataValue { self.field.value(at: field) }
}

/// Reads a `@Persisted` field's value in place, at its offset found once: a call then needs
/// no `Persisted<Value>` metadata (looking that up cost more than the read).
final class InPlaceReader<Value: _Persistable>: FieldReader {
    private let offset: Int

    init(_ field: PersistedField.Type, offset: Int) {
        self.offset = offset
        super.init(field)
    }

    override func value(at field: UnsafeMutableRawPointer) -> _StrataValue {
        (field + offset).assumingMemoryBound(to: Value.self).pointee._strataValue
    }
}

/// A list, set or map that becomes the managed collection of its object's property when the
/// object is added to a Realm: code that held it before goes on reading and writing it.
protocol AdoptableCollection: AnyObject {
    /// Makes the collection the one `store` holds (its unmanaged elements were written there).
    func adopt(_ store: ListStore)
}

/// A field that holds a reference to a box of the value (`RealmProperty`, `RealmOptional`)
/// rather than the value: making it managed attaches the box to its object and index.
protocol BoxedField: PersistedField {
    static func attachBox(at field: UnsafeMutableRawPointer, to object: ObjectBase, index: Int)
}

extension Persisted: PersistedField {
    static var typeInfo: _StrataTypeInfo { Value._strataTypeInfo }
    static var valueType: Any.Type { Value.self }
    static var managedIndexIsFirst: Bool { MemoryLayout<Self>.offset(of: \Self.managedIndex) == 0 }

    static func options(at field: UnsafeMutableRawPointer) -> PersistedOptions {
        field.assumingMemoryBound(to: Self.self).pointee.options
    }

    static func instance(at field: UnsafeMutableRawPointer) -> Any {
        unmanagedValue(at: field.assumingMemoryBound(to: Self.self))
    }

    static func releaseLinkedObject(at field: UnsafeMutableRawPointer) {
        field.assumingMemoryBound(to: Self.self).pointee.value = Value._strataDefaultIfAny
    }

    static func adoptCollection(at field: UnsafeMutableRawPointer, owner: ObjectBase, index: Int) {
        let persisted = field.assumingMemoryBound(to: Self.self)
        guard let collection = persisted.pointee.value as? AdoptableCollection else { return }
        collection.adopt(ListStore(owner: owner, index: index))
        persisted.pointee.value = Value._strataDefault
    }

    static func value(at field: UnsafeMutableRawPointer) -> _StrataValue {
        unmanagedValue(at: field.assumingMemoryBound(to: Self.self))._strataValue
    }

    static var reader: FieldReader {
        // Only a type without a default can hold nil: any other field's value is read in
        // place (an optional's payload is at its start), with no optional to look at, whose
        // metadata this generic code would look up on every call.
        guard Value._strataDefaultIfAny != nil else { return FieldReader(Self.self) }
        return InPlaceReader<Value>(Self.self, offset: MemoryLayout<Self>.offset(of: \Self.value)!)
    }

    /// A list, set or map takes the elements into the collection the field holds (as the
    /// property's setter does), so that code holding it sees them.
    static func setValue(_ value: _StrataValue, at field: UnsafeMutableRawPointer) {
        let persisted = field.assumingMemoryBound(to: Self.self)
        persisted.pointee.value = Value._strataAssigned(Value._strataFrom(value), over: persisted.pointee.value)
    }

    static func box(_ value: _StrataValue) -> Any { Value._strataFrom(value) }
}
