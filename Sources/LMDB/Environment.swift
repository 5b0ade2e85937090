import CLMDB
import Glibc
import Synchronization

/// An open LMDB environment: one memory-mapped file shared by every thread of this process.
///
/// Opened in single-file mode (`MDB_NOSUBDIR`) with `MDB_NOTLS`, so a read transaction is not
/// tied to the thread that began it (frozen snapshots and thread hand-offs rely on that).
/// LMDB allows one environment per file per process: callers keep a registry (see
/// `EnvironmentRegistry` in the storage layer). Never `fork()` after opening.
package final class Environment: @unchecked Sendable {
    // Sendable invariant: LMDB's `MDB_env` is safe to share between threads; the stored
    // properties are immutable but `newestProbe`, a mutex.
    package let handle: OpaquePointer
    package let path: String
    /// The size of the memory map: the most the file can grow to.
    package let mapSize: Int
    /// The read transaction `newestTransactionID` renews and resets (nil until first asked).
    private let newestProbe = Mutex<OpaquePointer?>(nil)

    /// Options for `Environment.init`.
    package struct Options: Sendable {
        package var readOnly = false
        /// Skip the flush on commit (`MDB_NOSYNC`): fast, but the last commits can be lost on a crash.
        package var noSync = false
        /// Open without the lock file (`MDB_NOLOCK`): only for read-only opens where the lock
        /// file cannot be created (a read-only directory).
        package var noLock = false
        /// Address space reserved for the map (1 TiB). Without `MDB_WRITEMAP` the file grows
        /// only as pages are used, so this costs address space, not disk or memory. Growing it
        /// later would need every transaction of the process closed (LMDB remaps the file).
        package var mapSize = 1 << 40
        package var maxDatabases: UInt32 = 4096
        package var maxReaders: UInt32 = 1024
        package init() {}
    }

    /// Opens (creating if needed, unless read-only) the environment file at `path`.
    package init(path: String, options: Options) throws(LMDBError) {
        var env: OpaquePointer?
        try check(mdb_env_create(&env))
        guard let env else { throw LMDBError(ENOMEM) }
        do {
            try check(mdb_env_set_maxdbs(env, options.maxDatabases))
            try check(mdb_env_set_maxreaders(env, options.maxReaders))
            try check(mdb_env_set_mapsize(env, options.mapSize))
            var flags = UInt32(MDB_NOSUBDIR | MDB_NOTLS)
            if options.readOnly { flags |= UInt32(MDB_RDONLY) }
            if options.noSync { flags |= UInt32(MDB_NOSYNC) }
            if options.noLock { flags |= UInt32(MDB_NOLOCK) }
            try check(mdb_env_open(env, path, flags, 0o644))
        } catch {
            mdb_env_close(env)
            throw error
        }
        self.handle = env
        self.path = path
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        self.mapSize = info.me_mapsize
    }

    deinit {
        newestProbe.withLock { probe in if let probe { mdb_txn_abort(probe) } }
        mdb_env_close(handle)
    }

    /// The largest key LMDB accepts (511 bytes with the default build).
    package var maxKeySize: Int { Int(mdb_env_get_maxkeysize(handle)) }

    /// The page size of the file.
    package var pageSize: Int {
        var stat = MDB_stat()
        mdb_env_stat(handle, &stat)
        return Int(stat.ms_psize)
    }

    /// Bytes of the file in use: (last page number + 1) × page size.
    package var usedBytes: Int {
        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        return (info.me_last_pgno + 1) * pageSize
    }

    /// The id of the newest committed transaction, in any process: the snapshot a read
    /// transaction begun now gets. Read by renewing a read transaction kept for this (its
    /// reader slot stays taken while it is reset), not from the meta page: a commit writes its
    /// meta page before it publishes its id to new readers, so for a moment the meta page
    /// names a transaction that no new snapshot sees yet.
    package func newestTransactionID() throws(LMDBError) -> Int {
        try newestProbe.withLock { (probe: inout OpaquePointer?) throws(LMDBError) -> Int in
            if let probe {
                try check(mdb_txn_renew(probe))
            } else {
                var txn: OpaquePointer?
                try check(mdb_txn_begin(handle, nil, UInt32(MDB_RDONLY), &txn))
                probe = txn
            }
            guard let txn = probe else { throw LMDBError(ENOMEM) }
            defer { mdb_txn_reset(txn) }
            return mdb_txn_id(txn)
        }
    }

    /// Clears reader slots left by dead processes (`mdb_reader_check`); returns how many.
    @discardableResult
    package func clearStaleReaders() -> Int {
        var dead: Int32 = 0
        mdb_reader_check(handle, &dead)
        return Int(dead)
    }

    /// Flushes the data to disk (`mdb_env_sync` with force).
    package func sync() throws(LMDBError) { try check(mdb_env_sync(handle, 1)) }

    /// Writes a compacted copy of the environment to `path` (`mdb_env_copy2` with `MDB_CP_COMPACT`).
    package func copyCompacted(to path: String) throws(LMDBError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        if fd < 0 { throw LMDBError(errno) }
        defer { close(fd) }
        try check(mdb_env_copyfd2(handle, fd, UInt32(MDB_CP_COMPACT)))
    }
}
