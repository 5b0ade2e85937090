import Foundation

/// Iterator used by all Realm collections (RealmSwift name).
///
/// A whole class read outside a write walks the table with a cursor, handing each object its
/// row as it goes (no lookup per object); other results read outside a write walk the keys
/// and kept rows of one evaluation (`KeyWalk`); otherwise it walks the result keys. Either way
/// the accessors come from an `AccessorRecycler`.
public struct RLMIterator<Element: RealmCollectionValue>: IteratorProtocol {
    @usableFromInline let results: Results<Element>?
    @usableFromInline let elementAt: ((Int) -> Element)?
    @usableFromInline var index = 0
    @usableFromInline let count: Int
    @usableFromInline var scan: RowScan?
    @usableFromInline var walk: KeyWalk?
    @usableFromInline var accessors: AccessorRecycler

    /// Iterates `results` (nothing when nil: an unmanaged collection). Inside a write the
    /// loop goes over the objects the results hold when it starts (RealmSwift's snapshot), so
    /// that deleting or changing objects in the loop does not move the ones still to come.
    init(_ results: Results<Element>?) {
        self.results = results
        scan = results?.tableScan()
        walk = scan == nil ? results?.keyWalk() : nil
        accessors = AccessorRecycler(results?.info)
        if let results, results.core.writes.isInWriteTransaction, !results.state.holdsValues {
            let keys = results.keys
            elementAt = { results.element(keys[$0]) }
            count = keys.count
        } else {
            elementAt = nil
            count = results?.count ?? 0
        }
    }

    /// Iterates `count` elements made by `element(i)`.
    init(count: Int, element: @escaping (Int) -> Element) {
        results = nil
        elementAt = element
        self.count = count
        accessors = AccessorRecycler(nil)
    }

    /// Iterates an array (an unmanaged collection).
    init(elements: [Element]) {
        self.init(count: elements.count) { elements[$0] }
    }

    /// The next element, or nil at the end. Inlined into the caller, so that iterating a
    /// collection of a concrete class does no generic type lookups per element.
    @inlinable
    public mutating func next() -> Element? {
        guard index < count else { return nil }
        defer { index += 1 }
        if scan != nil {
            // A scan is made only for whole-class results (`Results.tableScan`), whose
            // `Element` is the class of the scanned table: each object is an `Element`. The
            // scan is called through at +0: this iterator holds it, and only `next` lets go.
            let object = Unmanaged.passUnretained(scan.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.nextObject() }
            if let object { return unsafeBitCast(object, to: Element.self) }
            self.scan = nil
        }
        if walk != nil {
            // Made only for results of the walked table's class with no projection (see
            // `Results.keyWalk`), called through at +0 as the scan is.
            let object = Unmanaged.passUnretained(walk.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.object(at: index) }
            if let object { return unsafeBitCast(object, to: Element.self) }
            walk = nil
        }
        if let elementAt { return elementAt(index) }
        return results?.element(at: index, from: &accessors)
    }
}

/// The read API shared by Realm collections (RealmSwift's `RealmCollectionBase`).
public protocol RealmCollectionBase: RandomAccessCollection, CustomStringConvertible, ThreadConfined
    where Element: RealmCollectionValue, Index == Int {}

/// A lazily evaluated, live collection of objects (RealmSwift's `RealmCollection`).
public protocol RealmCollection: RealmCollectionBase, Equatable where Iterator == RLMIterator<Element> {
    /// The Realm the collection belongs to.
    var realm: Realm? { get }
    /// Whether the Realm was invalidated.
    var isInvalidated: Bool { get }
    /// Number of elements; counting an unfiltered class is O(1).
    var count: Int { get }
    func index(of object: Element) -> Int?
    func index(matching predicateFormat: String, _ args: Any...) -> Int?
    func objects(at indexes: IndexSet) -> [Element]
    /// NSPredicate-format string query; traps on a malformed one (`throwingFilter` throws).
    func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element>
    func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Iterator.Element == SortDescriptor
    func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Iterator.Element == String
    func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType
    func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType
    func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType
    func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType
    func value(forKey key: String) -> Any?
    func value(forKeyPath keyPath: String) -> Any?
    func setValue(_ value: Any?, forKey key: String)
    /// Collection notifications: `.initial`, then `.update` with the changed indices.
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken
}

/// A sort key for `sorted(by:)`: a property name and a direction.
public struct SortDescriptor: ExpressibleByStringLiteral, Equatable, CustomStringConvertible {
    /// The property to sort by.
    public let keyPath: String
    /// Ascending (default) or descending.
    public let ascending: Bool

    /// Sorts by `keyPath`.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// Sorts by the persisted property a Swift key path reads (`\Dog.name`, `\Dog.owner?.name`).
    public init<Element: ObjectBase>(keyPath: PartialKeyPath<Element>, ascending: Bool = true) {
        self.init(keyPath: _name(for: keyPath), ascending: ascending)
    }

    /// `"name"` as an ascending sort.
    public init(stringLiteral value: String) { self.init(keyPath: value) }

    /// The same key in the other direction.
    public func reversed() -> SortDescriptor { SortDescriptor(keyPath: keyPath, ascending: !ascending) }

    public var description: String { "SortDescriptor(keyPath: \(keyPath), direction: \(ascending ? "ascending" : "descending"))" }
}

public extension RealmCollection {
    /// Collection notifications, with the key paths and the queue left out when not given:
    /// what generic code over `RealmCollection` calls (`collection.observe { change in … }`).
    /// Each collection type has its own; this one reaches it through the requirement.
    func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                 _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        let requirement: ([String]?, DispatchQueue?, @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken = observe(keyPaths:on:_:)
        return requirement(keyPaths, queue, block)
    }
}

public extension RealmCollection where Element: ObjectBase {
    /// Collection notifications for changes of the properties Swift key paths name
    /// (`[\Dog.name, \Dog.owner?.name]`), as `observe(keyPaths:on:_:)` with their names.
    func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                 _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: KeyPathRecorder.observedPaths(keyPaths), on: queue, block)
    }
}

public extension RealmCollection where Element: KeypathSortable {
    /// Sorted by one property (ascending by default). Traps on an unknown property.
    func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }
}
