import Foundation
import StrataStorage

/// A collection stored as a list property of its object (`List`, `MutableSet`): unmanaged,
/// an array of its elements; managed, a `ListStore`. Its reads and its queries (as results
/// over the list's objects) are shared here.
protocol ListBackedCollection: RealmCollection, StoredCollection {
    /// The elements while unmanaged.
    var unmanaged: [Element] { get }
    /// What `value(forKey:)` gives as `Any?` (through `RealmCollection`): by default the
    /// elements' values as an array.
    func keyValues(forKey key: String) -> Any?
}

extension ListBackedCollection {
    public var realm: Realm? { store.map { Realm(core: $0.core) } }
    public var isInvalidated: Bool { store?.isInvalidated ?? false }
    public var count: Int { store.map { $0.read { try $0.count() } } ?? unmanaged.count }
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public func makeIterator() -> RLMIterator<Element> {
        guard let store else { return RLMIterator(elements: unmanaged) }
        let values = store.read { try $0.values() }
        return RLMIterator(count: values.count) { store.element(values[$0]) }
    }

    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        results.index(matching: predicateFormat, arguments: args)
    }

    public func objects(at indexes: IndexSet) -> [Element] { indexes.map { self[$0] } }

    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do { return try filtered(predicateFormat, args) } catch { trap(error) }
    }

    /// The elements that match `text`: objects by their properties, values as `SELF`
    /// (`ValueFilter`).
    func filtered(_ text: String, _ args: [Any]) throws -> Results<Element> {
        if let store, store.targetInfo == nil {
            let filter = try ValueFilter(text, args, elementOf: store.property, core: store.core)
            return valueResults { $0.filters.append(filter) }
        }
        return try results.filtered(text, args)
    }

    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Iterator.Element == SortDescriptor {
        results.sorted(by: sortDescriptors)
    }

    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Iterator.Element == String {
        results.distinct(by: keyPaths)
    }

    // Aggregates: of the stored objects, or of an unmanaged collection's objects.

    public func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        guard store == nil else { return results.min(ofProperty: property) }
        return AggregateResult.extreme(of: property, in: unmanaged, greatest: false)
    }

    public func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        guard store == nil else { return results.max(ofProperty: property) }
        return AggregateResult.extreme(of: property, in: unmanaged, greatest: true)
    }

    public func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        guard store == nil else { return results.sum(ofProperty: property) }
        return AggregateResult.sum(of: property, in: unmanaged)
    }

    public func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        guard store == nil else { return results.average(ofProperty: property) }
        return AggregateResult.average(of: property, in: unmanaged)
    }

    /// The values of property `key` of the elements, in order, as key-value coding hands them
    /// out (numbers as `NSNumber`); `"self"`: the elements themselves, which also serves a
    /// collection of values.
    public func value(forKey key: String) -> Any? { keyValues(forKey: key) }
    func keyValues(forKey key: String) -> Any? { elementValues(forKey: key) }
    /// `value(forKey:)`, or a key-value collection operator (`@count`, `@sum.age`, ...): of the
    /// stored objects, or of an unmanaged collection's.
    public func value(forKeyPath keyPath: String) -> Any? {
        guard store == nil else { return results.value(forKeyPath: keyPath) }
        return CollectionOperator.value(forKeyPath: keyPath, count: count) { elementValues(forKey: $0) }
    }
    /// Sets property `key` of every element (objects; inside a write once managed).
    public func setValue(_ value: Any?, forKey key: String) {
        guard store == nil else { return results.setValue(value, forKey: key) }
        for case let object as Object in unmanaged { object.setValue(value, forKey: key) }
    }

    /// `value(forKey:)` as an array: of the elements for `"self"`, of their property `key`
    /// (read through the results of a managed collection, or object by object) otherwise.
    func elementValues(forKey key: String) -> [Any?] {
        if key == "self" { return map { KeyValueCoding.bridged($0) } }
        if store == nil, Element.self is Object.Type {
            return unmanaged.map { ($0 as! Object).value(forKeyPath: key) }
        }
        return results.value(forKey: key) as? [Any?] ?? []
    }

    /// The collection's objects as results (for queries): a managed collection of objects only.
    var results: Results<Element> {
        guard let store else {
            fatalError("Queries on a \(Self.self) need a managed collection of objects: add its object to a Realm first")
        }
        guard let target = store.targetInfo else {
            fatalError("Key paths do not apply to a \(Self.self) of values: filter it with SELF (\"SELF BEGINSWITH 'a'\"), sort it with sorted(ascending:)")
        }
        return Results(core: store.core, info: target,
                       source: .list(property: store.property.name, owner: store.ownerKey, ownerInfo: store.owner.binding!.info))
    }

    /// The same stored collection, or two unmanaged ones whose elements `sameElements`
    /// finds equal (as RealmSwift compares unmanaged collections by their contents).
    static func sameCollection(_ lhs: Self, _ rhs: Self, sameElements: ([Element], [Element]) -> Bool) -> Bool {
        switch (lhs.store, rhs.store) {
        case let (a?, b?): a.isSameCollection(as: b)
        case (nil, nil): sameElements(lhs.unmanaged, rhs.unmanaged)
        default: false
        }
    }

    /// Hashes what `sameCollection` compares: a stored collection's owner and property;
    /// unmanaged collections, equal by contents that may change, all hash alike.
    func hashStored(into hasher: inout Hasher) {
        guard let store else { return }
        hasher.combine(store.ownerKey)
        hasher.combine(store.property.name)
    }

    /// The collection's value to store: its elements' values (a managed one's read back).
    var collectionValue: _StrataValue {
        let elements = store == nil ? unmanaged : Array(self)
        return _StrataValue(.null, collection: elements.map { ($0 as! any _Persistable)._strataValue })
    }

    /// The elements of an unmanaged collection value (as `_strataValue` makes it).
    static func unmanagedElements(_ value: _StrataValue) -> [Element] {
        let type = Element.self as! any _Persistable.Type
        return (value.collection as? [_StrataValue] ?? []).map { type._strataFrom($0) as! Element }
    }

    /// How a collection of `Element` is stored, as a list or a set of the element's type.
    static func collectionTypeInfo(isSet: Bool) -> _StrataTypeInfo {
        guard let element = Element.self as? any _Persistable.Type else {
            preconditionFailure("\(Self.self): the element type cannot be stored")
        }
        var info = element._strataTypeInfo
        info.isList = true
        info.isSet = isSet
        return info
    }
}
