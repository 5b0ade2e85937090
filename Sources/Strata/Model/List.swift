import Foundation
import StrataStorage

/// An ordered to-many relationship or list of values: `@Persisted var dogs: List<Dog>`,
/// `@Persisted var tags: List<String>`. Unmanaged, it is a plain array; once its object is
/// managed it reads and writes the store, where any element is reached in O(log n) (lists are
/// stored in chunks: see docs/FILE-FORMAT.md). The same object may appear several times.
public final class List<Element: RealmCollectionValue>: RealmCollection, ListBackedCollection, _Persistable {
    public typealias PersistedType = List<Element>

    /// The elements while unmanaged.
    private(set) var unmanaged: [Element] = []
    /// Where the list lives once its object is managed (set once, by `adopt`, for a list its
    /// object held when it was added).
    @exclusivity(unchecked) private(set) var store: ListStore?

    /// An empty, unmanaged list.
    public init() { store = nil }

    init(store: ListStore) { self.store = store }

    // MARK: Reading

    /// "List<Dog> <0x…> (" and each element on its own line, as RealmSwift prints lists.
    public var description: String {
        CollectionDescription.render("List", CollectionDescription.typeName(Element.self), address: self, count: count,
                                     elements: enumerated().lazy.map { (label: "[\($0.offset)]", value: $0.element as Any) })
    }

    /// The element at `position`; setting it replaces the element (inside a write).
    public subscript(position: Int) -> Element {
        get {
            guard let store else { return unmanaged[position] }
            return store.element(store.read { try $0.value(at: position) })
        }
        set { replace(index: position, object: newValue) }
    }

    /// The index of the first occurrence of `object`, or nil.
    public func index(of object: Element) -> Int? {
        guard let store else { return unmanaged.firstIndex(of: object) }
        guard let value = store.existingValue(of: object) else { return nil }
        return store.read { try $0.values() }.firstIndex(of: value)
    }

    // MARK: Mutating (inside a write once managed)

    /// Appends `object` (an unmanaged object is added to the Realm with its graph).
    public func append(_ object: Element) { appendElements([object]) }

    /// Appends every element of `objects`.
    public func append<S: Sequence>(objectsIn objects: S) where S.Iterator.Element == Element {
        appendElements(Array(objects))
    }

    /// Appends `newElements`: at the end of the stored list, without counting it first.
    private func appendElements(_ newElements: [Element]) {
        guard let store else { return unmanaged.append(contentsOf: newElements) }
        store.write { list in try list.insert(newElements.map { try store.storedValue(of: $0) }, at: nil) }
    }

    /// Inserts `object` at `index` (0...count).
    public func insert(_ object: Element, at index: Int) { insert(contentsOf: [object], at: index) }

    /// Inserts `newElements` at `i` (0...count).
    public func insert<C: Collection>(contentsOf newElements: C, at i: Int) where C.Iterator.Element == Element {
        guard let store else {
            precondition(i >= 0 && i <= unmanaged.count, "Index \(i) is out of bounds (must be at most \(unmanaged.count))")
            unmanaged.insert(contentsOf: newElements, at: i)
            return
        }
        store.write { list in try list.insert(newElements.map { try store.storedValue(of: $0) }, at: i) }
    }

    /// Replaces `bounds` of the elements while unmanaged (`replaceSubrange`).
    func replaceUnmanaged(_ bounds: Range<Int>, with elements: [Element]) {
        unmanaged.replaceSubrange(bounds, with: elements)
    }

    /// Removes the element at `index`.
    public func remove(at index: Int) {
        guard let store else { unmanaged.remove(at: index); return }
        store.write { try $0.remove(at: index) }
    }

    /// Removes every element (the objects themselves stay in the Realm).
    public func removeAll() {
        guard let store else { unmanaged.removeAll(); return }
        store.write { try $0.removeAll() }
    }

    /// Removes the first `number` elements.
    public func removeFirst(_ number: Int = 1) {
        precondition(number >= 0 && number <= count, "Cannot remove \(number) elements from a list of \(count)")
        for _ in 0..<number { remove(at: 0) }
    }

    /// Removes the last `number` elements.
    public func removeLast(_ number: Int = 1) {
        precondition(number >= 0 && number <= count, "Cannot remove \(number) elements from a list of \(count)")
        for _ in 0..<number { remove(at: count - 1) }
    }

    /// Replaces the element at `index` with `object`.
    public func replace(index: Int, object: Element) {
        guard let store else { unmanaged[index] = object; return }
        store.write { list in try list.replace(at: index, with: try store.storedValue(of: object)) }
    }

    /// Moves the element at `from` so that it ends up at `to`.
    public func move(from: Int, to: Int) {
        guard let store else { unmanaged.insert(unmanaged.remove(at: from), at: to); return }
        store.write { try $0.move(from: from, to: to) }
    }

    /// Exchanges the elements at two indexes.
    public func swapAt(_ index1: Int, _ index2: Int) {
        guard let store else { unmanaged.swapAt(index1, index2); return }
        store.write { try $0.swapAt(index1, index2) }
    }

    // MARK: Queries (lists of objects)

    /// Strata: like `filter(_:_:)` but throws `Realm.Error` (`.invalidInput`) on a bad query.
    public func throwingFilter(_ predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try results.filtered(predicateFormat, args)
    }

    // MARK: Equality and conversion

    /// The same stored list, or unmanaged lists with equal elements in the same order.
    public static func == (lhs: List<Element>, rhs: List<Element>) -> Bool {
        lhs === rhs || sameCollection(lhs, rhs) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) { hashStored(into: &hasher) }

    /// Whether `object` is this collection (RealmSwift's `NSObject.isEqual`): `==`.
    public func isEqual(_ object: Any?) -> Bool { (object as? List<Element>).map { $0 == self } ?? false }

    // MARK: _Persistable (stored in the list's own database, not in the row)

    public static var _strataTypeInfo: _StrataTypeInfo { collectionTypeInfo(isSet: false) }

    /// A list value: the managed list itself, or (unmanaged) its elements' values.
    public static func _strataFrom(_ value: _StrataValue) -> List<Element> {
        if let list = value.collection as? List<Element> { return list }
        let list = List<Element>()
        list.unmanaged = unmanagedElements(value)
        return list
    }

    public var _strataValue: _StrataValue { collectionValue }

    /// Copies `value`'s elements into `current`, the list the property keeps.
    public static func _strataAssigned(_ value: List<Element>, over current: List<Element>?) -> List<Element> {
        copying(value, into: current ?? List<Element>())
    }
}

extension List: AdoptableCollection {
    func adopt(_ store: ListStore) {
        self.store = store
        unmanaged = []
    }
}

extension List: ListAccess {
    static func managed(_ store: ListStore) -> Any { List(store: store) }
}

/// Builds a managed `List<T>` without knowing `T`.
protocol ListAccess { static func managed(_ store: ListStore) -> Any }
