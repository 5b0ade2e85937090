import Foundation

// Notifications as asynchronous sequences: `for await change in results.changes { … }`.
//
// RealmSwift offers Combine publishers for async code, which do not exist on Linux, so Strata
// adds `changes`. Each stream observes on a serial queue of its own, in the Realm of the same
// file confined to that queue (as `observe(on: queue)` does): the notifier thread hands each
// commit, of any thread or process, to that queue, which computes the change and yields it.
// So a stream needs no run loop and works in any async context (top-level code, a detached
// task, an actor), whichever Realm (thread-, queue- or actor-confined) it was made from.
// Changes arrive in version order; a slow consumer blocks nothing and loses nothing (they wait
// in the stream's buffer). The collection or object in each change is frozen at the version
// the change describes, so the consuming task may run on any thread; `thaw()` it to write.
// The stream ends when the consuming task is cancelled or stops iterating (the observer is
// then invalidated and its Realm, with the version it pinned, released), and, for an
// object, after `.deleted`.
//
// A stream holds nothing of the Realm it was taken from, so `changes(keyPaths:)` returns it
// `sending`: Swift 6 code may hand it to another task (a detached one, or another actor's)
// and consume it there. The `changes` property gives the same stream, in the caller's region.

extension RealmCollection {
    /// The changes of this collection (`Results`, `List`, `MutableSet`, `LinkingObjects`,
    /// `AnyRealmCollection`), as `observe(keyPaths:)` reports them, with the collection frozen
    /// in each change.
    public var changes: AsyncStream<RealmCollectionChange<Self>> { changes(keyPaths: nil) }

    /// The changes of this collection; for a collection of objects, a change of other
    /// properties than `keyPaths` is not a modification.
    public func changes(keyPaths: [String]?) -> sending AsyncStream<RealmCollectionChange<Self>> {
        notificationStream { queue, continuation in
            observe(keyPaths: keyPaths, on: queue) { continuation.yield($0.map { $0.freeze() }) }
        }
    }
}

extension Map {
    /// The changes of this map by key, as `observe(keyPaths:)` reports them, with the map
    /// frozen in each change.
    public var changes: AsyncStream<RealmMapChange<Map<Key, Value>>> { changes(keyPaths: nil) }

    /// The changes of this map by key (`keyPaths` is not used, as for `observe`).
    public func changes(keyPaths: [String]?) -> sending AsyncStream<RealmMapChange<Map<Key, Value>>> {
        notificationStream { queue, continuation in
            observe(keyPaths: keyPaths, on: queue) { continuation.yield($0.map { $0.freeze() }) }
        }
    }
}

extension ObservableRealmObject {
    /// The changes of this object, as `observe(keyPaths:)` reports them: `.change` with the
    /// object frozen (and `newValue`s read from it), then `.deleted`, which ends the stream.
    public var changes: AsyncStream<ObjectChange<Self>> { changes(keyPaths: nil) }

    /// The changes of the properties named in `keyPaths` (all when nil) of this object.
    public func changes(keyPaths: [String]?) -> sending AsyncStream<ObjectChange<Self>> {
        notificationStream { queue, continuation in
            observe(keyPaths: keyPaths, on: queue) { change in
                switch change {
                case let .change(object, properties):
                    let frozen = object.frozenObject() as! Self
                    continuation.yield(.change(frozen, properties.map {
                        PropertyChange(name: $0.name, oldValue: $0.oldValue, newValue: (frozen as? Object)?[$0.name])
                    }))
                case .deleted:
                    continuation.yield(.deleted)
                    continuation.finish()
                case .error(let error):
                    continuation.yield(.error(error))
                }
            }
        }
    }
}

extension Realm {
    /// This Realm's versions as they move: the Realm frozen at the newest version when the
    /// stream starts, then frozen at each version a commit (of any thread or process) moves
    /// it to, as `observe(_:)` reports `.didChange`. Each element pins its version until it
    /// is released. Traps on a frozen Realm, or inside a write.
    public var changes: AsyncStream<Realm> {
        checkObservable(core)
        let configuration = core.configuration
        return notificationStream { queue, continuation in
            queue.sync {
                let realm: Realm
                do { realm = try Realm(configuration: configuration, queue: queue) } catch { trap(error) }
                continuation.yield(realm.freeze())
                return realm.observe { _, realm in continuation.yield(realm.freeze()) }
            }
        }
    }
}

/// An `AsyncStream` fed by the observer that `observe` registers on the stream's own serial
/// queue (given the queue and the stream's continuation); ending the stream, by cancellation
/// or otherwise, invalidates the observer and releases it.
private func notificationStream<Change>(
    _ observe: (DispatchQueue, AsyncStream<Change>.Continuation) -> NotificationToken
) -> sending AsyncStream<Change> {
    AsyncStream { continuation in
        let token = observe(DispatchQueue(label: "strata.changes"), continuation)
        continuation.onTermination = { _ in token.invalidate() }
    }
}

