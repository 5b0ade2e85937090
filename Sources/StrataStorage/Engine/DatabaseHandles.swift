import Dispatch
import Glibc
import LMDB
import Synchronization

/// The named-database handles of one environment, opened the way LMDB requires
/// (`mdb_dbi_open` in lmdb.h):
///
/// - a handle opened by a transaction that aborts is closed, so handles are opened only by
///   short transactions that commit, or by a write transaction that is remembered only once
///   it commits;
/// - no two transactions may open handles at the same time, so every open holds `openLease`,
///   and a write transaction that creates databases holds it until it ends;
/// - a transaction can use only handles opened before it began (or by itself), so a
///   transaction takes a `snapshot()` of the visible handles before it begins.
final class DatabaseHandles: Sendable {
    private let environment: Environment
    private let visible = Mutex<[String: Database]>([:])
    /// The right to open handles: taken by `beginCreating` and given back by `endCreating`,
    /// which may run on another thread (a transaction ends where it is released), so it is a
    /// semaphore rather than a lock.
    private let openLease = DispatchSemaphore(value: 1)
    /// The thread that holds `openLease`, to refuse a second lease on the same thread.
    private let openOwner = Mutex<pthread_t?>(nil)

    init(environment: Environment) {
        self.environment = environment
    }

    /// The handles every transaction begun from now on can use.
    func snapshot() -> [String: Database] { visible.withLock { $0 } }

    /// The layout of the last schema whose databases a snapshot held all of. Handles are never
    /// closed, so every later snapshot holds them too (held strongly: identity stays unique).
    private let completeLayout = Mutex<DatabaseLayout?>(nil)

    /// The databases of `schema` that `handles`, a snapshot of these, lacks: none, found with
    /// no lookup, when an earlier snapshot already held them all.
    func missing(of schema: FileSchema, in handles: [String: Database]) -> [(name: String, flags: Database.Flags)] {
        if completeLayout.withLock({ $0 === schema.layout }) { return [] }
        let missing = Table.databases(for: schema).filter { handles[$0.name] == nil }
        if missing.isEmpty { completeLayout.withLock { $0 = schema.layout } }
        return missing
    }

    /// Opens existing databases (and with `create`, creates missing ones) in a short
    /// transaction that commits, making them visible to transactions begun afterwards.
    /// Names already visible are skipped; a missing name without `create` is left out.
    /// LMDB's errors are translated with `context`, what the caller is doing.
    func open(_ specs: [(name: String, flags: Database.Flags)], create: Bool,
              context: @autoclosure () -> String) throws(StorageError) {
        try withOpenLease { () throws(StorageError) in
            let known = snapshot()
            let wanted = specs.filter { known[$0.name] == nil }
            if wanted.isEmpty { return }
            let opened = try StorageError.translating(context()) {
                let txn = try Transaction(environment, readOnly: !create)
                var opened: [String: Database] = [:]
                for spec in wanted {
                    if let db = try txn.openDatabase(spec.name, flags: create ? spec.flags.union(.create) : spec.flags) {
                        opened[spec.name] = db
                    }
                }
                try txn.commit()
                return opened
            }
            visible.withLock { $0.merge(opened) { a, _ in a } }
        }
    }

    /// Lets a write transaction create databases: takes the open lease until `endCreating`.
    /// Throws instead of deadlocking if this thread already holds it.
    func beginCreating() throws(StorageError) {
        let me = pthread_self()
        if openOwner.withLock({ owner in owner.map { pthread_equal($0, me) != 0 } ?? false }) {
            throw StorageError(.fail, "A write transaction on this thread is already creating tables; finish it before opening another transaction that needs new tables")
        }
        openLease.wait()
        openOwner.withLock { $0 = me }
    }

    /// Ends what `beginCreating` began; `committed` are the handles created by a write that
    /// committed (nil when it aborted, and LMDB closed them).
    func endCreating(committed: [String: Database]?) {
        if let committed { visible.withLock { $0.merge(committed) { a, _ in a } } }
        openOwner.withLock { $0 = nil }
        openLease.signal()
    }

    private func withOpenLease<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        try beginCreating()
        defer { endCreating(committed: nil) }
        return try body()
    }
}
