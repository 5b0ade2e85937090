import StrataStorage
import Synchronization

/// What makes a Realm instance frozen: the one read snapshot it reads forever, prepared to be
/// read by several threads at once (its version stays pinned in the file while the instance
/// lives), and the lock that serialises what the instance makes lazily on those threads (its
/// table bindings and the class looked up last).
final class FrozenSnapshot {
    /// The snapshot every thread reads through.
    let transaction: StorageTransaction
    private let lock = Mutex(())

    /// The snapshot of `live`'s version, a transaction of `file`. Outside a write it is `live`
    /// itself, which the live instance and the frozen one then share (a fresh read might see a
    /// newer version); inside a write (or a group of asynchronous writes) it is a fresh read,
    /// which is the version the write started from since no other writer can commit meanwhile.
    init(of live: StorageTransaction, in file: StorageFile) throws {
        let snapshot = live.isWrite ? try file.beginRead() : live
        precondition(snapshot.version == live.version, "A commit happened while '\(file.path)' was in a write transaction")
        try snapshot.shareAcrossThreads()
        transaction = snapshot
    }

    /// Runs `body` with no other thread inside the instance's lazily made state.
    func exclusively<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try lock.withLock { _ throws(E) in try body() }
    }
}
