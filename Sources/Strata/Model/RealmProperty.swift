// The older way to declare optional numbers and other values on an `Object` subclass, from
// before `@Persisted`: `let age = RealmProperty<Int?>()`, read and written through `.value`.
// The property is discovered like a `@Persisted` one (its field is found by reflection once
// per class); once the object is managed, the box reads and writes its object's storage.

import StrataStorage

/// A type `RealmProperty` can hold: an optional of a `RealmOptionalType`, or `AnyRealmValue`.
public protocol RealmPropertyType: _Persistable {}

/// A type `RealmOptional` can hold: the numbers, `Bool`, and `PersistableEnum`s.
public protocol RealmOptionalType: _PersistableInsideOptional {}

extension Int: RealmOptionalType {}
extension Int8: RealmOptionalType {}
extension Int16: RealmOptionalType {}
extension Int32: RealmOptionalType {}
extension Int64: RealmOptionalType {}
extension Float: RealmOptionalType {}
extension Double: RealmOptionalType {}
extension Bool: RealmOptionalType {}
extension Optional: RealmPropertyType where Wrapped: RealmOptionalType {}
extension AnyRealmValue: RealmPropertyType {}

/// A stored property held in a box of its own (opaque to users): the value while unmanaged,
/// then the object and declaration index it reads and writes through.
public class _StrataValueBox<Stored: _Persistable> {
    /// The value while the object is unmanaged.
    fileprivate var unmanagedValue: Stored
    /// The managed object the box belongs to (weak: the object holds the box, and a strong
    /// reference back would keep every such object alive).
    fileprivate weak var object: ObjectBase?
    /// The property's declaration index in `object`'s class, once managed.
    fileprivate var index = -1
    /// Where `object` is stored, to read and write it through an accessor of its own when
    /// the box outlives `object` (`realm.objects(Person.self).first!.age.value = 3`).
    fileprivate var home: (core: RealmCore, binding: TableBinding, key: ObjectKey)?

    fileprivate init(unmanaged value: Stored) { unmanagedValue = value }

    /// The value: the object's stored one once managed.
    fileprivate var stored: Stored {
        get {
            guard index >= 0 else { return unmanagedValue }
            return managedObject._managedGet(index, as: Stored.self)
        }
        set {
            if index >= 0 {
                managedObject._managedSet(newValue, index)
            } else {
                unmanagedValue = newValue
            }
        }
    }

    /// The object of a managed box: the accessor it belongs to, or one made for its stored
    /// object when the box outlived that accessor (as RealmSwift's boxes keep theirs); traps
    /// for the box of an object no Realm stores (a key-path recorder's).
    private var managedObject: ObjectBase {
        if let object { return object }
        guard let home else {
            fatalError("This \(Swift.type(of: self)) belongs to an object that no longer exists: keep the object, not only its property, while using it")
        }
        return home.core.object(ObjectBase.self, home.binding, home.key)
    }
}

/// An optional (or other `RealmPropertyType`) value of an `Object` subclass, declared as
/// `let age = RealmProperty<Int?>()` and used through `value`.
public final class RealmProperty<Value: RealmPropertyType>: _StrataValueBox<Value> {
    /// A property whose value is nil (`.none` for `AnyRealmValue`).
    public init() { super.init(unmanaged: Value._strataDefault) }

    /// The value: stored in the Realm once the object is managed.
    public var value: Value {
        get { stored }
        set { stored = newValue }
    }
}

/// The older form of `RealmProperty<Value?>`: an optional number, `Bool` or enum of an
/// `Object` subclass, used through `value`.
@available(*, deprecated, message: "RealmOptional<T> has been deprecated, use RealmProperty<T?> instead.")
public final class RealmOptional<Value: RealmOptionalType>: _StrataValueBox<Value?> {
    /// A property whose value is nil.
    public init() { super.init(unmanaged: nil) }

    /// A property whose value is `value`.
    public convenience init(_ value: Value?) {
        self.init()
        self.value = value
    }

    /// The value: stored in the Realm once the object is managed.
    public var value: Value? {
        get { stored }
        set { stored = newValue }
    }
}

/// A box that may be attached to an object as one of its properties.
protocol AttachedBox {
    /// The declaration index of the property the box is attached as; nil while unattached.
    var attachedIndex: Int? { get }
}

extension _StrataValueBox: AttachedBox {
    var attachedIndex: Int? { index >= 0 ? index : nil }
}

extension _StrataValueBox: BoxedField {
    static var typeInfo: _StrataTypeInfo { Stored._strataTypeInfo }
    static var valueType: Any.Type { Stored.self }
    /// A box's field is a reference: `ObjectBase.attach` attaches the box (`attachBox`)
    /// instead of writing an index into the field.
    static var managedIndexIsFirst: Bool { false }
    static func options(at field: UnsafeMutableRawPointer) -> PersistedOptions { [] }
    static func value(at field: UnsafeMutableRawPointer) -> _StrataValue { box(at: field).unmanagedValue._strataValue }
    static var reader: FieldReader { FieldReader(Self.self) }
    static func setValue(_ value: _StrataValue, at field: UnsafeMutableRawPointer) {
        box(at: field).unmanagedValue = Stored._strataFrom(value)
    }
    static func box(_ value: _StrataValue) -> Any { Stored._strataFrom(value) }
    static func attachBox(at field: UnsafeMutableRawPointer, to object: ObjectBase, index: Int) {
        let box = box(at: field)
        box.object = object
        box.index = index
        if let core = object.managingCore, let binding = object.binding { box.home = (core, binding, object.objectKey) }
    }

    /// The box a field holds.
    private static func box(at field: UnsafeMutableRawPointer) -> _StrataValueBox<Stored> {
        field.load(as: _StrataValueBox<Stored>.self)
    }
}
