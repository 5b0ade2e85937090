import CLMDB
import CStrataFaultGuard
import Glibc
import Synchronization

/// An open LMDB environment: one memory-mapped file shared by every thread of this process.
///
/// Opened in single-file mode (`MDB_NOSUBDIR`) with `MDB_NOTLS`, so a read transaction is not
/// tied to the thread that began it (frozen snapshots and thread hand-offs rely on that).
/// LMDB allows one environment per file per process: callers keep a registry (see
/// `EnvironmentRegistry` in the storage layer). Never `fork()` after opening.
///
/// The memory map starts at a size the address space allows and grows as the file does
/// (`MapSize`): growing remaps the file, so it happens only while no transaction of this
/// environment is open in this process, which every transaction registers for (`enterMap`).
package final class Environment: @unchecked Sendable {
    // Sendable invariant: LMDB's `MDB_env` is safe to share between threads; the stored
    // properties are immutable but `newestProbe`, `idleReaders` and `map`, mutexes.
    package let handle: OpaquePointer
    package let path: String
    /// The read transaction `newestTransactionID` renews and resets (nil until first asked).
    private let newestProbe = Mutex<OpaquePointer?>(nil)
    /// The map's size and the transactions using it.
    private let map: Mutex<MapState>
    /// Read transactions that ended, reset, for new ones to renew (`takeIdleReader`):
    /// beginning one allocates and zeroes LMDB's per-database arrays (`maxDatabases` × 49
    /// bytes, about 200 KiB), renewing reuses them. A reset one holds a reader slot but pins
    /// no version.
    private let idleReaders = Mutex<[OpaquePointer]>([])
    /// The most read transactions `idleReaders` keeps.
    private static let idleReaderLimit = 4

    /// What the map is and who uses it, guarded by `map`.
    private struct MapState {
        /// The size of the memory map: the most the file can grow to before the map grows.
        var size: Int
        /// Transactions of this environment open in this process (a reset one is not).
        var active = 0
        /// Set when a write found the map full: the next moment it is free, it grows.
        var isFull = false
        /// Set when growing failed half-way (LMDB unmapped the file but could not map it
        /// again): the environment cannot be used any more.
        var lost: LMDBError?
        /// Where the map begins (`MapAddress`), found again each time it moves.
        var start: UInt?
    }

    /// Options for `Environment.init`.
    package struct Options: Sendable {
        package var readOnly = false
        /// Skip the flush on commit (`MDB_NOSYNC`): fast, but the last commits can be lost on a crash.
        package var noSync = false
        /// Open without the lock file (`MDB_NOLOCK`): only for read-only opens where the lock
        /// file cannot be created (a read-only directory).
        package var noLock = false
        /// The permissions of files the open creates, before the umask masks them (LMDB
        /// creates the file and `FILE-lock`): 0666, as SQLite and LMDB themselves use.
        package var fileMode: mode_t = 0o666
        package var maxDatabases: UInt32 = 4096
        package var maxReaders: UInt32 = 1024
        package init() {}
    }

    /// Opens (creating if needed, unless read-only) the environment file at `path`.
    package init(path: String, options: Options) throws(LMDBError) {
        var env: OpaquePointer?
        try check(mdb_env_create(&env))
        guard let env else { throw LMDBError(ENOMEM) }
        strata_fault_guard_install(env)
        do throws(LMDBError) {
            try check(mdb_env_set_maxdbs(env, options.maxDatabases))
            try check(mdb_env_set_maxreaders(env, options.maxReaders))
            let size = MapSize.initial(forFileOf: MapSize.fileSize(path))
            guard size > 0 else { throw LMDBError(ENOMEM) }
            try check(mdb_env_set_mapsize(env, size))
            var flags = UInt32(MDB_NOSUBDIR | MDB_NOTLS)
            if options.readOnly { flags |= UInt32(MDB_RDONLY) }
            if options.noSync { flags |= UInt32(MDB_NOSYNC) }
            if options.noLock { flags |= UInt32(MDB_NOLOCK) }
            try check(mdb_env_open(env, path, flags, options.fileMode))
        } catch {
            mdb_env_close(env)
            throw error
        }
        self.handle = env
        self.path = path
        var info = MDB_envinfo(), stat = MDB_stat()
        mdb_env_info(env, &info)
        mdb_env_stat(env, &stat)
        pageSize = Int(stat.ms_psize)
        map = Mutex(MapState(size: info.me_mapsize, start: MapAddress.start(of: env, size: info.me_mapsize, pageSize: pageSize)))
    }

    deinit {
        newestProbe.withLock { probe in if let probe { mdb_txn_abort(probe) } }
        idleReaders.withLock { idle in idle.forEach(mdb_txn_abort) }
        mdb_env_close(handle)
    }

    /// A reset read transaction of this environment for a new one to renew, when one is kept.
    func takeIdleReader() -> OpaquePointer? {
        idleReaders.withLock { $0.popLast() }
    }

    /// Keeps `txn`, a read transaction that ended and is reset, for `takeIdleReader`; aborts
    /// it when enough are kept.
    func keepIdleReader(_ txn: OpaquePointer) {
        let kept = idleReaders.withLock { idle in
            guard idle.count < Self.idleReaderLimit else { return false }
            idle.append(txn)
            return true
        }
        if !kept { mdb_txn_abort(txn) }
    }

    /// The page size of the file, fixed when it was created.
    package let pageSize: Int

    /// Bytes of the file in use: (last page number + 1) × page size.
    package var usedBytes: Int {
        map.withLock { _ in usedBytesOfMap }
    }

    /// The size of the memory map: the most the file can grow to before the map grows again.
    package var mapSize: Int { map.withLock { $0.size } }

    /// The bounds of a transaction beginning now (registered as a user of the map, and for
    /// writing holding the write lock).
    func readBounds(forWriting: Bool) -> ReadBounds? {
        ReadBounds(fileBytes: usedBytesOfMap, pageSize: pageSize, map: map.withLock { ($0.start, $0.size) }, forWriting: forWriting)
    }

    /// The transaction id the newer meta page names (read by a transaction registered as a
    /// user of the map): a commit writes it before it publishes that id to new readers.
    package var newestMetaTransactionID: Int { info.me_last_txnid }

    /// `usedBytes` while `map` is held, or by a transaction registered as a user of the map;
    /// `Int.max` when a damaged meta page names a last page past any file.
    private var usedBytesOfMap: Int {
        let (bytes, overflow) = (info.me_last_pgno &+ 1).multipliedReportingOverflow(by: pageSize)
        return overflow || bytes < 0 ? .max : bytes
    }

    /// What `mdb_env_info` says of the map and the newer meta page.
    private var info: MDB_envinfo {
        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        return info
    }

    // MARK: - The map

    /// Registers a transaction about to begin (or renew): the map stays where it is until
    /// `leaveMap`. When nothing else in this process uses the map, it first grows if the file
    /// fills more than half of it or a write found it full, and adopts the size another
    /// process grew it to (`adoptResize`). Throws when the environment lost its map.
    func enterMap(adoptingResize: Bool = false) throws(LMDBError) {
        try map.withLock { (state: inout MapState) throws(LMDBError) in
            if let lost = state.lost { throw lost }
            if state.active == 0 {
                if let target = MapSize.grown(from: state.size, used: usedBytesOfMap, isFull: state.isFull || adoptingResize) {
                    try resize(&state, to: target)
                }
            } else if adoptingResize {
                // Another process grew the file past this map while snapshots here point into it.
                throw LMDBError(MDB_MAP_RESIZED)
            }
            state.active += 1
        }
    }

    /// Ends what `enterMap` began.
    func leaveMap() {
        map.withLock { $0.active -= 1 }
    }

    /// Records that a write found the map full (`MDB_MAP_FULL`): it grows before the next
    /// transaction begins while no other one is open.
    package func mapWasFull() {
        map.withLock { $0.isFull = true }
    }

    /// Remaps the file with `target` bytes (`mdb_env_set_mapsize`; `map` is held and no
    /// transaction is open). LMDB unmaps before it maps again, so a failure to map leaves the
    /// environment without a map: that is recorded, and every later transaction fails with it.
    private func resize(_ state: inout MapState, to target: Int) throws(LMDBError) {
        let rc = mdb_env_set_mapsize(handle, target)
        guard rc == 0 else {
            state.lost = LMDBError(rc)
            throw LMDBError(rc)
        }
        state.size = info.me_mapsize
        state.start = MapAddress.start(of: handle, size: state.size, pageSize: pageSize)
        state.isFull = false
    }

    /// Runs `body` with the map kept in place, for LMDB calls that begin their own transaction.
    func withMapInUse<T>(_ body: () throws(LMDBError) -> T) throws(LMDBError) -> T {
        try enterMap()
        defer { leaveMap() }
        return try body()
    }

    /// The id of the newest committed transaction, in any process: the snapshot a read
    /// transaction begun now gets. Read by renewing a read transaction kept for this (its
    /// reader slot stays taken while it is reset), not from the meta page: a commit writes its
    /// meta page before it publishes its id to new readers, so for a moment the meta page
    /// names a transaction that no new snapshot sees yet.
    package func newestTransactionID() throws(LMDBError) -> Int {
        try newestProbe.withLock { (probe: inout OpaquePointer?) throws(LMDBError) -> Int in
            try withMapInUse { () throws(LMDBError) -> Int in
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
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        if fd < 0 { throw LMDBError(errno) }
        defer { close(fd) }
        try withMapInUse { () throws(LMDBError) in try check(mdb_env_copyfd2(handle, fd, UInt32(MDB_CP_COMPACT))) }
    }
}
