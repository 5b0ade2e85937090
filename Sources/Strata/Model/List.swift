import Foundation
import StrataStorage

/// An ordered to-many relationship or list of values: `@Persisted var dogs: List<Dog>`,
/// `@Persisted var tags: List<String>`. Unmanaged, it is a plain array; once its object is
/// managed it reads and writes the store, where any element is reached in O(log n) (lists are
/// stored in chunks: see docs/FILE-FORMAT.md). The same object may appear several times.
public final class List<Element: RealmCollectionValue>: RealmCollection, _Persistable {
    public typealias PersistedType = List<Element>

    private var unmanaged: [Element] = []
    /// Where the list lives once its object is managed.
    let store: ListStore?

    /// An empty, unmanaged list.
    public init() { store = nil }

    init(store: ListStore) { self.store = store }

    // MARK: Reading

    public var realm: Realm? { store.map { Realm(core: $0.core) } }
    public var isInvalidated: Bool { store?.owner.isInvalidated ?? false }
    public var count: Int { store.map { $0.read { try $0.count() } } ?? unmanaged.count }
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public var description: String { "List<\(Element.self)> <\(count) elements>" }

    /// The element at `position`; setting it replaces the element (inside a write).
    public subscript(position: Int) -> Element {
        get {
            guard let store else { return unmanaged[position] }
            return element(store.read { try $0.value(at: position) }, store)
        }
        set { replace(index: position, object: newValue) }
    }

    public func makeIterator() -> RLMIterator<Element> {
        guard let store else { return RLMIterator(elements: unmanaged) }
        let values = store.read { try $0.values() }
        return RLMIterator(count: values.count) { self.element(values[$0], store) }
    }

    /// The index of the first occurrence of `object`, or nil.
    public func index(of object: Element) -> Int? {
        guard let store else { return unmanaged.firstIndex(of: object) }
        guard let value = store.existingValue(of: object) else { return nil }
        return store.read { try $0.values() }.firstIndex(of: value)
    }

    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        results.index(matching: predicateFormat, arguments: args)
    }

    public func objects(at indexes: IndexSet) -> [Element] { indexes.map { self[$0] } }

    // MARK: Mutating (inside a write once managed)

    /// Appends `object` (an unmanaged object is added to the Realm with its graph).
    public func append(_ object: Element) { insert(contentsOf: [object], at: count) }

    /// Appends every element of `objects`.
    public func append<S: Sequence>(objectsIn objects: S) where S.Iterator.Element == Element {
        insert(contentsOf: Array(objects), at: count)
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
        store.write { list in try list.insert([try list.remove(at: from)], at: to) }
    }

    /// Exchanges the elements at two indexes.
    public func swapAt(_ index1: Int, _ index2: Int) {
        guard let store else { unmanaged.swapAt(index1, index2); return }
        store.write { list in
            let a = try list.value(at: index1), b = try list.value(at: index2)
            try list.replace(at: index1, with: b)
            try list.replace(at: index2, with: a)
        }
    }

    // MARK: Queries (lists of objects)

    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do { return try results.filtered(predicateFormat, args) } catch { trap(error) }
    }

    /// Strata: like `filter(_:_:)` but throws `Realm.Error` (`.invalidInput`) on a bad query.
    public func throwingFilter(_ predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try results.filtered(predicateFormat, args)
    }

    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Iterator.Element == SortDescriptor {
        results.sorted(by: sortDescriptors)
    }

    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Iterator.Element == String {
        results.distinct(by: keyPaths)
    }

    public func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        results.min(ofProperty: property)
    }

    public func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        results.max(ofProperty: property)
    }

    public func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        results.sum(ofProperty: property)
    }

    public func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        results.average(ofProperty: property)
    }

    public func value(forKey key: String) -> Any? { results.value(forKey: key) }
    public func value(forKeyPath keyPath: String) -> Any? { results.value(forKeyPath: keyPath) }
    public func setValue(_ value: Any?, forKey key: String) { results.setValue(value, forKey: key) }

    /// The list's objects as results (for queries): a managed list of objects only.
    var results: Results<Element> {
        guard let store, let target = store.targetInfo else {
            fatalError("Queries on a List need a managed list of objects: add its object to a Realm first")
        }
        return Results(core: store.core, info: target,
                       source: .list(property: store.property.name, owner: store.ownerKey, ownerInfo: store.owner.binding!.info))
    }

    // MARK: Equality and conversion

    /// The same stored list, or (unmanaged) the same instance.
    public static func == (lhs: List<Element>, rhs: List<Element>) -> Bool {
        if lhs === rhs { return true }
        guard let a = lhs.store, let b = rhs.store else { return false }
        return a.core.file === b.core.file && a.ownerKey == b.ownerKey && a.property == b.property
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The Swift element of a stored value.
    private func element(_ value: StrataStorage.Value, _ store: ListStore) -> Element {
        var converted = _StrataValue(value)
        if case .link(let key) = value, let target = store.targetBinding {
            converted = _StrataValue(value, object: store.core.object(ObjectBase.self, target, key))
        }
        return (Element.self as! any _Persistable.Type)._strataFrom(converted) as! Element
    }

    // MARK: _Persistable (stored in the list's own database, not in the row)

    public static var _strataTypeInfo: _StrataTypeInfo {
        guard let element = Element.self as? any _Persistable.Type else {
            preconditionFailure("List<\(Element.self)>: the element type cannot be stored")
        }
        var info = element._strataTypeInfo
        info.isList = true
        return info
    }

    /// A list value: the managed list itself, or (unmanaged) its elements' values.
    public static func _strataFrom(_ value: _StrataValue) -> List<Element> {
        if let list = value.collection as? List<Element> { return list }
        let list = List<Element>()
        for v in value.collection as? [_StrataValue] ?? [] {
            list.unmanaged.append((Element.self as! any _Persistable.Type)._strataFrom(v) as! Element)
        }
        return list
    }

    public var _strataValue: _StrataValue {
        let elements = store == nil ? unmanaged : Array(self)
        return _StrataValue(.null, collection: elements.map { ($0 as! any _Persistable)._strataValue })
    }
}

