import Foundation
import StrataStorage

// Frozen and thawed collections. A frozen collection reads the frozen Realm at the version
// it was frozen at, from any thread, and everything derived from it (`filter`, `sorted`, its
// objects) is frozen too; thawing finds the live collection in the current thread's Realm.

extension Results: Relocatable {
    var relocationCore: RealmCore? { core }

    var locator: @Sendable (RealmCore) -> Any? {
        let info = info, query = query, source = source
        return { core in
            switch source {
            case .list(_, let owner, let ownerInfo), .values(_, let owner, let ownerInfo, _):
                if core.existingObject(ownerInfo, owner) == nil { return nil }
            case .table, .backlinks, .objects: break
            }
            return Results(core: core, info: info, query: query, source: source)
        }
    }

    /// Whether the results belong to a frozen Realm.
    public var isFrozen: Bool { core.isFrozen }

    /// The results at this version, immutable and readable from any thread (queries on them
    /// give frozen results).
    public func freeze() -> Results<Element> {
        isFrozen ? self : Results(core: core.frozen(), info: info, query: query, source: source)
    }

    /// The same query, live, in the current thread's Realm (nil when it came from a list whose
    /// owner is gone there). Live results return themselves.
    public func thaw() -> Results<Element>? {
        isFrozen ? relocated(to: core.thawed()) : self
    }
}

extension LinkingObjects: Relocatable {
    var relocationCore: RealmCore? { results?.core }

    var locator: @Sendable (RealmCore) -> Any? {
        guard let results else { preconditionFailure("Unmanaged collections cannot be frozen.") }
        let originProperty = originProperty, findResults = results.locator
        return { core in
            (findResults(core) as? Results<Element>).map { LinkingObjects(originProperty: originProperty, results: $0) }
        }
    }

    /// Whether the collection belongs to a frozen Realm.
    public var isFrozen: Bool { results?.isFrozen ?? false }

    /// The collection at this version, immutable and readable from any thread.
    public func freeze() -> LinkingObjects<Element> {
        guard let results else { preconditionFailure("Unmanaged collections cannot be frozen.") }
        return LinkingObjects(originProperty: originProperty, results: results.freeze())
    }

    /// The live collection in the current thread's Realm; live ones return themselves.
    public func thaw() -> LinkingObjects<Element>? {
        guard let results else { preconditionFailure("Unmanaged collections cannot be thawed.") }
        return results.isFrozen ? relocated(to: results.core.thawed()) : self
    }
}

/// A collection stored under a property of its object (`List`, `MutableSet`, `Map`): found
/// again, frozen and thawed through its object and property.
protocol StoredCollection: Relocatable {
    /// Where the collection lives once its object is managed; nil while unmanaged.
    var store: ListStore? { get }
    /// The managed collection stored at `store`.
    init(store: ListStore)
}

extension StoredCollection {
    var relocationCore: RealmCore? { store?.core }

    var locator: @Sendable (RealmCore) -> Any? {
        guard let store else { preconditionFailure("Unmanaged collections cannot be frozen.") }
        let findOwner = store.owner.locator, index = store.index, property = store.property
        return { core in
            (findOwner(core) as? ObjectBase).map { Self(store: ListStore(owner: $0, index: index, property: property)) }
        }
    }

    /// Whether the collection belongs to a frozen Realm (unmanaged ones are not frozen).
    public var isFrozen: Bool { store?.core.isFrozen ?? false }

    /// The collection at this version, immutable and readable from any thread; changing it
    /// traps. Traps when unmanaged or when its object was deleted.
    public func freeze() -> Self {
        guard let store else { preconditionFailure("Unmanaged collections cannot be frozen.") }
        if store.core.isFrozen { return self }
        return Self(store: ListStore(owner: store.owner.frozenObject(), index: store.index, property: store.property))
    }

    /// The live collection in the current thread's Realm, or nil when its object no longer
    /// exists there. A live collection returns itself.
    public func thaw() -> Self? {
        guard let store else { preconditionFailure("Unmanaged collections cannot be thawed.") }
        return store.core.isFrozen ? relocated(to: store.core.thawed()) : self
    }
}

