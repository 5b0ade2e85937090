import StrataStorage

/// A read snapshot of a Realm's version, carried by a `ThreadSafeReference` to the thread that
/// resolves it. One thread at a time uses it (LMDB's read transactions are not tied to a
/// thread here), and it ends when the resolving Realm moves on, or with the reference if that
/// is never resolved.
final class PinnedSnapshot: @unchecked Sendable {
    // Sendable invariant: the transaction is used by one thread at a time: made on the
    // reference's thread, then handed out once (`ReferenceState.takeSnapshot`).
    private var transaction: StorageTransaction?

    /// A snapshot of `core`'s version; nil when a snapshot begun now would see a newer one.
    convenience init?(of core: RealmCore) {
        self.init(reading: core.file)
        guard version == core.version else { return nil }
    }

    /// A snapshot of `file`'s newest version; nil when none can be begun.
    init?(reading file: StorageFile) {
        guard let txn = try? file.beginRead() else { return nil }
        transaction = txn
    }

    /// The version the snapshot reads; nil once handed out.
    var version: UInt64? { transaction?.version }

    deinit { transaction?.abort() }

    /// Makes the snapshot `core`'s when it has read nothing yet (and is live, not writing);
    /// otherwise ends it.
    func adopt(by core: RealmCore) {
        guard let txn = transaction else { return }
        transaction = nil
        if core.snapshot.transaction == nil && !core.isFrozen && !core.writes.isInWriteTransaction {
            core.snapshot.hold(txn)
        } else {
            txn.abort()
        }
    }
}
