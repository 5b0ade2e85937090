import Foundation
import StrataStorage

/// A key type of `Map` (RealmSwift's `_MapKey`): only `String`.
public protocol _MapKey: Hashable, Comparable {
    /// The key as stored.
    var _strataMapKey: String { get }
    /// The key from its stored form.
    static func _strataMapKey(_ key: String) -> Self
}

extension String: _MapKey {
    public var _strataMapKey: String { self }
    public static func _strataMapKey(_ key: String) -> String { key }
}

/// One entry of a `Map`, as its iteration yields it.
public struct SingleMapEntry<Key: _MapKey, Value: RealmCollectionValue>: Hashable {
    /// The entry's key.
    public var key: Key
    /// The entry's value.
    public var value: Value

    /// An entry of `key` and `value`.
    public init(key: Key, value: Value) {
        self.key = key
        self.value = value
    }
}

/// A dictionary of values or objects under string keys: `@Persisted var prices: Map<String, Int>`
/// or `Map<String, Dog?>`. Unmanaged, it holds its entries in memory; once its object is
/// managed its values are stored as a list in key order and its keys beside them
/// (docs/FILE-FORMAT.md, "Maps"), so a lookup is a binary search over the keys. Iteration is in
/// key order. A key cannot contain "." or start with "$", as in RealmSwift; a deleted object
/// value becomes nil.
public final class Map<Key: _MapKey, Value: RealmCollectionValue>: Sequence, CustomStringConvertible, _Persistable {
    public typealias PersistedType = Map<Key, Value>

    /// The entries while unmanaged.
    private var unmanaged: [String: Value] = [:]
    /// Where the map lives once its object is managed (set once, by `adopt`, for a map its
    /// object held when it was added).
    @exclusivity(unchecked) private(set) var store: ListStore?

    /// An empty, unmanaged map.
    public init() { store = nil }

    init(store: ListStore) { self.store = store }

    // MARK: Reading

    /// "Map<string, Dog> <0x…> (" and each entry on its own line (`[key]: value`), as
    /// RealmSwift prints maps.
    public var description: String {
        CollectionDescription.render("Map", "string, " + CollectionDescription.typeName(Value.self), address: self, count: count,
                                     elements: keys.lazy.map { (label: "[\($0)]:", value: self[$0] as Any) }, indentsLabels: false)
    }

    /// The Realm managing the map; nil when it is unmanaged.
    public var realm: Realm? { store.map { Realm(core: $0.core) } }

    /// Whether the map can no longer be read (its object was deleted).
    public var isInvalidated: Bool { store?.isInvalidated ?? false }

    /// The number of entries.
    public var count: Int { store.map { $0.read { try $0.count() } } ?? unmanaged.count }

    /// The keys, in increasing order.
    public var keys: [Key] { storedKeys.map(Key._strataMapKey) }

    /// The values, in the order of their keys.
    public var values: [Value] { Array(valueList) }

