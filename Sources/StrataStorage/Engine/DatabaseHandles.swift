import Glibc
import LMDB

/// The named-database handles of one environment, opened the way LMDB requires
/// (`mdb_dbi_open` in lmdb.h):
///
/// - a handle opened by a transaction that aborts is closed, so handles are opened only by
///   short transactions that commit, or by a write transaction that is remembered only once
///   it commits;
/// - no two transactions may open handles at the same time, so every open holds `openLock`,
///   and a write transaction that creates databases holds it until it ends;
/// - a transaction can use only handles opened before it began (or by itself), so a
///   transaction takes a `snapshot()` of the visible handles before it begins.
final class DatabaseHandles: @unchecked Sendable {
    // Sendable invariant: `visible` is guarded by `lock`; `openLock` serialises LMDB's
    // handle table, and `openOwner` is only written while holding it.
    private let environment: Environment
    private let lock = NSLockLite()
    private let openLock = NSLockLite()
    nonisolated(unsafe) private var openOwner: pthread_t?
    private var visible: [String: Database] = [:]

    init(environment: Environment) {
        self.environment = environment
    }

    /// The handles every transaction begun from now on can use.
    func snapshot() -> [String: Database] { lock.withLock { visible } }

    /// Opens existing databases (and with `create`, creates missing ones) in a short
    /// transaction that commits, making them visible to transactions begun afterwards.
    /// Names already visible are skipped; a missing name without `create` is left out.
    func open(_ specs: [(name: String, flags: Database.Flags)], create: Bool) throws {
        try withOpenLock {
            let known = snapshot()
            let wanted = specs.filter { known[$0.name] == nil }
            if wanted.isEmpty { return }
            let txn = try Transaction(environment, readOnly: !create)
            var opened: [String: Database] = [:]
            for spec in wanted {
                if let db = try txn.openDatabase(spec.name, flags: create ? spec.flags.union(.create) : spec.flags) {
                    opened[spec.name] = db
                }
            }
            try txn.commit()
            lock.withLock { visible.merge(opened) { a, _ in a } }
        }
    }

    /// Lets a write transaction create databases: takes the open lock until `endCreating`.
    /// Throws instead of deadlocking if this thread already holds it.
    func beginCreating() throws {
        if let owner = openOwner, pthread_equal(owner, pthread_self()) != 0 {
            throw StorageError(.fail, "A write transaction on this thread is already creating tables; finish it before opening another transaction that needs new tables")
        }
        openLock.lock()
        openOwner = pthread_self()
    }

    /// Ends what `beginCreating` began; `committed` are the handles created by a write that
    /// committed (nil when it aborted, and LMDB closed them).
    func endCreating(committed: [String: Database]?) {
        if let committed { lock.withLock { visible.merge(committed) { a, _ in a } } }
        openOwner = nil
        openLock.unlock()
    }

    private func withOpenLock<T>(_ body: () throws -> T) throws -> T {
        try beginCreating()
        defer { endCreating(committed: nil) }
        return try body()
    }
}
