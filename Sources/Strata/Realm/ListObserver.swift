import Foundation
import StrataStorage

extension List {
    /// Observes the list: `.initial(list)` on a later turn of this thread's run loop, then
    /// `.update(list, deletions:, insertions:, modifications:)` after each local commit or
    /// `refresh()` that changed it (deletions and modifications are indices in the previous
    /// version of the list, insertions in the new one). For a list of objects, a change of
    /// an element's properties (those of `keyPaths`, when given) is a modification; an
    /// element moved is a deletion and an insertion. For a list of values, a replaced value
    /// is a deletion and an insertion and `keyPaths` is not used. When the list's object is
    /// deleted, every element is reported deleted. `queue` must be nil for now.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        observeStored(keyPaths: keyPaths, on: queue, block)
    }
}

extension MutableSet {
    /// Observes the set as `List.observe(keyPaths:on:_:)` observes a list, with positions in
    /// the set's value order.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        observeStored(keyPaths: keyPaths, on: queue, block)
    }
}

extension ListBackedCollection {
    /// Registers the observer of a list or set: of its values, or of its objects as results.
    func observeStored(keyPaths: [String]?, on queue: DispatchQueue?,
                       _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        guard let store else { preconditionFailure("Only collections which are managed by a Realm support change notifications") }
        if let queue = deliveryQueue(store.core, queue) {
            return Strata.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, on: nil, block) }
        }
        let observer: Observer = store.targetInfo == nil
            ? ValueListObserver(collection: self, store: store, block: block)
            : CollectionObserver(results: results, keyPaths: keyPaths) { change in block(change.map { _ in self }) }
        store.core.notifications.add(observer, store.core)
        return observer
    }
}

/// Observes a list or set of values: the values as last reported, re-read only after a
/// commit that changed the property of its object.
final class ValueListObserver<Collection: ListBackedCollection>: Observer {
    let collection: Collection
    let store: ListStore
    let block: (RealmCollectionChange<Collection>) -> Void
    /// The values last reported; nil until `.initial` is delivered.
    private var reported: [StrataStorage.Value]?
    override var awaitsInitial: Bool { reported == nil }

    init(collection: Collection, store: ListStore, block: @escaping (RealmCollectionChange<Collection>) -> Void) {
        self.collection = collection
        self.store = store
        self.block = block
        super.init(core: store.core)
    }

    override func deliver(_ log: ChangeLog) {
        guard let old = reported else {
            reported = currentValues()
            version = log.version
            block(.initial(collection))
            return
        }
        guard let since = advance(to: log) else { return }
        let delta = log.delta(store.table.name, since: since)
        guard store.isChanged(in: delta) else { return }
        let new = currentValues()
        reported = new
        let diff = CollectionDiff(oldValues: old, newValues: new)
        if diff.isEmpty { return }
        block(.update(collection, deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications))
    }

    override func fail(_ error: Swift.Error) { block(.error(error)) }

    override func rebase() {
        super.rebase()
        if reported != nil { reported = currentValues() }
    }

    /// The list's values now; none once its object is deleted.
    private func currentValues() -> [StrataStorage.Value] {
        guard store.ownerExists else { return [] }
        return store.read { try $0.values() }
    }
}

extension ListStore {
    /// Whether the commits `delta` covers deleted the collection's object or changed its property.
    func isChanged(in delta: ClassDelta) -> Bool {
        delta.removed(ownerKey) || delta.mask(ownerKey) & ClassChanges.bit(property.id) != 0
    }

    /// Whether the collection's object exists in the current snapshot.
    var ownerExists: Bool {
        guard let binding = owner.binding else { return false }
        return core.reading { try core.row(binding, ownerKey) } != nil
    }
}

extension CollectionDiff {
    /// The deletions and insertions that turn one list of values into another: equal values
    /// pair up, in order, occurrence by occurrence; nothing is a modification.
    init(oldValues: [StrataStorage.Value], newValues: [StrataStorage.Value]) {
        var ids: [StrataStorage.Value: ObjectKey] = [:]
        func id(_ value: StrataStorage.Value) -> ObjectKey {
            if let id = ids[value] { return id }
            let id = ObjectKey(ids.count)
            ids[value] = id
            return id
        }
        self.init(old: oldValues.map(id), new: newValues.map(id), delta: ClassDelta(), mask: 0)
    }
}
