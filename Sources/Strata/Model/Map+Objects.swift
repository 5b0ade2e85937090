import Foundation

// A map of objects (`Map<String, Dog?>`) queried over its values, by property names or
// Swift key paths, as RealmSwift's keyed collections are; and merging with a choice of value.

extension Map where Value: OptionalProtocol, Value.Wrapped: ObjectBase {
    /// The least value of property `property` of the objects (nil values skipped).
    public func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        guard let objects = unmanagedObjects else { return valueList.results.min(ofProperty: property) }
        return AggregateResult.extreme(of: property, in: objects, greatest: false)
    }

    /// The greatest value of property `property` of the objects.
    public func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        guard let objects = unmanagedObjects else { return valueList.results.max(ofProperty: property) }
        return AggregateResult.extreme(of: property, in: objects, greatest: true)
    }

    /// The sum of property `property` over the objects.
    public func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        guard let objects = unmanagedObjects else { return valueList.results.sum(ofProperty: property) }
        return AggregateResult.sum(of: property, in: objects)
    }

    /// The average of property `property` over the objects, or nil when there are none.
    public func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        guard let objects = unmanagedObjects else { return valueList.results.average(ofProperty: property) }
        return AggregateResult.average(of: property, in: objects)
    }

    /// An unmanaged map's objects (nil values left out), whose aggregates are computed from
    /// them as RealmSwift's are; nil for a managed map, which its query answers.
    private var unmanagedObjects: [Value.Wrapped]? {
        store == nil ? values.compactMap { $0 as Any as? Value.Wrapped } : nil
    }

    /// `min(ofProperty:)` of the property `keyPath` reads.
    public func min<T: _HasPersistedType>(of keyPath: KeyPath<Value.Wrapped, T>) -> T? where T.PersistedType: MinMaxType {
        min(ofProperty: _name(for: keyPath))
    }

    /// `max(ofProperty:)` of the property `keyPath` reads.
    public func max<T: _HasPersistedType>(of keyPath: KeyPath<Value.Wrapped, T>) -> T? where T.PersistedType: MinMaxType {
        max(ofProperty: _name(for: keyPath))
    }

    /// `sum(ofProperty:)` of the property `keyPath` reads.
    public func sum<T: _HasPersistedType>(of keyPath: KeyPath<Value.Wrapped, T>) -> T where T.PersistedType: AddableType {
        sum(ofProperty: _name(for: keyPath))
    }

    /// `average(ofProperty:)` of the property `keyPath` reads.
    public func average<T: _HasPersistedType>(of keyPath: KeyPath<Value.Wrapped, T>) -> T? where T.PersistedType: AddableType {
        average(ofProperty: _name(for: keyPath))
    }

    /// The object values matching a type-safe condition (`pets.where { $0.age > 2 }`), in key
    /// order. Traps on an unmanaged map, as RealmSwift does.
    public func `where`(_ isIncluded: ((Query<Value>) -> Query<Bool>)) -> Results<Value> {
        guard store != nil else { fatalError("where(_:) needs a managed map: add its object to a Realm first") }
        return valueList.results.filtered(isIncluded)
    }

    /// The object values sorted by the property `keyPath` reads.
    public func sorted<T: _HasPersistedType>(by keyPath: KeyPath<Value.Wrapped, T>, ascending: Bool = true) -> Results<Value>
    where T.PersistedType: SortableType {
        sorted(byKeyPath: _name(for: keyPath), ascending: ascending)
    }
}

extension Map {
    /// Stores each `(key, value)` of `sequence`; where the key has a value, stores what
    /// `combine` makes of the current value and the new one (as `Dictionary.merge`).
    public func merge<S: Sequence>(_ sequence: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
    where S.Element == (key: Key, value: Value) {
        for (key, value) in sequence {
            updateValue(try object(forKey: key).map { try combine($0, value) } ?? value, forKey: key)
        }
    }

    /// `merge(_:uniquingKeysWith:)` with the entries of `other`.
    public func merge(_ other: Map<Key, Value>, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        try merge(other.asKeyValueSequence(), uniquingKeysWith: combine)
    }
}
