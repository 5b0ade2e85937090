import Foundation

// Queries on the stored form of enums and custom types (RealmSwift's `rawValue` and
// `persistableValue`): comparisons the Swift type cannot express, such as a prefix of a
// string enum's raw value that no case has, or a range over a custom type's persisted value.
// The property is the same; only the type of the values it is compared with changes.

extension Query where T: PersistableEnum {
    /// The enum's raw value: `$0.kind.rawValue > 1`.
    public var rawValue: Query<T.RawValue> { Query<T.RawValue>(node, context, format: format) }
}

extension Query where T: OptionalProtocol, T.Wrapped: PersistableEnum {
    /// The optional enum's raw value (nil stays nil).
    public var rawValue: Query<T.Wrapped.RawValue?> { Query<T.Wrapped.RawValue?>(node, context, format: format) }
}

extension Query where T: RealmCollection, T.Element: PersistableEnum, T.Element.RawValue: RealmCollectionValue {
    /// The raw values of a collection of enums.
    public var rawValue: Query<AnyRealmCollection<T.Element.RawValue>> {
        Query<AnyRealmCollection<T.Element.RawValue>>(node, context, format: format)
    }
}

extension Query where T: RealmKeyedCollection, T.Value: PersistableEnum, T.Value.RawValue: RealmCollectionValue {
    /// The raw values of a map of enums.
    public var rawValue: Query<Map<T.Key, T.Value.RawValue>> { Query<Map<T.Key, T.Value.RawValue>>(node, context, format: format) }
}

extension Query where T: RealmCollection, T.Element: OptionalProtocol, T.Element.Wrapped: PersistableEnum,
                      T.Element.Wrapped.RawValue: _RealmCollectionValueInsideOptional {
    /// The raw values of a collection of optional enums (nil stays nil).
    public var rawValue: Query<AnyRealmCollection<T.Element.Wrapped.RawValue?>> {
        Query<AnyRealmCollection<T.Element.Wrapped.RawValue?>>(node, context, format: format)
    }
}

extension Query where T: RealmKeyedCollection, T.Value: OptionalProtocol, T.Value.Wrapped: PersistableEnum,
                      T.Value.Wrapped.RawValue: _RealmCollectionValueInsideOptional {
    /// The raw values of a map of optional enums (nil stays nil).
    public var rawValue: Query<Map<T.Key, T.Value.Wrapped.RawValue?>> {
        Query<Map<T.Key, T.Value.Wrapped.RawValue?>>(node, context, format: format)
    }
}

extension Query where T: RealmCollection, T.Element.PersistedType: RealmCollectionValue {
    /// The values of a collection as stored: `$0.sizes.persistableValue.contains(1...3)`.
    public var persistableValue: Query<AnyRealmCollection<T.Element.PersistedType>> {
        Query<AnyRealmCollection<T.Element.PersistedType>>(node, context, format: format)
    }
}

extension Query where T: RealmKeyedCollection, T.Value.PersistedType: RealmCollectionValue {
    /// The values of a map as stored.
    public var persistableValue: Query<Map<T.Key, T.Value.PersistedType>> {
        Query<Map<T.Key, T.Value.PersistedType>>(node, context, format: format)
    }
}

extension Query where T: _HasPersistedType {
    /// The value as stored: an enum's raw value, a custom type's persisted value.
    public var persistableValue: Query<T.PersistedType> { Query<T.PersistedType>(node, context, format: format) }
}
