import CLMDB

/// Entries a cursor read ahead in one guarded call (`Cursor.read(from:into:)`): up to
/// `capacity` keys and values in key order, each known to lie where an intact page puts it.
/// They point into the map, so they stay valid while the transaction that read them is open
/// and writes nothing.
///
/// For a walk that hands out one entry at a time without a call per entry (`RowCursor`):
/// the buffers are allocated once and refilled by each read.
@usableFromInline
package final class CursorEntries {
    /// Entries one read asks for at most.
    package let capacity: Int
    @usableFromInline let keys: UnsafeMutablePointer<MDB_val>
    @usableFromInline let values: UnsafeMutablePointer<MDB_val>
    /// The entries the last read found. (Unchecked: a reader owns its entries, and only its
    /// reads write them.)
    @exclusivity(unchecked) package fileprivate(set) var count = 0
    /// Whether the last read reached the database's end.
    @exclusivity(unchecked) package fileprivate(set) var reachedEnd = false
    /// What ended the last read early, after its `count` entries: LMDB's error, or damage
    /// found in the next entry.
    @exclusivity(unchecked) package fileprivate(set) var failure: LMDBError?

    /// Empty buffers for `capacity` entries.
    package init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        keys = .allocate(capacity: capacity)
        values = .allocate(capacity: capacity)
    }

    deinit {
        keys.deallocate()
        values.deallocate()
    }

    /// The key of entry `i` (below `count`).
    @inlinable @inline(__always)
    package func key(_ i: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: keys[i].mv_data, count: keys[i].mv_size)
    }

    /// The value of entry `i` (below `count`).
    @inlinable @inline(__always)
    package func value(_ i: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: values[i].mv_data, count: values[i].mv_size)
    }

    /// The keys and the values of the entries from `i` on, as arrays of `MDB_val` (each a
    /// length, then an address): what a C function taking a run of entries reads.
    package func run(from i: Int) -> (keys: UnsafeRawPointer, values: UnsafeRawPointer) {
        (UnsafeRawPointer(keys + i), UnsafeRawPointer(values + i))
    }

    /// Records what a read into the buffers found: `found` entries and LMDB's code `rc`, each
    /// entry's bounds checked against `bounds` (the first that fails ends the entries).
    fileprivate func record(found: Int, rc: Int32, bounds: ReadBounds?) {
        reachedEnd = rc == MDB_NOTFOUND
        failure = rc == MDB_SUCCESS || rc == MDB_NOTFOUND ? nil : LMDBError(rc)
        count = found
        guard let bounds else { return }
        let held = bounds.heldCount(keys: keys, values: values, count: found)
        if held < found {
            count = held
            reachedEnd = false
            failure = .corrupted
        }
    }
}

extension Cursor {
    /// Reads the entries from the first key ≥ `start` into `entries`, as many as it holds,
    /// in one guarded call (`strata_guarded_cursor_batch`). Never throws: what ends the read
    /// early is in `entries.failure`, after the entries found before it.
    package func read(from start: UnsafeRawBufferPointer, into entries: CursorEntries) {
        entries.keys[0] = MDB_val(mv_size: start.count, mv_data: UnsafeMutableRawPointer(mutating: start.baseAddress))
        var found = 0
        let rc = batch(MDB_SET_RANGE, entries.keys, entries.values, entries.capacity, &found)
        entries.record(found: found, rc: rc, bounds: readBounds)
    }
}
