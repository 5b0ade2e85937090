import StrataStorage
import Synchronization

/// A `write(withoutNotifying:)` commit that observers delivering on another queue (tokens of
/// `observe(on: queue)`, registered in the Realm confined to that queue) must not hear of.
///
/// Made before the commit, with a read snapshot of the version the write starts from; from
/// then on the queue's Realm holds its deliveries. After the commit it also holds a snapshot
/// of the committed version and is handed to the queue, whose Realm reports what came before
/// the write (to every observer), takes the write as seen by the skipped observers (telling
/// the others), and then delivers up to the newest version as usual. So the skipped
/// observers' next notification describes only the changes after the skipped write.
final class SkippedWrite: @unchecked Sendable {
    // Sendable invariant: the snapshots are set on the writing thread before the write is
    // handed to the queue (`committed`, `abandoned`), and used only there afterwards.
    /// The queue-confined Realm of the skipped observers.
    let core: RealmCore
    /// The skipped observers, all of `core`.
    let observers: [Observer]
    /// The version the write started from.
    private var before: PinnedSnapshot?
    /// The version it committed; nil when it committed nothing (or failed).
    private var after: PinnedSnapshot?

    private init(core: RealmCore, observers: [Observer], before: PinnedSnapshot?) {
        self.core = core
        self.observers = observers
        self.before = before
        for observer in observers { observer.awaitedWrite.withLock { $0 = self } }
    }

    /// The skipped writes of `tokens` that are observers of other queue-confined Realms of
    /// `committing`'s file (one per Realm); called in the write transaction, before its commit.
    static func register(_ tokens: [NotificationToken], committing: RealmCore) -> [SkippedWrite] {
        var byCore: [ObjectIdentifier: [Observer]] = [:]
        for observer in tokens.compactMap(\.registeredObserver) where observer.core !== committing && !observer.isInvalidated
            && observer.core.file === committing.file && observer.core.confinement.queue != nil {
            byCore[ObjectIdentifier(observer.core), default: []].append(observer)
        }
        return byCore.values.map { observers in
            SkippedWrite(core: observers[0].core, observers: observers, before: PinnedSnapshot(reading: committing.file))
        }
    }

    /// The commit succeeded and `committing` reads the version it made: hands the write to
    /// the queue.
    func committed(_ committing: RealmCore) {
        if let start = before?.version, committing.version > start { after = PinnedSnapshot(of: committing) }
        handOver()
    }

    /// The commit failed: the queue delivers as usual.
    func abandoned() { handOver() }

    private func handOver() {
        // The queue's blocks may be sent from any thread.
        core.confinement.schedule { [self] in core.notifications.deliver(skipping: self, core) }
    }

    /// On the queue: stops holding the observers' deliveries and hands out the snapshots
    /// (before, after), both nil when the write committed nothing.
    func release() -> (before: PinnedSnapshot?, after: PinnedSnapshot?) {
        for observer in observers {
            observer.awaitedWrite.withLock { if $0 === self { $0 = nil } }
        }
        defer { before = nil; after = nil }
        return after == nil ? (nil, nil) : (before, after)
    }
}
