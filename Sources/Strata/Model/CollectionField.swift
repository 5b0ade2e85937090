/// A list, set or map declared as a `let` holding the collection itself
/// (`let dogs = List<Dog>()`, RealmSwift's form from before `@Persisted`) rather than through
/// `@Persisted`: found by reflection like a box (`BoxedField`), stored as a collection
/// property of its name, and made the managed collection of its object when the object is
/// added or read (`attachBox`), so the field reads and writes the stored collection.
protocol CollectionField: BoxedField, AdoptableCollection, _Persistable {
    /// Replaces the elements with those of `value` (a collection value, as `_strataValue`
    /// makes it): what `init(value:)` and key-value coding of an unmanaged object set.
    func replaceContents(with value: _StrataValue)
}

extension CollectionField {
    static var typeInfo: _StrataTypeInfo { _strataTypeInfo }
    static var valueType: Any.Type { Self.self }
    /// The field is a reference: attaching adopts the collection it holds instead of writing
    /// an index into it.
    static var managedIndexIsFirst: Bool { false }
    static func options(at field: UnsafeMutableRawPointer) -> PersistedOptions { [] }
    static func value(at field: UnsafeMutableRawPointer) -> _StrataValue { collection(at: field)._strataValue }
    static var reader: FieldReader { FieldReader(Self.self) }
    static func setValue(_ value: _StrataValue, at field: UnsafeMutableRawPointer) { collection(at: field).replaceContents(with: value) }
    static func box(_ value: _StrataValue) -> Any { _strataFrom(value) }
    static func instance(at field: UnsafeMutableRawPointer) -> Any { collection(at: field) }

    /// Makes the field's collection the managed collection of `object`'s property `index`
    /// (nothing for an unmanaged object, such as a key-path recorder).
    static func attachBox(at field: UnsafeMutableRawPointer, to object: ObjectBase, index: Int) {
        guard object.managingCore != nil else { return }
        collection(at: field).adopt(ListStore(owner: object, index: index, inOwnersField: true))
    }

    /// The collection a field holds.
    private static func collection(at field: UnsafeMutableRawPointer) -> Self { field.load(as: Self.self) }

    /// `current` holding `value`'s elements instead of its own (`_strataAssigned`: what an
    /// unmanaged object's collection property keeps when a collection is assigned to it).
    static func copying(_ value: Self, into current: Self) -> Self {
        if value as AnyObject !== current as AnyObject { current.replaceContents(with: value._strataValue) }
        return current
    }
}

extension List: CollectionField {
    func replaceContents(with value: _StrataValue) {
        let elements = Array(List._strataFrom(value))
        removeAll()
        append(objectsIn: elements)
    }
}

extension MutableSet: CollectionField {
    func replaceContents(with value: _StrataValue) {
        let elements = Array(MutableSet._strataFrom(value))
        removeAll()
        insert(objectsIn: elements)
    }
}

extension Map: CollectionField {
    func replaceContents(with value: _StrataValue) {
        let entries = Array(Map._strataFrom(value).asKeyValueSequence())
        removeAll()
        merge(entries)
    }
}