    /// The value under `key`, or nil when there is none. Setting nil removes the key; setting
    /// an optional value's nil (`.some(nil)`) stores nil under it.
    public subscript(key: Key) -> Value? {
        get { object(forKey: key) }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeObject(for: key) }
        }
    }

    /// The value under `key`, or nil when there is none.
    public func object(forKey key: Key) -> Value? {
        let k = key._strataMapKey
        guard let store else { return unmanaged[k] }
        return store.read { try $0.value(forKey: k) }.map(store.element)
    }

    /// The entries as `(key, value)` pairs in key order.
    public func makeIterator() -> IndexingIterator<[SingleMapEntry<Key, Value>]> {
        zip(keys, values).map { SingleMapEntry(key: $0, value: $1) }.makeIterator()
    }

    /// The entries as `(key:, value:)` tuples in key order.
    public func asKeyValueSequence() -> AnySequence<(key: Key, value: Value)> {
        AnySequence(zip(keys, values).map { (key: $0, value: $1) })
    }

    /// Whether some entry satisfies `predicate`, given its key and value.
    public func contains(where predicate: @escaping (_ key: Key, _ value: Value) -> Bool) -> Bool {
        asKeyValueSequence().contains { predicate($0.key, $0.value) }
    }

    // MARK: Mutating (inside a write once managed)

    /// Stores `value` under `key`, replacing the value there. Traps on a key with "." or
    /// starting with "$".
    public func updateValue(_ value: Value, forKey key: Key) {
        let k = key._strataMapKey
        guard let store else {
            checkKey(k)
            unmanaged[k] = value
            return
        }
        store.write { map in try map.setValue(try store.storedValue(of: value), forKey: k) }
    }

    /// Stores `value` (a `Value`, or nil to remove) under `key` (key-value coding).
    public func setValue(_ value: Any?, forKey key: String) {
        let k = Key._strataMapKey(key)
        guard let value else { removeObject(for: k); return }
        guard let typed = value as? Value else {
            trap(Realm.Error(.invalidInput, "Map<\(Key.self), \(Value.self)> cannot hold \(type(of: value)) under '\(key)'"))
        }
        updateValue(typed, forKey: k)
    }

    /// Removes `key` and its value; nothing happens when the key is absent.
    public func removeObject(for key: Key) {
        let k = key._strataMapKey
        guard let store else { unmanaged[k] = nil; return }
        store.write { try $0.removeValue(forKey: k) }
    }

    /// The same as `removeObject(for:)` (RealmSwift's other name for it).
    public func removeValue(for key: Key) { removeObject(for: key) }

    /// Removes every entry (object values stay in the Realm).
    public func removeAll() {
        guard let store else { unmanaged.removeAll(); return }
        store.write { try $0.removeAll() }
    }

    /// Stores each `(key, value)` of `sequence`, replacing existing values.
    public func merge<S: Sequence>(_ sequence: S) where S.Element == (key: Key, value: Value) {
        for (k, v) in sequence { updateValue(v, forKey: k) }
    }

    /// Stores each entry of `other`, replacing existing values.
    public func merge(_ other: Map<Key, Value>) { merge(other.asKeyValueSequence()) }

    // MARK: Queries and aggregates (over the values)

    /// The values that match a predicate: objects by their properties, values as `SELF`
    /// (a managed map).
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Value> {
        do { return try valueList.filtered(predicateFormat, args) } catch { trap(error) }
    }

    /// The object values sorted by a property (a map of objects, managed).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Value> {
        valueList.results.sorted(byKeyPath: keyPath, ascending: ascending)
    }

    /// The values as a list in key order: the stored list itself once managed.
    var valueList: List<Value> {
        guard let store else {
            let list = List<Value>()
            list.append(objectsIn: storedKeys.map { unmanaged[$0]! })
            return list
        }
        return List(store: store)
    }

    /// The keys as stored, in increasing UTF-8 order.
    private var storedKeys: [String] {
        guard let store else { return unmanaged.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        return store.read { try $0.keys() }
    }

    private func checkKey(_ key: String) {
        do { try translatingErrors { try StrataStorage.ListStore.checkMapKey(key) } } catch { trap(error) }
    }

    // MARK: _Persistable (stored in the property's own database, not in the row)

    public static var _strataTypeInfo: _StrataTypeInfo {
        var info = List<Value>._strataTypeInfo
        info.isMap = true
        return info
    }

    /// A map value: the managed map itself, or (unmanaged) its entries' values.
    public static func _strataFrom(_ value: _StrataValue) -> Map<Key, Value> {
        if let map = value.collection as? Map<Key, Value> { return map }
        let map = Map<Key, Value>()
        if let contents = value.collection as? MapContents {
            let type = Value.self as! any _Persistable.Type
            for (k, v) in zip(contents.keys, contents.values) { map.unmanaged[k] = (type._strataFrom(v) as! Value) }
        }
        return map
    }

    public var _strataValue: _StrataValue {
        let entries = Array(asKeyValueSequence())
        return _StrataValue(.null, collection: MapContents(keys: entries.map(\.key._strataMapKey),
                                                           values: entries.map { ($0.value as! any _Persistable)._strataValue }))
    }

    /// Copies `value`'s entries into `current`, the map the property keeps.
    public static func _strataAssigned(_ value: Map<Key, Value>, over current: Map<Key, Value>?) -> Map<Key, Value> {
        copying(value, into: current ?? Map<Key, Value>())
    }
}

extension Map where Value.PersistedType: MinMaxType {
    /// The smallest value, or nil.
    public func min() -> Value? { valueList.min() }
    /// The largest value, or nil.
    public func max() -> Value? { valueList.max() }
}

extension Map where Value.PersistedType: AddableType {
    /// The sum of the values (of mixed values, of the numbers among them; zero as an integer
    /// when there are none, as RealmSwift's maps give it).
    public func sum() -> Value { valueList.sum(emptyMixedAsInteger: true) }
    /// The mean of the values, or nil when there are none.
    public func average<T: _HasPersistedType>() -> T? where T.PersistedType: AddableType { valueList.average() }
}

/// The contents of a map value being written: keys in increasing order and their values.
struct MapContents {
    let keys: [String]
    let values: [_StrataValue]
}

extension Map: Equatable {
    /// The same stored map, or two unmanaged maps with equal entries (as RealmSwift compares
    /// unmanaged collections by their contents).
    public static func == (lhs: Map<Key, Value>, rhs: Map<Key, Value>) -> Bool {
        if lhs === rhs { return true }
        switch (lhs.store, rhs.store) {
        case let (a?, b?): return a.isSameCollection(as: b)
        case (nil, nil): return lhs.unmanaged == rhs.unmanaged
        default: return false
        }
    }

    /// Whether `object` is this map (RealmSwift's `NSObject.isEqual`): `==`.
    public func isEqual(_ object: Any?) -> Bool { (object as? Map<Key, Value>).map { $0 == self } ?? false }
}

extension Map: AdoptableCollection {
    func adopt(_ store: ListStore) {
        self.store = store
        unmanaged = [:]
    }
}

extension Map: ListAccess {
    static func managed(_ store: ListStore) -> Any { Map(store: store) }
}
