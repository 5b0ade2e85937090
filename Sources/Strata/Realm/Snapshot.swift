import StrataStorage

/// The transaction one Realm instance reads through, and the stamp of the row views read
/// from it.
///
/// The transaction is a read snapshot, the open write transaction, or (frozen) a snapshot
/// shared across threads; nil between snapshots. The stamp changes whenever a row view held
/// by an accessor may have become stale: when the instance moves to another transaction, and
/// (through the transaction's change counter) on every write.
struct Snapshot {
    /// The transaction reads go through, if one is held.
    private(set) var transaction: StorageTransaction?
    private let stamps = ChangeCounter()
    /// Whether the transaction is a frozen instance's, read forever: releasing it does nothing.
    private let isPinned: Bool

    /// No transaction yet: the first read begins one.
    init() { isPinned = false }

    /// Reading `shared` forever (a frozen instance): a snapshot prepared for several threads,
    /// whose change counter stays its live instance's (it never writes).
    init(frozen shared: StorageTransaction) {
        transaction = shared
        isPinned = true
        stamps.bump()
    }

    /// Stamps row views: changes whenever a held view may have become stale.
    @inline(__always)
    var stamp: UInt64 { stamps.word.pointee }

    /// Whether the transaction held sees the newest commit of any process.
    var isOnNewestVersion: Bool { transaction?.isNewest ?? false }

    /// Begins a read snapshot of `file`'s newest version and reads through it.
    mutating func beginRead(_ file: StorageFile) throws -> StorageTransaction {
        let txn = try file.beginRead()
        hold(txn)
        return txn
    }

    /// Reads through `txn` from now on (a new read snapshot or the write transaction); its
    /// writes change the stamp.
    mutating func hold(_ txn: StorageTransaction) {
        txn.changeCounter = stamps
        transaction = txn
        stamps.bump()
    }

    /// Ends the transaction held, aborting it unless a frozen instance shares it; on a frozen
    /// instance, does nothing.
    mutating func release() {
        if isPinned { return }
        if let transaction, !transaction.isShared { transaction.abort() }
        forget()
    }

    /// Stops reading the transaction held, which has ended (committed or aborted).
    mutating func forget() {
        transaction = nil
        stamps.bump()
    }
}
