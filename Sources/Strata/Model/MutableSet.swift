import Foundation
import StrataStorage

/// A set of unique values or objects: `@Persisted var tags: MutableSet<String>`. Unmanaged,
/// it holds its elements in memory; once its object is managed it is stored as a list kept
/// in value order (docs/FILE-FORMAT.md, "Sets"), so `contains` is a binary search. The order
/// of iteration is that value order (for objects, the order of their keys) and is otherwise
/// unspecified, as in RealmSwift.
public final class MutableSet<Element: RealmCollectionValue>: RealmCollection, ListBackedCollection, _Persistable {
    public typealias PersistedType = MutableSet<Element>

    /// The elements while unmanaged, each once.
    private(set) var unmanaged: [Element] = []
    /// Where the set lives once its object is managed (set once, by `adopt`, for a set its
    /// object held when it was added).
    @exclusivity(unchecked) private(set) var store: ListStore?

    /// An empty, unmanaged set.
    public init() { store = nil }

    init(store: ListStore) { self.store = store }

    // MARK: Reading

    /// "MutableSet<Dog> <0x…> (" and each member on its own line, as RealmSwift prints sets.
    public var description: String {
        CollectionDescription.render("MutableSet", CollectionDescription.typeName(Element.self), address: self, count: count,
                                     elements: enumerated().lazy.map { (label: "[\($0.offset)]", value: $0.element as Any) })
    }

    /// The element at `position` in the set's order.
    public subscript(position: Int) -> Element {
        guard let store else { return unmanaged[position] }
        return store.element(store.read { try $0.value(at: position) })
    }

    /// The position of `object` in the set's order, or nil when it is not a member.
    public func index(of object: Element) -> Int? {
        guard let store else { return unmanaged.firstIndex(of: object) }
        guard let value = store.existingValue(of: object) else { return nil }
        let place = store.read { try $0.position(of: value) }
        return place.isMember ? place.index : nil
    }

    /// Whether `object` is a member.
    public func contains(_ object: Element) -> Bool {
        guard let store else { return unmanaged.contains(object) }
        guard let value = store.existingValue(of: object) else { return false }
        return store.read { try $0.contains(value) }
    }

    /// The distinct values of property `key` of the members, as a set: what `value(forKey:)`
    /// gives as `Any?` (key-value coding of a set; `"self"`: the members; nil values are left
    /// out).
    func keyValues(forKey key: String) -> Any? {
        Set(elementValues(forKey: key).compactMap { $0 as? AnyHashable })
    }

    /// Whether every member of this set is a member of `possibleSuperset`.
    public func isSubset(of possibleSuperset: MutableSet<Element>) -> Bool {
        allSatisfy(possibleSuperset.contains)
    }

    /// Whether this set and `otherSet` have a member in common.
    public func intersects(_ otherSet: MutableSet<Element>) -> Bool {
        contains(where: otherSet.contains)
    }

    // MARK: Mutating (inside a write once managed)

    /// Adds `object` unless it is a member (an unmanaged object is added to the Realm first).
    public func insert(_ object: Element) { insert(objectsIn: CollectionOfOne(object)) }

    /// Adds each element of `objects` that is not a member.
    public func insert<S: Sequence>(objectsIn objects: S) where S.Iterator.Element == Element {
        guard let store else {
            for o in objects where !unmanaged.contains(o) { unmanaged.append(o) }
            return
        }
        store.write { set in
            for o in objects { try set.insertMember(try store.storedValue(of: o)) }
        }
    }

    /// Removes `object` when it is a member.
    public func remove(_ object: Element) {
        guard let store else { unmanaged.removeAll { $0 == object }; return }
        guard let value = store.existingValue(of: object) else { return }
        store.write { try $0.removeMember(value) }
    }

    /// Removes every member (the objects themselves stay in the Realm).
    public func removeAll() {
        guard let store else { unmanaged.removeAll(); return }
        store.write { try $0.removeAll() }
    }

    /// Keeps only the members that are also members of `other`.
    public func formIntersection(_ other: MutableSet<Element>) {
        for element in Array(self) where !other.contains(element) { remove(element) }
    }

    /// Adds the members of `other`.
    public func formUnion(_ other: MutableSet<Element>) { insert(objectsIn: Array(other)) }

    /// Removes the members of `other`.
    public func subtract(_ other: MutableSet<Element>) {
        for element in Array(other) { remove(element) }
    }

    /// Strata: like `filter(_:_:)` but throws `Realm.Error` (`.invalidInput`) on a bad query.
    public func throwingFilter(_ predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try results.filtered(predicateFormat, args)
    }

    // MARK: Equality and conversion

    /// The same stored set, or unmanaged sets with the same members.
    public static func == (lhs: MutableSet<Element>, rhs: MutableSet<Element>) -> Bool {
        lhs === rhs || sameCollection(lhs, rhs) { Set($0) == Set($1) }
    }

    public func hash(into hasher: inout Hasher) { hashStored(into: &hasher) }

    /// Whether `object` is this collection (RealmSwift's `NSObject.isEqual`): `==`.
    public func isEqual(_ object: Any?) -> Bool { (object as? MutableSet<Element>).map { $0 == self } ?? false }

    // MARK: _Persistable (stored in the property's own database, not in the row)

    public static var _strataTypeInfo: _StrataTypeInfo { collectionTypeInfo(isSet: true) }

    /// A set value: the managed set itself, or (unmanaged) its elements' values.
    public static func _strataFrom(_ value: _StrataValue) -> MutableSet<Element> {
        if let set = value.collection as? MutableSet<Element> { return set }
        let set = MutableSet<Element>()
        set.insert(objectsIn: unmanagedElements(value))
        return set
    }

    public var _strataValue: _StrataValue { collectionValue }

    /// Copies `value`'s members into `current`, the set the property keeps.
    public static func _strataAssigned(_ value: MutableSet<Element>, over current: MutableSet<Element>?) -> MutableSet<Element> {
        copying(value, into: current ?? MutableSet<Element>())
    }
}

extension MutableSet: AdoptableCollection {
    func adopt(_ store: ListStore) {
        self.store = store
        unmanaged = []
    }
}

extension MutableSet: ListAccess {
    static func managed(_ store: ListStore) -> Any { MutableSet(store: store) }
}
