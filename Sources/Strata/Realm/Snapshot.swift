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

    /// No transaction yet: the first read begins one.
    init() {}

    /// Reading `shared` forever (a frozen instance): a snapshot prepared for several threads,
    /// whose change counter stays its live instance's (it never writes).
    init(frozen shared: StorageTransaction) {
        transaction = shared
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

    /// Ends the transaction held, aborting it unless a frozen instance shares it.
    mutating func release() {
        if let transaction, !transaction.isShared { transaction.abort() }
        forget()
    }

    /// Stops reading the transaction held, which has ended (committed or aborted).
    mutating func forget() {
        transaction = nil
        stamps.bump()
    }
}
