import LMDB

/// A read snapshot read by several threads at once (the snapshot of a frozen Realm).
///
/// Two things make it safe: every LMDB call on the transaction and its cursors is serialised
/// (`Transaction.share()`), and the tables of every stored class are opened beforehand, so
/// that reading never adds to the transaction's own table cache. The bytes handed out point
/// into the memory map and stay valid while the transaction lives, whichever thread reads them.
extension StorageTransaction {
    /// Prepares this read snapshot for concurrent readers; call it on the thread that owns it,
    /// before any other thread sees it. Idempotent.
    package func shareAcrossThreads() throws {
        precondition(!isWrite, "only a read snapshot can be shared by threads")
        if isShared { return }
        for name in schema.classes.keys { _ = try table(name) }
        lmdb.share()
    }

    /// Whether threads share this snapshot: whoever stops using it must not end it, since
    /// others may still read it (it ends when the last holder releases it).
    package var isShared: Bool { lmdb.isShared }
}
