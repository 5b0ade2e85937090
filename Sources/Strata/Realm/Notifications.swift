import Foundation
import StrataStorage
import Synchronization

// In-process change notifications (docs/NOTIFICATIONS.md).
//
// Every observer keeps the version it last reported (and, for collections, the object keys
// it last reported, in order). When the Realm's version moves (a local commit or a
// `refresh()`), one delivery is scheduled on the Realm's run loop. The delivery reads the
// history entries between each observer's version and the current one: those change sets
// say which classes, objects and properties changed, whichever process committed. An
// observer none of whose classes changed is moved forward without running its query.

/// What a collection observer is told (RealmSwift's `RealmCollectionChange`).
@frozen public enum RealmCollectionChange<CollectionType> {
    /// The first delivery: the collection as it is now.
    case initial(CollectionType)
    /// The collection changed: `deletions` and `modifications` are indices in the previous
    /// version of the collection, `insertions` indices in the new one; each ascending.
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    /// Delivery failed.
    case error(Error)
}

/// One changed property of an observed object (RealmSwift's `PropertyChange`).
public struct PropertyChange {
    /// The property's name.
    public let name: String
    /// The value when the observer last reported (or registered); nil for link and list
    /// properties, whose old state is not kept.
    public let oldValue: Any?
    /// The value now.
    public let newValue: Any?
}

/// What an object observer is told (RealmSwift's `ObjectChange`).
@frozen public enum ObjectChange<T> {
    /// Delivery failed.
    case error(_ error: NSError)
    /// Properties of the object changed.
    case change(T, [PropertyChange])
    /// The object was deleted; no further notifications follow.
    case deleted
}

extension Realm {
    /// The block given to `observe(_:)`.
    public typealias NotificationBlock = (_ notification: Notification, _ realm: Realm) -> Void

    /// Calls `block` with `.didChange` inside each local commit (before `write` or
    /// `commitWrite` returns), and on this thread's run loop after each `refresh()` or
    /// autorefresh that moves the version (several moves before the run loop turns give one
    /// call). Delivery stops when the token is invalidated or released.
    public func observe(_ block: @escaping NotificationBlock) -> NotificationToken {
        core.confinement.check()
        precondition(!core.isFrozen, frozenObservationMessage)
        let observer = RealmObserver(core: core, block: block)
        core.notifications.add(observer, core)
        return observer
    }
}

/// The observers of one `RealmCore` and the delivery scheduled on its run loop.
final class NotificationHub {
    private struct Weak { weak var observer: Observer? }
    private var observers: [Weak] = []
    private var isScheduled = false

    /// Whether anything is registered.
    var isEmpty: Bool { observers.allSatisfy { $0.observer == nil } }

    func add(_ observer: Observer, _ core: RealmCore) {
        observers.removeAll { $0.observer == nil }
        observers.append(Weak(observer: observer))
        schedule(core)
    }

    /// Schedules one delivery on the core's run loop (called on the core's thread).
    func schedule(_ core: RealmCore) {
        guard !isScheduled, !isEmpty else { return }
        isScheduled = true
        core.confinement.schedule { [self] in
            isScheduled = false
            deliver(core)
        }
    }

    /// Tells every live observer what changed since it last heard. Inside a write nothing is
    /// delivered: the commit schedules the delivery again. Nor while an observer awaits a
    /// write that skips it (`SkippedWrite`): that write's hand-over delivers.
    func deliver(_ core: RealmCore) {
        guard !core.writes.isInWriteTransaction, !core.writes.holdsGroup else { return }
        let live = observers.compactMap { $0.observer }.filter { !$0.isInvalidated }
        guard !live.isEmpty, !live.contains(where: \.awaitsWrite) else { return }
        do {
            let log = try ChangeLog(core, since: live.map(\.version).min() ?? 0)
            for observer in live where !observer.isInvalidated {
                observer.deliver(log)
            }
        } catch {
            for observer in live where !observer.isInvalidated { observer.fail(error) }
        }
    }

    /// On the queue of `core`, once `skipped` committed on another thread: what came before
    /// the write is told to every observer, the write is taken as seen by the skipped ones
    /// (and told to the others), then everything newer is delivered as usual. Each step reads
    /// the version it reports, so every notification matches the collection it hands out.
    func deliver(skipping skipped: SkippedWrite, _ core: RealmCore) {
        let (before, after) = skipped.release()
        if let after, !core.writes.isInWriteTransaction, !core.writes.holdsGroup, core.autorefresh {
            let live = observers.compactMap { $0.observer }.filter { !$0.isInvalidated }
            if let before, let start = before.version, live.contains(where: { $0.version < start }) {
                read(before, core)
                deliver(core)
            }
            if let end = after.version, skipped.observers.contains(where: { $0.version < end }) {
                read(after, core)
                for observer in skipped.observers where !observer.isInvalidated { observer.rebase() }
                deliver(core)
            }
            core.endTransaction()
        }
        deliver(core)
    }

