import Foundation

/// Any Realm collection of `Element` (`Results`, `List`, `MutableSet`, `LinkingObjects`)
/// behind one type, as in RealmSwift: `AnyRealmCollection(realm.objects(Dog.self))`. It reads,
/// queries, observes, freezes and thaws through the collection it wraps, and is live as that
/// collection is.
public struct AnyRealmCollection<Element: RealmCollectionValue>: RealmCollection {
    /// The wrapped collection, behind its type.
    let box: AnyRealmCollectionBox<Element>

    /// Wraps `base` (an `AnyRealmCollection` is not wrapped a second time).
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        box = (base as? AnyRealmCollection<Element>)?.box ?? WrappedCollection(base)
    }

    public var realm: Realm? { box.realm }
    public var isInvalidated: Bool { box.isInvalidated }
    public var isFrozen: Bool { box.isFrozen }
    public var count: Int { box.count }
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public var description: String { box.description }

    /// The element at `position`.
    public subscript(position: Int) -> Element { box.element(at: position) }

    public func makeIterator() -> RLMIterator<Element> { box.makeIterator() }

    public func index(of object: Element) -> Int? { box.index(of: object) }

    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        box.results.index(matching: predicateFormat, arguments: args)
    }

    public func objects(at indexes: IndexSet) -> [Element] { indexes.map { self[$0] } }

    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do { return try box.results.filtered(predicateFormat, args) } catch { trap(error) }
    }

    /// Strata: like `filter(_:_:)` but throws `Realm.Error` (`.invalidInput`) on a bad query.
    public func throwingFilter(_ predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try box.results.filtered(predicateFormat, args)
    }

    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Iterator.Element == SortDescriptor {
        box.sorted(by: Array(sortDescriptors))
    }

    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Iterator.Element == String {
        box.distinct(by: Array(keyPaths))
    }

    // Aggregates: of the stored objects, or of an unmanaged collection's objects.

    public func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        if let results = box.queryResults { return results.min(ofProperty: property) }
        return AggregateResult.extreme(of: property, in: self, greatest: false)
    }

    public func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        if let results = box.queryResults { return results.max(ofProperty: property) }
        return AggregateResult.extreme(of: property, in: self, greatest: true)
    }

    public func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        if let results = box.queryResults { return results.sum(ofProperty: property) }
        return AggregateResult.sum(of: property, in: self)
    }

    public func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        if let results = box.queryResults { return results.average(ofProperty: property) }
        return AggregateResult.average(of: property, in: self)
    }

    public func value(forKey key: String) -> Any? { box.value(forKey: key) }
    public func value(forKeyPath keyPath: String) -> Any? { box.value(forKeyPath: keyPath) }
    public func setValue(_ value: Any?, forKey key: String) { box.setValue(value, forKey: key) }

    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) -> NotificationToken {
        box.observe(keyPaths: keyPaths, on: queue, block)
    }

    public func freeze() -> AnyRealmCollection<Element> { box.freeze() }
    public func thaw() -> AnyRealmCollection<Element>? { box.thaw() }

    /// The same wrapped collection (as the wrapped collections compare).
    public static func == (lhs: AnyRealmCollection<Element>, rhs: AnyRealmCollection<Element>) -> Bool {
        lhs.box === rhs.box || lhs.box.isEqual(to: rhs.box)
    }
}

/// The collection an `AnyRealmCollection` wraps, as a class generic over the element only:
/// `WrappedCollection` is the one subclass, which knows the collection's type.
class AnyRealmCollectionBox<Element: RealmCollectionValue> {
    var realm: Realm? { preconditionFailure("overridden by WrappedCollection") }
    var isInvalidated: Bool { preconditionFailure("overridden by WrappedCollection") }
    var isFrozen: Bool { preconditionFailure("overridden by WrappedCollection") }
    var count: Int { preconditionFailure("overridden by WrappedCollection") }
    var description: String { preconditionFailure("overridden by WrappedCollection") }
    /// The collection's objects as results to query, when it has them (`queryResults`).
    var queryResults: Results<Element>? { preconditionFailure("overridden by WrappedCollection") }

