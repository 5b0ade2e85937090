import Foundation
import StrataStorage

/// A keyed collection whose changes are reported by key (RealmSwift's `RealmKeyedCollection`).
public protocol RealmKeyedCollection {
    /// The type of the collection's keys.
    associatedtype Key: _MapKey
    /// The type of the collection's values.
    associatedtype Value: RealmCollectionValue
}

extension Map: RealmKeyedCollection {}

/// A change to an observed map, by key (RealmSwift's `RealmMapChange`).
@frozen public enum RealmMapChange<Collection: RealmKeyedCollection> {
    /// The map as it was when the observation began.
    case initial(Collection)
    /// The map after a commit that changed it: the keys removed, the keys added, and the keys
    /// whose value was replaced (or, in a map of objects, whose object changed).
    case update(Collection, deletions: [Collection.Key], insertions: [Collection.Key], modifications: [Collection.Key])
    /// The observation failed and stops.
    case error(Error)
}

extension Map {
    /// Observes the map: `.initial(map)` on a later turn of this thread's run loop, then
    /// `.update(map, deletions:, insertions:, modifications:)` by key after each local commit
    /// or `refresh()` that changed it. In a map of objects, a change of a value object's
    /// properties (those `keyPaths` names, when given, through its relationships too:
    /// `owners.name`) is a modification of its key. When the map's object is deleted, every
    /// key is reported deleted. `queue` as `List.observe(keyPaths:on:_:)`.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) -> NotificationToken {
        guard let store else { preconditionFailure("Only collections which are managed by a Realm support change notifications") }
        if let queue = deliveryQueue(store.core, queue) {
            return Strata.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, on: nil, block) }
        }
        let observer = MapObserver(map: self, store: store, keyPaths: keyPaths, block: block)
        store.core.notifications.add(observer, store.core)
        return observer
    }
}

/// Observes a map: its entries as last reported, re-read only after a commit that changed the
/// map's property of its object or (a map of objects) one of its value objects.
final class MapObserver<Key: _MapKey, Value: RealmCollectionValue>: Observer {
    let map: Map<Key, Value>
    let store: ListStore
    let block: (RealmMapChange<Map<Key, Value>>) -> Void
    /// The entries last reported; nil until `.initial` is delivered.
    private var reported: [String: StrataStorage.Value]?
    override var awaitsInitial: Bool { reported == nil }
    /// The value objects' properties whose changes are modifications (every one without key
    /// paths).
    private let mask: UInt64
    /// The key paths through the value objects' relationships (`owners.name`).
    private let linked: [LinkedKeyPath]

    init(map: Map<Key, Value>, store: ListStore, keyPaths: [String]?, block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) {
        self.map = map
        self.store = store
        self.block = block
        if let target = store.targetBinding, let keyPaths {
            let inverses = Set(target.info.linkingObjects.map(\.name))
            let stored = keyPaths.filter { !inverses.contains(String($0.split(separator: ".")[0])) }
            mask = propertyMask(stored, target.querySchema, className: target.info.name)
            linked = LinkedKeyPath.of(keyPaths, target, store.core)
        } else {
            (mask, linked) = (.max, [])
        }
        super.init(core: store.core)
    }

    override func deliver(_ log: ChangeLog) {
        guard let old = reported else {
            reported = currentEntries()
            version = log.version
            block(.initial(map))
            return
        }
        guard let since = advance(to: log) else { return }
        let delta = log.delta(store.table.name, since: since)
        let ownerChanged = store.isChanged(in: delta)
        let changedTargets = changedObjects(in: old, log, since: since)
        guard ownerChanged || !changedTargets.isEmpty else { return }
        let new = currentEntries()
        reported = new
        let deletions = old.keys.filter { new[$0] == nil }.sorted()
        let insertions = new.keys.filter { old[$0] == nil }.sorted()
        let modifications = new.keys.filter { key in
            guard let before = old[key], let after = new[key] else { return false }
            if before != after { return true }
            if case .link(let target) = after { return changedTargets.contains(target) }
            return false
        }.sorted()
        if deletions.isEmpty && insertions.isEmpty && modifications.isEmpty { return }
        block(.update(map, deletions: deletions.map(Key._strataMapKey), insertions: insertions.map(Key._strataMapKey),
                      modifications: modifications.map(Key._strataMapKey)))
    }

    override func fail(_ error: Swift.Error) { block(.error(error)) }

    override func rebase() {
        super.rebase()
        if reported != nil { reported = currentEntries() }
    }

    /// The value objects of `entries` changed since version `since` (in the properties the
    /// key paths name, or the objects their relationships reach); none for a map of values.
    private func changedObjects(in entries: [String: StrataStorage.Value], _ log: ChangeLog, since: UInt64) -> Set<ObjectKey> {
        guard let target = store.targetBinding else { return [] }
        let delta = log.delta(target.table.name, since: since)
        var changed = Set<ObjectKey>()
        for case .link(let key) in entries.values {
            if delta.removed(key) || delta.mask(key) & mask != 0 || linkedChange(key, target, log, since: since) { changed.insert(key) }
        }
        return changed
    }

    /// Whether a key path through the relationships of value object `key` reaches a change.
    private func linkedChange(_ key: ObjectKey, _ target: TableBinding, _ log: ChangeLog, since: UInt64) -> Bool {
        guard !linked.isEmpty else { return false }
        let object = core.object(ObjectBase.self, target, key)
        return linked.contains { $0.changed(for: object, in: log, since: since) }
    }

    /// The map's entries now; none once its object is deleted.
    private func currentEntries() -> [String: StrataStorage.Value] {
        guard store.ownerExists else { return [:] }
        return store.read { map in Dictionary(uniqueKeysWithValues: zip(try map.keys(), try map.values())) }
    }
}