    /// Moves `core` to `snapshot`'s version (forward or back) for one delivery.
    private func read(_ snapshot: PinnedSnapshot, _ core: RealmCore) {
        core.endTransaction()
        snapshot.adopt(by: core)
    }

    /// Before a write begins on the core's thread: observers registered since the last
    /// delivery hear their `.initial` now, of the collection as it is before the write (as
    /// RealmSwift delivers pending notifications when a write begins), so the write reaches
    /// them as an update.
    func deliverInitials(_ core: RealmCore) {
        guard observers.contains(where: { $0.observer?.awaitsInitial == true }) else { return }
        deliver(core)
    }

    /// Tells the `Realm.observe` blocks that other commits are waiting (`autorefresh` is off).
    func refreshRequired(_ core: RealmCore) {
        let live = observers.compactMap { $0.observer as? RealmObserver }.filter { !$0.isInvalidated }
        for observer in live where !observer.isInvalidated { observer.block(.refreshRequired, Realm(core: core)) }
    }

    /// Before a `write(withoutNotifying:)` block runs (in the write transaction, before any
    /// change): the skipped observers hear what happened up to this version.
    func catchUp(_ tokens: [NotificationToken], _ core: RealmCore) {
        let skipped = tokens.compactMap(\.registeredObserver).filter { $0.core === core && !$0.isInvalidated }
        guard !skipped.isEmpty else { return }
        do {
            let log = try ChangeLog(core, since: skipped.map(\.version).min() ?? 0)
            for observer in skipped where !observer.isInvalidated { observer.deliver(log) }
        } catch {
            for observer in skipped where !observer.isInvalidated { observer.fail(error) }
        }
    }

    /// After a commit of `core`'s: the observers of `tokens` take the new version as seen,
    /// the `Realm.observe` blocks run now (as RealmSwift's do, inside the commit), and the
    /// other observers hear on the run loop's next turn.
    func committed(_ core: RealmCore, skipping tokens: [NotificationToken]) {
        let skippedObservers = tokens.compactMap(\.registeredObserver)
        for observer in skippedObservers where observer.core === core && !observer.isInvalidated {
            observer.rebase()
        }
        let version = core.version
        let skipped = Set(skippedObservers.map { ObjectIdentifier($0) })
        for case let observer as RealmObserver in observers.map(\.observer)
        where !observer.isInvalidated && !skipped.contains(ObjectIdentifier(observer)) {
            observer.didChange(to: version, committedHere: true)
        }
        schedule(core)
    }
}

/// The history entries from some version to the current snapshot of a core.
struct ChangeLog {
    let version: UInt64
    let entries: [StrataStorage.HistoryEntry]
    /// The oldest version the entries cover completely: an observer at an older version
    /// cannot know what changed (the history was trimmed) and treats everything as changed.
    let coveredFrom: UInt64

    init(_ core: RealmCore, since: UInt64) throws {
        let txn = try translatingErrors(path: core.path) { try core.transaction() }
        version = txn.version
        var entries: [StrataStorage.HistoryEntry] = []
        if since < version {
            try translatingErrors(path: core.path) {
                try txn.history.forEach(after: since, newestFirst: false) { entry in
                    guard entry.version <= txn.version else { return false }
                    entries.append(entry)
                    return true
                }
            }
        }
        self.entries = entries
        // Versions are consecutive: the entries cover `since` exactly when they start right
        // after it (a commit that changed nothing writes no version at all).
        coveredFrom = entries.first.map { $0.version - 1 } ?? version
    }

    /// What happened to class `name` after version `since`.
    func delta(_ name: String, since: UInt64) -> ClassDelta {
        var delta = ClassDelta()
        if since < coveredFrom { delta.unknown = true; delta.touched = true; return delta }
        for entry in entries where entry.version > since {
            guard let c = entry.changes.classes[name], !c.isEmpty else { continue }
            delta.touched = true
            if c.cleared {
                delta.cleared = true
                delta.modified.removeAll()
            }
            for key in c.deleted {
                delta.deleted.insert(key)
                delta.modified[key] = nil
            }
            for key in c.inserted { delta.inserted.insert(key) }
            for (key, mask) in c.modified { delta.modified[key, default: 0] |= mask }
        }
        return delta
    }

    /// Whether any commit after `since` changed one of `names`.
    func touches(_ names: Set<String>, since: UInt64) -> Bool {
        if since >= version { return false }
        if since < coveredFrom { return true }
        return entries.contains { $0.version > since && $0.changes.classes.contains { names.contains($0.key) && !$0.value.isEmpty } }
    }
}

/// The net changes of one class over a range of commits.
struct ClassDelta {
    var touched = false
    /// The history does not reach back far enough: assume every object changed.
    var unknown = false
    var cleared = false
    var deleted = Set<ObjectKey>()
    var inserted = Set<ObjectKey>()
    var modified: [ObjectKey: UInt64] = [:]

