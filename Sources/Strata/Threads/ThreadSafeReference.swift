import Synchronization

/// Carries a managed object, `Results`, `List` or `LinkingObjects` to another thread, where
/// `Realm.resolve(_:)` gives the same thing in that thread's Realm (RealmSwift's
/// `ThreadSafeReference`). Create it on the value's own thread; resolve it once.
///
/// The reference holds no Realm: only what finds the value again (class and key, query, list
/// owner and property), the version it was made at, and a snapshot of that version (until
/// resolved): a Realm that has read nothing yet resolves it at that version, as RealmSwift
/// does, and moves on with `refresh()`. Resolving in a Realm that is behind that version
/// refreshes it first, so the value is seen at least as new as it was; an object deleted by
/// then resolves to nil.
@frozen public struct ThreadSafeReference<Confined: ThreadConfined>: Sendable {
    private let state: ReferenceState

    /// A reference to `threadConfined`, which must be managed, not deleted, and used on its
    /// Realm's thread (or frozen).
    public init(to threadConfined: Confined) {
        guard let value = threadConfined as? Relocatable, let core = value.relocationCore else {
            preconditionFailure("Cannot construct reference to unmanaged object, which can be passed across threads directly")
        }
        core.confinement.check()
        if threadConfined.isInvalidated {
            preconditionFailure("Cannot construct reference to invalidated object")
        }
        let madeInWrite = core.writes.isInWriteTransaction
        state = ReferenceState(locator: value.locator, file: core.file.path, version: core.version, madeInWrite: madeInWrite,
                               snapshot: !madeInWrite && !core.isFrozen ? PinnedSnapshot(of: core) : nil)
    }

    /// Whether the reference was resolved already (it cannot be resolved again).
    public var isInvalidated: Bool { state.isResolved }

    /// The value in `core`: nil when it no longer exists there, or when `core` is another file.
    func resolve(in core: RealmCore) -> Confined? {
        guard let locator = state.take() else {
            preconditionFailure("Can only resolve a thread safe reference once.")
        }
        let snapshot = state.takeSnapshot()
        guard core.file.path == state.file else { return nil }
        snapshot?.adopt(by: core)
        let realm = Realm(core: core)
        if !core.isFrozen && !core.writes.isInWriteTransaction
            && (core.version < state.version || (state.madeInWrite && core.version == state.version)) {
            realm.refresh()
        }
        return locator(core) as? Confined
    }
}

/// What a `ThreadSafeReference` carries, shared by its copies: resolving one resolves all.
@usableFromInline final class ReferenceState: Sendable {
    /// The path of the file (as its `StorageFile` names it).
    let file: String
    /// The version of the Realm the reference was made in.
    let version: UInt64
    /// Made inside a write transaction: the value may exist only from the next version on.
    let madeInWrite: Bool
    /// What finds the value in a Realm, until it is handed out.
    private let locator: Mutex<(@Sendable (RealmCore) -> Any?)?>

    /// The snapshot of `version` that a reference to results holds until it is resolved.
    private let snapshot: Mutex<PinnedSnapshot?>

    init(locator: @escaping @Sendable (RealmCore) -> Any?, file: String, version: UInt64, madeInWrite: Bool,
         snapshot: PinnedSnapshot?) {
        self.locator = Mutex(locator)
        self.file = file
        self.version = version
        self.madeInWrite = madeInWrite
        self.snapshot = Mutex(snapshot)
    }

    /// The snapshot held, handed out once.
    func takeSnapshot() -> PinnedSnapshot? {
        snapshot.withLock { snapshot in
            defer { snapshot = nil }
            return snapshot
        }
    }

    var isResolved: Bool { locator.withLock { $0 == nil } }

    /// The locator, handed out once.
    func take() -> (@Sendable (RealmCore) -> Any?)? {
        locator.withLock { locator in
            defer { locator = nil }
            return locator
        }
    }
}

extension Realm {
    /// The value `reference` stands for, in this Realm: nil if it was deleted (by this
    /// Realm's version, which is first refreshed if it is behind the reference's). A
    /// reference resolves once; a second time traps, as in RealmSwift.
    public func resolve<Confined>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        core.confinement.check()
        return reference.resolve(in: core)
    }
}
