import CLMDB
import CStrataFaultGuard
import Glibc

/// A position in a database, for ordered scans and range seeks (`MDB_cursor`).
///
/// Returned key and value bytes follow the transaction's lifetime rules. A cursor exists only
/// inside `Transaction.withCursor`, which lends it (`borrowing`, and not copyable) and takes it
/// back on return (closed, or kept idle by a read transaction for its next call): it cannot
/// outlive its transaction, whose end would close it first when the transaction writes
/// (lmdb.h). A cursor of a shared read transaction holds the transaction's lock for each move
/// (`Transaction.share()`).
package struct Cursor: ~Copyable {
    private let handle: OpaquePointer
    /// Not retained: the transaction lends the cursor, so it outlives it. Unmanaged, so that
    /// a move (once per row of a scan) uses it without counting a reference.
    private let transaction: Unmanaged<Transaction>

    init(handle: OpaquePointer, transaction: Transaction) {
        self.handle = handle
        self.transaction = .passUnretained(transaction)
    }

    /// A key/value pair under the cursor.
    package typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    /// Runs one LMDB call on the cursor, as its transaction runs calls (`serialized`).
    @inline(__always)
    private func serialized(_ call: () -> Int32) -> Int32 {
        transaction._withUnsafeGuaranteedRef { $0.serialized(call) }
    }

    /// The transaction's `readBounds`, which every key and value read is checked against.
    @inline(__always)
    var readBounds: ReadBounds? { transaction._withUnsafeGuaranteedRef { $0.readBounds } }

    @inline(__always)
    private func move(_ op: MDB_cursor_op) throws(LMDBError) -> Entry? {
        var key = MDB_val(), data = MDB_val()
        let rc = serialized { strata_guarded_cursor_get(handle, &key, &data, op) }
        if rc == MDB_NOTFOUND { return nil }
        try check(rc)
        return (try key.bytes(within: readBounds), try data.bytes(within: readBounds))
    }

    @inline(__always)
    private func move(_ op: MDB_cursor_op, key: UnsafeRawBufferPointer,
                      value: UnsafeRawBufferPointer? = nil) throws(LMDBError) -> Entry? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var d = MDB_val(mv_size: value?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: value?.baseAddress))
        let rc = serialized { strata_guarded_cursor_get(handle, &k, &d, op) }
        if rc == MDB_NOTFOUND { return nil }
        try check(rc)
        return (try k.bytes(within: readBounds), try d.bytes(within: readBounds))
    }

    /// Reads up to `asked` entries, the first by `first` (from `keys[0]` when it seeks), the
    /// others by `MDB_NEXT`, in one guarded call; `count` is set to the entries read.
    @inline(__always)
    func batch(_ first: MDB_cursor_op, _ keys: UnsafeMutablePointer<MDB_val>, _ values: UnsafeMutablePointer<MDB_val>,
               _ asked: Int, _ count: inout Int) -> Int32 {
        serialized { strata_guarded_cursor_batch(handle, first, keys, values, asked, &count) }
    }

    /// Entries `scan` asks LMDB for in one guarded call.
    private static let batchSize = 128

    /// Calls `body` with every entry from the first, in key order, until it returns false
    /// (`scan` from the start).
    package func forEach(_ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool) throws {
        _ = try scan(from: nil, body)
    }

    /// Calls `body` with every entry from the first key ≥ `start` (from the first, for nil),
    /// in key order, until it returns false or `limit` entries were read; returns whether the
    /// walk reached the end. The loop of a scan: LMDB is asked for the entries up to 128 at a
    /// time in one guarded call (`strata_guarded_cursor_batch`), so the cursor may stand past
    /// the entry `body` stopped at (`limit` keeps a short walk from reading a whole batch).
    /// Errors are `LMDBError`s and those `body` throws.
    package func scan(from start: UnsafeRawBufferPointer?, limit: Int = .max,
                      _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        try withUnsafeTemporaryAllocation(of: MDB_val.self, capacity: 2 * Self.batchSize) { entries in
            let keys = entries.baseAddress!, values = keys + Self.batchSize
            var first = MDB_FIRST
            if let start {
                keys[0] = MDB_val(mv_size: start.count, mv_data: UnsafeMutableRawPointer(mutating: start.baseAddress))
                first = MDB_SET_RANGE
            }
            var left = limit
            while left > 0 {
                var count = 0
                let asked = min(left, Self.batchSize)
                let rc = batch(first, keys, values, asked, &count)
                let held = readBounds?.heldCount(keys: keys, values: values, count: count) ?? count
                for i in 0..<held where try !body(keys[i].bytes, values[i].bytes) {
                    return false
                }
                if held < count { throw LMDBError.corrupted }
                if rc == MDB_NOTFOUND { return true }
                try check(rc)
                left -= count
                first = MDB_NEXT
            }
            return false
        }
    }

    /// Calls `body` with each duplicate of `key`, in order (`find`, then `MDB_NEXT_DUP`);
    /// never when the key is absent. Only for a database with duplicates (`MDB_DUPSORT`): in
    /// any other, `MDB_NEXT_DUP` would move on to the next key.
    package func forEachDuplicate(of key: UnsafeRawBufferPointer, _ body: (_ value: UnsafeRawBufferPointer) throws(LMDBError) -> Void) throws(LMDBError) {
        guard let first = try find(key) else { return }
        try body(first.value)
        var k = MDB_val(), data = MDB_val()
        while true {
            let rc = serialized { strata_guarded_cursor_get(handle, &k, &data, MDB_NEXT_DUP) }
            if rc == MDB_NOTFOUND { return }
            try check(rc)
            try body(try data.bytes(within: readBounds))
        }
    }

    /// The first entry (`MDB_FIRST`).
    package func first() throws(LMDBError) -> Entry? { try move(MDB_FIRST) }
    /// The last entry (`MDB_LAST`).
    package func last() throws(LMDBError) -> Entry? { try move(MDB_LAST) }
    /// The next entry, including the next duplicate (`MDB_NEXT`).
    package func next() throws(LMDBError) -> Entry? { try move(MDB_NEXT) }
    /// The previous entry (`MDB_PREV`).
    package func previous() throws(LMDBError) -> Entry? { try move(MDB_PREV) }
    /// The entry under the cursor (`MDB_GET_CURRENT`).
    package func current() throws(LMDBError) -> Entry? { try move(MDB_GET_CURRENT) }
    /// The next duplicate of the current key (`MDB_NEXT_DUP`).
    package func nextDuplicate() throws(LMDBError) -> Entry? { try move(MDB_NEXT_DUP) }
    /// The first entry of the next key (`MDB_NEXT_NODUP`).
    package func nextKey() throws(LMDBError) -> Entry? { try move(MDB_NEXT_NODUP) }

    /// Positions at `key` exactly and returns its entry, or nil. Searched as `MDB_SET_RANGE`
    /// (not `MDB_SET_KEY`), so that when the key is absent LMDB still hands back the entry after
    /// it, whose page is checked as every read's is. A search that lands on a page out of its
    /// place is then damage, not an absent key (`MDB_SET_KEY` would hand back nothing).
    package func find(_ key: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? {
        guard let entry = try move(MDB_SET_RANGE, key: key) else { return nil }
        guard entry.key.count == key.count, key.isEmpty || memcmp(entry.key.baseAddress!, key.baseAddress!, key.count) == 0 else { return nil }
        return entry
    }

    /// Positions at the first key ≥ `key` (`MDB_SET_RANGE`), or returns nil.
    package func seek(atLeast key: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? {
        try move(MDB_SET_RANGE, key: key)
    }

    /// Positions at the exact key/value pair of a duplicate-sorted database (`MDB_GET_BOTH`).
    package func seek(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? {
        try move(MDB_GET_BOTH, key: key, value: value)
    }

    /// Positions at `key` and its first duplicate ≥ `value` (`MDB_GET_BOTH_RANGE`), or returns nil.
    package func seek(key: UnsafeRawBufferPointer, valueAtLeast value: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? {
        try move(MDB_GET_BOTH_RANGE, key: key, value: value)
    }

    /// Number of duplicates of the current key (`mdb_cursor_count`).
    package func duplicateCount() throws(LMDBError) -> Int {
        var n = 0
        try check(serialized { strata_guarded_cursor_count(handle, &n) })
        return n
    }

    /// Deletes the entry under the cursor (`mdb_cursor_del`).
    package func deleteCurrent() throws(LMDBError) {
        var pages = transaction._withUnsafeGuaranteedRef { $0.committedPages }
        let rc = serialized { strata_guarded_cursor_del(handle, 0, &pages) }
        transaction._withUnsafeGuaranteedRef { $0.noteMapFull(rc) }
        try check(rc)
    }
}