    /// Whether the object of `key` that existed before is gone (deleted, or the class
    /// cleared), even if an object with the same key exists now.
    func removed(_ key: ObjectKey) -> Bool { cleared || deleted.contains(key) }

    /// The modification mask of a surviving object.
    func mask(_ key: ObjectKey) -> UInt64 { unknown ? .max : modified[key] ?? 0 }
}

/// A registered observer; the token returned to the caller.
class Observer: NotificationToken {
    let core: RealmCore
    /// The version this observer last reported (or took as seen).
    var version: UInt64
    private let flag = InvalidationFlag()
    /// A write on another thread that skips this observer, from before its commit until its
    /// hand-over to this observer's queue (set and cleared from both threads).
    let awaitedWrite = Mutex<SkippedWrite?>(nil)

    init(core: RealmCore) {
        self.core = core
        version = core.version
    }

    var isInvalidated: Bool { flag.isSet }

    /// Whether the observer has yet to hear its `.initial` (collections; objects have none).
    var awaitsInitial: Bool { false }

    /// Whether a write that skips this observer is under way on another thread.
    var awaitsWrite: Bool { awaitedWrite.withLock { $0 != nil } }

    /// Stops delivery. May be called from any thread.
    override func invalidate() { flag.set() }

    func deliver(_ log: ChangeLog) {}
    func fail(_ error: Swift.Error) {}
    /// Takes the current version as seen, without reporting.
    func rebase() { version = core.version }

    /// Moves this observer to `log`'s version; returns the version it was at, or nil when it
    /// is there already (nothing to report).
    func advance(to log: ChangeLog) -> UInt64? {
        guard log.version != version else { return nil }
        defer { version = log.version }
        return version
    }
}

/// A flag set once, readable from any thread.
private final class InvalidationFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// `Realm.observe`.
final class RealmObserver: Observer {
    let block: Realm.NotificationBlock

    init(core: RealmCore, block: @escaping Realm.NotificationBlock) {
        self.block = block
        super.init(core: core)
    }

    override func deliver(_ log: ChangeLog) { didChange(to: log.version) }

    /// Tells the block, unless it has heard of `version` already; always after a commit of
    /// its own Realm's (`committedHere`), even one that changed nothing, as RealmSwift does.
    func didChange(to version: UInt64, committedHere: Bool = false) {
        guard committedHere || version != self.version else { return }
        self.version = version
        block(.didChange, Realm(core: core))
    }
}

/// The property-id mask of `keyPaths` (their first components) in class `schema`; every
/// property when nil.
func propertyMask(_ keyPaths: [String]?, _ schema: ClassSchema, className: String) -> UInt64 {
    guard let keyPaths else { return .max }
    var mask: UInt64 = 0
    for path in keyPaths {
        let name = path.split(separator: ".", maxSplits: 1).first.map(String.init) ?? path
        guard let property = schema.property(named: name) else {
            preconditionFailure("Property '\(name)' not found in object of type '\(className)' (key path '\(path)')")
        }
        mask |= ClassChanges.bit(property.id)
    }
    return mask
}

/// RealmSwift's message for observing anything frozen.
let frozenObservationMessage = "Frozen Realms do not change and do not have change notifications."

/// Traps unless an observer may be registered on `core` now (RealmSwift's rules).
func checkObservable(_ core: RealmCore) {
    core.confinement.check()
    precondition(!core.isFrozen, frozenObservationMessage)
    precondition(!core.writes.isInWriteTransaction, "Cannot register notification blocks from within write transactions.")
}

/// `observe(on: queue)`: the queue to deliver on when it is not `core`'s own (nil: deliver
/// in `core`'s context), after checking the rules.
func deliveryQueue(_ core: RealmCore, _ queue: DispatchQueue?) -> DispatchQueue? {
    checkObservable(core)
    guard let queue, queue !== core.confinement.queue else { return nil }
    return queue
}

/// Registers an observer of `value` that runs on `queue`, when the queue gets to it (the
/// token is returned at once): on the queue, `value` is found again in the Realm confined to
/// that queue (the same file, opened there at its newest version), and `register` observes it
/// there, so callbacks get that Realm's objects. An object observer then reports what changed
/// since the caller's version, so a commit made before the registration is not lost; a value
/// gone by then is not observed.
func observe<T: Relocatable>(_ value: T, on queue: DispatchQueue, register: @escaping (T) -> NotificationToken) -> NotificationToken {
    guard let core = value.relocationCore else {
        preconditionFailure("Only values managed by a Realm support change notifications")
    }
    let configuration = core.configuration, locator = value.locator, since = core.version
    let token = QueuedRegistration()
    queue.async {
        token.register {
            let realm: Realm
            do { realm = try Realm(configuration: configuration, queue: queue) } catch { trap(error) }
            guard let found = locator(realm.core) as? T else { return nil }
            let observer = register(found)
            if let observer = observer as? ObjectObserver, since < observer.version {
                observer.version = since
                realm.core.notifications.schedule(realm.core)
            }
            return observer
        }
    }
    return token
}
