import CLMDB
import CStrataKeyOrder
import CStrataFaultGuard
import Glibc
import Synchronization

/// An LMDB transaction: a read-only snapshot or the single write transaction of the file.
///
/// Bytes returned by `get` and by cursors point into the memory map and are valid only until
/// the transaction ends, or (in a write transaction) until the next write. `deinit` aborts a
/// transaction that was neither committed nor aborted. Not thread-safe: one thread at a time,
/// unless the read transaction is `share`d. So its state is not checked for exclusive access
/// at run time (`@exclusivity(unchecked)`): every LMDB call reads it.
package final class Transaction {
    @exclusivity(unchecked) package private(set) var handle: OpaquePointer?
    package let environment: Environment
    package let isReadOnly: Bool
    /// Whether a read transaction is reset (its snapshot released) and may be `renew`ed.
    @exclusivity(unchecked) package private(set) var isReset = false
    /// Held around every LMDB call on a read transaction that threads share (and on its
    /// cursors): LMDB lets a read-only transaction span threads only if its use is serialised
    /// (`MDB_NOTLS`). Taken only once `isShared`.
    private let sharedLock = Mutex(())
    /// Whether `share()` was called: what `serialized` tests on every call. Set once, before
    /// the transaction reaches another thread.
    @exclusivity(unchecked) package private(set) var isShared = false
    /// Whether the transaction is registered as using the environment's map (a top-level one
    /// that is neither ended nor reset): the map cannot move until it lets go.
    @exclusivity(unchecked) private var holdsMap = false
    /// Where the keys and values of the file's pages may lie (`ReadBounds`), set when the
    /// transaction (or a read transaction's new snapshot) begins.
    @exclusivity(unchecked) private(set) var readBounds: ReadBounds?
    /// Whether an LMDB call of this read transaction ended early because LMDB faulted or
    /// failed an assertion on a damaged page (`CStrataFaultGuard`; a write transaction stops
    /// the process instead, `stopAfterWriteFault`). LMDB's state for the transaction is then
    /// unknown: every later call fails the same way without reaching LMDB. A renewed read
    /// transaction starts clear.
    @exclusivity(unchecked) private var faulted = false
    /// The first failure of an LMDB call of this transaction (other than finding nothing),
    /// or `MDB_SUCCESS`: what LMDB's refusing the transaction afterwards (`MDB_BAD_TXN`)
    /// stands for (`noteFailure`).
    @exclusivity(unchecked) private var firstFailure = MDB_SUCCESS
    /// A read transaction's cursors that are not lent out, one at most per database (indexed
    /// by its handle), kept for the next `withCursor` on it, on this snapshot or a renewed
    /// one, until the transaction is reset or ends: opening one allocates it. Never a write
    /// transaction's (LMDB adjusts every open cursor of a write on each change, and frees
    /// them when it ends) nor a shared one's.
    @exclusivity(unchecked) private var idleCursors: [OpaquePointer?] = []
    /// A write transaction's cursors that its puts and deletes go through, one per database
    /// (indexed by its handle), opened by the first and kept until the transaction ends: each
    /// write positions it where it writes and checks the pages there first
    /// (`strata_guarded_put`).
    @exclusivity(unchecked) private var writeCursors: [OpaquePointer?] = []

    /// Begins a transaction. A write transaction waits for the file's write lock, which any
    /// thread or process may hold. When another process grew the file past this process's
    /// map (`MDB_MAP_RESIZED`), the map grows and the transaction begins again. A read
    /// transaction renews one that ended before when the environment kept one
    /// (`Environment.takeIdleReader`).
    package init(_ environment: Environment, readOnly: Bool) throws(LMDBError) {
        self.environment = environment
        self.isReadOnly = readOnly
        var txn: OpaquePointer?
        if readOnly, let idle = environment.takeIdleReader() {
            do throws(LMDBError) {
                try Self.registered(environment) { mdb_txn_renew(idle) }
            } catch {
                mdb_txn_abort(idle)
                throw error
            }
            txn = idle
        } else {
            try Self.registered(environment) { () -> Int32 in
                mdb_txn_begin(environment.handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
            }
        }
        handle = txn
        holdsMap = true
        readBounds = environment.readBounds(forWriting: !readOnly)
        if readOnly { try holdWholeSnapshot() }
    }

    /// Runs `begin` (`mdb_txn_begin` or `mdb_txn_renew`) registered as a user of the map,
    /// adopting a map another process grew and beginning again; on failure, unregistered.
    private static func registered(_ environment: Environment, _ begin: () -> Int32) throws(LMDBError) {
        var adopting = false
        while true {
            try environment.enterMap(adoptingResize: adopting)
            let rc = begin()
            if rc == 0 { return }
            environment.leaveMap()
            guard rc == MDB_MAP_RESIZED, !adopting else { throw LMDBError(rc) }
            adopting = true
        }
    }

    /// Begins a transaction nested in the write transaction `parent`: its writes join the
    /// parent's when it commits and vanish when it aborts. The parent must not be used until
    /// then.
    package init(nestedIn parent: Transaction) throws(LMDBError) {
        precondition(!parent.isReadOnly, "only write transactions can be nested in")
        environment = parent.environment
        isReadOnly = false
        // The parent's cursors would pass to the nested transaction (LMDB shadows them), which
        // may drop or reopen their databases.
        parent.closeKeptCursors()
        var txn: OpaquePointer?
        try check(mdb_txn_begin(environment.handle, parent.live, 0, &txn))
        handle = txn
        readBounds = parent.readBounds
    }

    deinit {
        if let handle { end(handle) }
        releaseMap()
    }

    /// Ends the transaction `txn` without committing: a read transaction is reset and kept for
    /// a later one to renew, unless a read of it faulted (LMDB's state for it is unknown);
    /// any other is aborted.
    private func end(_ txn: OpaquePointer) {
        closeKeptCursors()
        guard isReadOnly, !faulted else { return mdb_txn_abort(txn) }
        if !isReset { mdb_txn_reset(txn) }
        environment.keepIdleReader(txn)
    }

    /// Ends the registration `init` or `renew` made.
    private func releaseMap() {
        if holdsMap { environment.leaveMap() }
        holdsMap = false
    }

    private var live: OpaquePointer {
        guard let handle else { preconditionFailure("LMDB transaction used after commit or abort") }
        return handle
    }

    /// LMDB's transaction id: the version of the snapshot a read transaction sees.
    package var id: Int { mdb_txn_id(live) }

    /// Commits the transaction (a write is durable when this returns, unless `noSync`).
    package func commit() throws(LMDBError) {
        let txn = live
        closeKeptCursors()
        handle = nil
        defer { releaseMap() }
        let rc = unlessFaulted { strata_guarded_commit(txn) }
        // Not committed after an earlier read faulted: aborted instead.
        if rc == STRATA_LMDB_FAULT { mdb_txn_abort(txn) }
        try checkWrite(rc)
    }

    /// Aborts the transaction, discarding its writes.
    package func abort() {
        if let handle { end(handle) }
        handle = nil
        releaseMap()
    }

    /// Releases a read transaction's snapshot, keeping its reader slot for `renew`.
    package func reset() {
        precondition(isReadOnly, "only read transactions can be reset")
        closeKeptCursors()
        if !isReset { mdb_txn_reset(live); isReset = true }
        releaseMap()
    }

    /// Gives a reset read transaction the newest snapshot.
    package func renew() throws(LMDBError) {
        precondition(isReadOnly, "only read transactions can be renewed")
        try renewSnapshot()
        try holdWholeSnapshot()
    }

    /// The most times a read transaction begins again for a whole snapshot
    /// (`holdWholeSnapshot`): each time, two commits must have landed in the moment it took.
    private static let wholeSnapshotAttempts = 1_000
    /// The attempts after which a snapshot is taken although the newest meta page names the
    /// next transaction: a writer stopped (killed) between writing its meta page and
    /// publishing its id leaves that page until the next commit.
    private static let unpublishedMetaAttempts = 4

    /// Makes sure this read transaction reads the snapshot its id names. LMDB 0.9 begins one
    /// by reading the newest transaction id, then copying the database roots from the meta
    /// page of that id's parity. A reader paused in between while two commits land copies
    /// the second one's roots (a newer snapshot than its id, so than the version facts kept
    /// for that id), and one landing during the copy can tear it. The copy is whole when no
    /// meta page newer than the id has been written since; when one has, the transaction
    /// begins again.
    private func holdWholeSnapshot() throws(LMDBError) {
        for attempt in 0..<Self.wholeSnapshotAttempts {
            let newest = environment.newestMetaTransactionID, id = self.id
            if newest <= id || (newest == id + 1 && attempt >= Self.unpublishedMetaAttempts) { return }
            try renewSnapshot()
        }
        throw LMDBError(EAGAIN)
    }

    /// Releases the snapshot and begins the newest one.
    private func renewSnapshot() throws(LMDBError) {
        let txn = live
        if !isReset { mdb_txn_reset(txn) }
        isReset = true
        releaseMap()
        try Self.registered(environment) { mdb_txn_renew(txn) }
        isReset = false
        holdsMap = true
        faulted = false
        firstFailure = MDB_SUCCESS
        readBounds = environment.readBounds(forWriting: false)
    }

    /// Stops the process after a write transaction's call ended early on a damaged page. LMDB
    /// was changing the transaction's pages then: its state cannot be trusted, and ending the
    /// transaction (which releases the file's write lock) frees memory that is not LMDB's.
    /// Other processes take the write lock back once this one is gone, as after a crash.
    private func stopAfterWriteFault() -> Never {
        let path = environment.path
        preconditionFailure("'\(path)' is damaged: \(LMDBError(STRATA_LMDB_FAULT).message), during a write that cannot be ended safely, so the process stops; run `strata check \(path)`")
    }

    /// Lets several threads use this read transaction at once: from now on each LMDB call on
    /// it or its cursors holds `sharedLock`. Call it before the transaction reaches another
    /// thread.
    package func share() {
        precondition(isReadOnly, "only read transactions can be shared by threads")
        // Threads would take the same idle cursor at once: a shared transaction keeps none.
        closeKeptCursors()
        isShared = true
    }

    /// Runs one guarded LMDB call (`CStrataFaultGuard`), holding `sharedLock` if the
    /// transaction is shared; after a fault, fails without running it.
    @inline(__always)
    func serialized(_ call: () -> Int32) -> Int32 {
        guard isShared else { return unlessFaulted(call) }
        return sharedLock.withLock { _ in unlessFaulted(call) }
    }

    /// Runs `call` unless an earlier call faulted, noting when this one does, or fails.
    @inline(__always)
    private func unlessFaulted(_ call: () -> Int32) -> Int32 {
        if faulted { return STRATA_LMDB_FAULT }
        let rc = call()
        if rc != MDB_SUCCESS, rc != MDB_NOTFOUND { return noteFailure(rc) }
        return rc
    }

    /// Notes that a call failed with `rc`, and returns what it means. LMDB refuses a
    /// transaction (`MDB_BAD_TXN`) after a call met damage: when none of its calls failed
    /// before, the damage was met without saying so (as `mdb_get` meets it refreshing a
    /// database's root), and when the first failure was damage, the refusal is that damage.
    private func noteFailure(_ rc: Int32) -> Int32 {
        if rc == STRATA_LMDB_FAULT {
            faulted = true
            if !isReadOnly { stopAfterWriteFault() }
        }
        if firstFailure == MDB_SUCCESS { firstFailure = rc == MDB_BAD_TXN ? MDB_CORRUPTED : rc }
        guard rc == MDB_BAD_TXN else { return rc }
        switch firstFailure {
        case MDB_CORRUPTED, MDB_PAGE_NOTFOUND, MDB_CURSOR_FULL: return firstFailure
        default: return rc
        }
    }

    /// Opens (or with `.create`, creates) the named database. Returns nil if it does not exist.
    /// Its keys, and its values when sorted as duplicates, are compared by
    /// `strata_key_compare`: LMDB's own order, without a `memcmp` call for 8-byte ones.
    package func openDatabase(_ name: String?, flags: Database.Flags = []) throws(LMDBError) -> Database? {
        let txn = live
        var dbi: MDB_dbi = 0
        let rc = serialized { strata_guarded_dbi_open(txn, name, flags.rawValue, &dbi) }
        if rc == MDB_NOTFOUND { return nil }
        try check(rc)
        var stored: UInt32 = 0
        try check(mdb_dbi_flags(txn, dbi, &stored))
        // Only where LMDB would compare bytes: integer or reversed orders are left to it.
        if stored & UInt32(MDB_INTEGERKEY | MDB_REVERSEKEY) == 0 { try check(mdb_set_compare(txn, dbi, strata_key_compare)) }
        if stored & UInt32(MDB_DUPSORT) != 0, stored & UInt32(MDB_INTEGERDUP | MDB_REVERSEDUP) == 0 {
            try check(mdb_set_dupsort(txn, dbi, strata_key_compare))
        }
        return Database(handle: dbi)
    }

    /// Removes every entry of a database, keeping it (`mdb_drop` with 0).
    package func empty(_ db: Database) throws(LMDBError) { try checkWrite(serialized { strata_guarded_drop(live, db.handle, 0) }) }

    /// Deletes a database and closes its handle (`mdb_drop` with 1).
    package func drop(_ db: Database) throws(LMDBError) {
        if Int(db.handle) < writeCursors.count, let cursor = writeCursors[Int(db.handle)] {
            mdb_cursor_close(cursor)
            writeCursors[Int(db.handle)] = nil
        }
        try checkWrite(serialized { strata_guarded_drop(live, db.handle, 1) })
    }

    /// The value stored under `key`, or nil. The bytes are valid as described on the type.
    @inline(__always)
    package func get(_ db: Database, key: UnsafeRawBufferPointer) throws(LMDBError) -> UnsafeRawBufferPointer? {
        var data = MDB_val()
        let rc = try withValue(key) { (k: inout MDB_val) throws(LMDBError) in serialized { strata_guarded_get(live, db.handle, &k, &data) } }
        if rc == MDB_NOTFOUND { return nil }
        try check(rc)
        return try data.bytes(within: readBounds)
    }

    /// Stores `value` under `key`.
    @inline(__always)
    package func put(_ db: Database, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer,
                     flags: PutFlags = PutFlags()) throws(LMDBError) {
        try withValue(key) { (k: inout MDB_val) throws(LMDBError) in
            try withValue(value) { (v: inout MDB_val) throws(LMDBError) in
                let cursor = try writeCursor(db)
                var pages = committedPages
                try checkWrite(serialized { strata_guarded_put(cursor, &k, &v, flags.rawValue, &pages) })
            }
        }
    }

    /// Deletes `key` (and with `value`, only that duplicate). Returns false if it was absent.
    @discardableResult
    package func delete(_ db: Database, key: UnsafeRawBufferPointer,
                        value: UnsafeRawBufferPointer? = nil) throws(LMDBError) -> Bool {
        let cursor = try writeCursor(db)
        var pages = committedPages
        let rc = try withValue(key) { (k: inout MDB_val) throws(LMDBError) -> Int32 in
            if let value {
                return try withValue(value) { (v: inout MDB_val) throws(LMDBError) in serialized { strata_guarded_del(cursor, &k, &v, &pages) } }
            }
            return serialized { strata_guarded_del(cursor, &k, nil, &pages) }
        }
        if rc == MDB_NOTFOUND { return false }
        try checkWrite(rc)
        return true
    }

    /// Where the pages a write may change lie, for its checks of them (see `ReadBounds`).
    var committedPages: strata_page_bounds { readBounds?.committedPages ?? strata_page_bounds() }

    /// `check` for a call that writes: a full map (`MDB_MAP_FULL`) is also told to the
    /// environment, so that the map grows before the next transaction.
    @inline(__always)
    func checkWrite(_ rc: Int32) throws(LMDBError) {
        noteMapFull(rc)
        if rc != MDB_SUCCESS, firstFailure == MDB_SUCCESS { firstFailure = rc }
        try check(rc)
    }

    /// Tells the environment when a write's result is `MDB_MAP_FULL`.
    @inline(__always)
    func noteMapFull(_ rc: Int32) {
        if rc == MDB_MAP_FULL { environment.mapWasFull() }
    }

    /// Number of entries in a database.
    package func count(_ db: Database) throws(LMDBError) -> Int {
        var stat = MDB_stat()
        try check(serialized { strata_guarded_stat(live, db.handle, &stat) })
        return stat.ms_entries
    }

    /// Page statistics of a database (`mdb_stat`).
    package func statistics(_ db: Database) throws(LMDBError) -> (entries: Int, pages: Int, depth: Int) {
        var stat = MDB_stat()
        try check(serialized { strata_guarded_stat(live, db.handle, &stat) })
        return (stat.ms_entries, stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages,
                Int(stat.ms_depth))
    }

    /// Calls `body` with a cursor over `db`, closed (or, in a read transaction, kept for the
    /// next call) when `body` returns. Errors are `LMDBError`s and those `body` throws.
    @inline(__always)
    package func withCursor<R>(_ db: Database, _ body: (borrowing Cursor) throws -> R) throws -> R {
        let cursor = try lendCursor(db)
        defer { takeBack(cursor, of: db) }
        return try body(Cursor(handle: cursor, transaction: self))
    }

    /// An idle cursor over `db`, made new (unpositioned, on the current snapshot), or a new one.
    private func lendCursor(_ db: Database) throws(LMDBError) -> OpaquePointer {
        let slot = Int(db.handle)
        if slot < idleCursors.count, let idle = idleCursors[slot] {
            idleCursors[slot] = nil
            let rc = serialized { strata_guarded_cursor_renew(live, idle) }
            if rc != MDB_SUCCESS {
                mdb_cursor_close(idle)
                try check(rc)
            }
            return idle
        }
        var handle: OpaquePointer?
        try check(serialized { strata_guarded_cursor_open(live, db.handle, &handle) })
        return handle!
    }

    /// Keeps `cursor` for the next `withCursor` on `db` when it can be, or closes it.
    private func takeBack(_ cursor: OpaquePointer, of db: Database) {
        let slot = Int(db.handle)
        guard isReadOnly, !isShared, !faulted, !isReset, handle != nil else { return mdb_cursor_close(cursor) }
        Self.makeRoom(in: &idleCursors, for: slot)
        guard idleCursors[slot] == nil else { return mdb_cursor_close(cursor) }
        idleCursors[slot] = cursor
    }

    /// The cursor this write transaction's puts and deletes on `db` go through.
    @inline(__always)
    private func writeCursor(_ db: Database) throws(LMDBError) -> OpaquePointer {
        let slot = Int(db.handle)
        if slot < writeCursors.count, let cursor = writeCursors[slot] { return cursor }
        var handle: OpaquePointer?
        try check(serialized { strata_guarded_cursor_open(live, db.handle, &handle) })
        Self.makeRoom(in: &writeCursors, for: slot)
        writeCursors[slot] = handle
        return handle!
    }

    /// Closes the cursors kept for later calls: before the snapshot they read is released, or
    /// the write they wrote ends.
    private func closeKeptCursors() {
        Self.close(&idleCursors)
        Self.close(&writeCursors)
    }

    /// Grows `cursors` (one per database, by handle) to have a place for `slot`.
    private static func makeRoom(in cursors: inout [OpaquePointer?], for slot: Int) {
        if slot >= cursors.count { cursors.append(contentsOf: repeatElement(nil, count: slot + 1 - cursors.count)) }
    }

    private static func close(_ cursors: inout [OpaquePointer?]) {
        guard !cursors.isEmpty else { return }
        for case let cursor? in cursors { mdb_cursor_close(cursor) }
        cursors.removeAll(keepingCapacity: true)
    }
}