    /// The collection's objects as results to query and aggregate; traps for a collection
    /// that has none (an unmanaged one, or one of values).
    final var results: Results<Element> {
        guard let results = queryResults else {
            preconditionFailure("Queries through AnyRealmCollection need Results, or a managed List, MutableSet or LinkingObjects of objects")
        }
        return results
    }
    func element(at position: Int) -> Element { preconditionFailure("overridden by WrappedCollection") }
    func makeIterator() -> RLMIterator<Element> { preconditionFailure("overridden by WrappedCollection") }
    func index(of object: Element) -> Int? { preconditionFailure("overridden by WrappedCollection") }
    func sorted(by descriptors: [SortDescriptor]) -> Results<Element> { preconditionFailure("overridden by WrappedCollection") }
    func distinct(by keyPaths: [String]) -> Results<Element> { preconditionFailure("overridden by WrappedCollection") }
    /// The wrapped collection's `valueResults` (its values sorted or distinct).
    func valueResults(_ refine: (inout ValueOrder) -> Void) -> Results<Element> { preconditionFailure("overridden by WrappedCollection") }
    func value(forKey key: String) -> Any? { preconditionFailure("overridden by WrappedCollection") }
    func value(forKeyPath keyPath: String) -> Any? { preconditionFailure("overridden by WrappedCollection") }
    func setValue(_ value: Any?, forKey key: String) { preconditionFailure("overridden by WrappedCollection") }
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) -> NotificationToken {
        preconditionFailure("overridden by WrappedCollection")
    }
    func freeze() -> AnyRealmCollection<Element> { preconditionFailure("overridden by WrappedCollection") }
    func thaw() -> AnyRealmCollection<Element>? { preconditionFailure("overridden by WrappedCollection") }
    func isEqual(to other: AnyRealmCollectionBox<Element>) -> Bool { preconditionFailure("overridden by WrappedCollection") }
    /// The wrapped collection's instance and how to find it again (`Relocatable`), wrapped.
    var relocationCore: RealmCore? { preconditionFailure("overridden by WrappedCollection") }
    var locator: @Sendable (RealmCore) -> Any? { preconditionFailure("overridden by WrappedCollection") }
}

/// A collection of type `Base` behind `AnyRealmCollectionBox`.
private final class WrappedCollection<Base: RealmCollection>: AnyRealmCollectionBox<Base.Element> {
    let base: Base

    init(_ base: Base) { self.base = base }

    override var realm: Realm? { base.realm }
    override var isInvalidated: Bool { base.isInvalidated }
    override var isFrozen: Bool { base.isFrozen }
    override var count: Int { base.count }
    override var description: String { base.description }
    override var queryResults: Results<Base.Element>? { base.queryResults }
    override func element(at position: Int) -> Base.Element { base[position] }
    override func makeIterator() -> RLMIterator<Base.Element> { base.makeIterator() }
    override func index(of object: Base.Element) -> Int? { base.index(of: object) }

    override func sorted(by descriptors: [SortDescriptor]) -> Results<Base.Element> { base.sorted(by: descriptors) }
    override func distinct(by keyPaths: [String]) -> Results<Base.Element> { base.distinct(by: keyPaths) }
    override func valueResults(_ refine: (inout ValueOrder) -> Void) -> Results<Base.Element> { base.valueResults(refine) }
    override func value(forKey key: String) -> Any? { base.value(forKey: key) }
    override func value(forKeyPath keyPath: String) -> Any? { base.value(forKeyPath: keyPath) }
    override func setValue(_ value: Any?, forKey key: String) { base.setValue(value, forKey: key) }

    override func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                          _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Base.Element>>) -> Void) -> NotificationToken {
        base.observe(keyPaths: keyPaths, on: queue) { change in block(change.map(AnyRealmCollection.init)) }
    }

    override func freeze() -> AnyRealmCollection<Base.Element> { AnyRealmCollection(base.freeze()) }
    override func thaw() -> AnyRealmCollection<Base.Element>? { base.thaw().map(AnyRealmCollection.init) }

    override func isEqual(to other: AnyRealmCollectionBox<Base.Element>) -> Bool {
        guard let other = other as? WrappedCollection<Base> else { return false }
        return base == other.base
    }

    override var relocationCore: RealmCore? { (base as? Relocatable)?.relocationCore }

    override var locator: @Sendable (RealmCore) -> Any? {
        guard let relocatable = base as? Relocatable else { preconditionFailure("Unmanaged collections cannot be frozen.") }
        let find = relocatable.locator
        return { core in (find(core) as? Base).map(AnyRealmCollection.init) }
    }
}

extension AnyRealmCollection: QueryableCollection, Relocatable {
    var anyQueryResults: Any? { box.queryResults }
    var relocationCore: RealmCore? { box.relocationCore }
    var locator: @Sendable (RealmCore) -> Any? { box.locator }
}