extension List: ListAccess {
    static func managed(_ store: ListStore) -> Any { List(store: store) }
}

/// Builds a managed `List<T>` without knowing `T`.
protocol ListAccess { static func managed(_ store: ListStore) -> Any }

/// Where a managed list lives: its object, its property, and the Realm.
final class ListStore {
    let core: RealmCore
    let owner: ObjectBase
    let ownerKey: ObjectKey
    /// The list property's declaration index in the owner's class.
    let index: Int
    let table: Table
    let property: PropertySchema
    /// For a list of objects, the element class and its binding.
    let targetInfo: ModelClass?
    let targetBinding: TableBinding?

    init(owner: ObjectBase, index: Int) {
        self.owner = owner
        core = owner.managingCore!
        ownerKey = owner.objectKey
        self.index = index
        let binding = owner.binding!
        table = binding.table
        property = binding.properties[index]
        let core = owner.managingCore!
        let target = binding.info.properties[index].linkTarget.map(ModelClass.forType)
        targetInfo = target
        targetBinding = core.reading { try target.flatMap { try core.binding(for: $0) } }
    }

    /// The storage operations on this list, in the current transaction.
    struct Operations {
        let txn: StorageTransaction
        let store: ListStore
        func count() throws -> Int { try txn.lists.count(store.table, store.property, owner: store.ownerKey) }
        func values() throws -> [StrataStorage.Value] { try txn.lists.values(store.table, store.property, owner: store.ownerKey) }
        func value(at i: Int) throws -> StrataStorage.Value { try txn.lists.value(store.table, store.property, owner: store.ownerKey, at: i) }
        func insert(_ values: [StrataStorage.Value], at i: Int) throws { try txn.lists.insert(store.table, store.property, owner: store.ownerKey, values, at: i) }
        @discardableResult
        func remove(at i: Int) throws -> StrataStorage.Value { try txn.lists.remove(store.table, store.property, owner: store.ownerKey, at: i) }
        func replace(at i: Int, with v: StrataStorage.Value) throws { try txn.lists.replace(store.table, store.property, owner: store.ownerKey, at: i, with: v) }
        func removeAll() throws { try txn.lists.removeAll(store.table, store.property, owner: store.ownerKey) }
    }

    /// Runs a read; traps on a storage error (as RealmSwift does) or a deleted owner.
    func read<T>(_ body: (Operations) throws -> T) -> T {
        core.confinement.check()
        _ = owner.currentRow()
        return core.reading { try body(Operations(txn: try core.transaction(), store: self)) }
    }

    /// Runs a change inside the current write transaction; traps on an error (as RealmSwift
    /// does), so a failed change never commits.
    func write(_ body: (Operations) throws -> Void) {
        core.checkWrite()
        _ = owner.currentRow()
        do {
            try translatingErrors(path: core.path) { try body(Operations(txn: try core.transaction(), store: self)) }
        } catch { trap(error) }
    }

    /// The stored value of an element to write: an object becomes its key, an unmanaged one
    /// being added to the Realm first (with its graph).
    func storedValue<E>(of element: E) throws -> StrataStorage.Value {
        let v = (element as! any _Persistable)._strataValue
        guard let object = v.object else { return v.value }
        return .link(try core.linkKey(for: object))
    }

    /// The stored value of an element to look for; nil for an object not in this Realm.
    func existingValue<E>(of element: E) -> StrataStorage.Value? {
        let v = (element as! any _Persistable)._strataValue
        guard let object = v.object else { return v.value }
        guard object.managingCore?.file === core.file else { return nil }
        return .link(object.objectKey)
    }
}

extension ObjectBase {
    /// Replaces the contents of managed list property `index` (an assignment to it).
    func replaceList(_ index: Int, with elements: [_StrataValue]) {
        let core = managingCore!
        ListStore(owner: self, index: index).write { list in
            let values = try elements.map { try $0.object.map { .link(try core.linkKey(for: $0)) } ?? $0.value }
            try list.removeAll()
            try list.insert(values, at: 0)
        }
    }
}
