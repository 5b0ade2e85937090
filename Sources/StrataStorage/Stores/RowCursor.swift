import LMDB

/// Rows of one table in key order (see `RowStore.scan`), read in batches: each
/// batch is one LMDB cursor walk that ends before `next` returns, so no cursor outlives the
/// call that opened it, whatever becomes of the transaction afterwards.
///
/// On an encrypted file rows are decrypted into a block (`block`), which is reused when full
/// unless someone holds it: a row handed out stays valid until the cursor fills its block
/// again, or for as long as that block is held (an object given the row holds it). A cursor
/// that `keepsRows` decrypts into the transaction's memory instead, so its rows stay valid
/// until the transaction ends. On a plain file rows lie in the memory map and `block` is nil.
///
/// In a read transaction, a walk that reaches the table's end having met a different number
/// of rows than the table counts (`mdb_stat`, which reads no page of the table) ends with a
/// damage error rather than with fewer objects: a damaged branch page hid rows or led the
/// walk into another table's. A write transaction may change the table between batches, so
/// its walks are not compared.
@usableFromInline
package final class RowCursor {
    private let table: Table
    private let transaction: StorageTransaction
    /// The entries read ahead, how many there are, and how many of them `next` has handed
    /// out.
    @usableFromInline let entries = CursorEntries(capacity: 128)
    @exclusivity(unchecked) @usableFromInline var available = 0
    @exclusivity(unchecked) @usableFromInline var position = 0
    /// The least key the walk may meet next (where the next read begins); nil once it met
    /// the greatest key.
    @exclusivity(unchecked) @usableFromInline var least: ObjectKey? = 0
    /// Whether the entries read last are the last there are (the table's end, or an error).
    @exclusivity(unchecked) private var readAll = false
    /// Rows met so far.
    @exclusivity(unchecked) @usableFromInline var met = 0
    /// An error met when reading ahead, thrown once the entries before it are handed out.
    @exclusivity(unchecked) private var failure: StorageError?
    /// On an encrypted file, the block rows are decrypted into.
    @exclusivity(unchecked) @usableFromInline var decryptionBlock: DecryptedRecords?
    /// On an encrypted file, the block the row handed out last lies in. (A getter rather than
    /// the stored property: read from another module, the property would be checked for
    /// exclusive access at run time on every row.)
    package var block: DecryptedRecords? { decryptionBlock }
    /// `block`, not retained: for a caller that uses it only while this cursor holds it (a
    /// loop handing it to each row's object, which keeps it only when it changes, would
    /// otherwise count a reference up and down for every row).
    @inlinable
    package var unretainedBlock: Unmanaged<DecryptedRecords>? {
        guard let block = decryptionBlock else { return nil }
        return Unmanaged.passUnretained(block)
    }
    /// On an encrypted file, the entries below this one are decrypted (in runs: one call and
    /// one lock per run of entries, not per row), their rows back to back in `block`, the
    /// next handed out at `decryptedRow`.
    @exclusivity(unchecked) @usableFromInline var decryptedEnd = 0
    @exclusivity(unchecked) @usableFromInline var decryptedRow: UnsafeMutableRawPointer?
    /// Whether the rows are decrypted (the file is encrypted): only then is there a `block`.
    @usableFromInline package let decrypts: Bool
    /// The bytes sealing adds to an encrypted row (`RecordCipher.overhead`).
    @usableFromInline let sealedOverhead = RecordCipher.overhead
    /// Whether rows are decrypted into the transaction's memory rather than `block`.
    private let keepsRows: Bool
    /// The rows' seal: its seed, and whether a row must have one (`RowView(stored:)`), kept
    /// here so that a plain file's row is checked as `RowStore.view` checks it without
    /// reading them from the table and transaction again for every row.
    @usableFromInline let seed: UInt32
    @usableFromInline let sealRequired: Bool

    init(_ table: Table, transaction: StorageTransaction, keepsRows: Bool) {
        self.table = table
        self.transaction = transaction
        decrypts = transaction.crypto != nil
        self.keepsRows = keepsRows
        seed = table.rowSeed
        sealRequired = transaction.seals
    }

    /// The next object's key and row, or nil after the last. A row already read ahead (on an
    /// encrypted file, already decrypted with the rest of its run) is handed out here,
    /// inlined into the caller so that the pair comes back in registers (returned through
    /// memory, its copy stalled on the stores that wrote it); everything else (reading ahead,
    /// decrypting, a damaged entry, met again there) is `nextFromAnyEntry`'s.
    @inlinable @inline(__always)
    package func next() throws(StorageError) -> (ObjectKey, RowView)? {
        if position < available, let floor = least {
            let k = entries.key(position), v = entries.value(position)
            if k.count == 8 {
                let key = ObjectKey(bigEndian: k.loadUnaligned(as: UInt64.self))
                if key >= floor, let row = decrypts ? decryptedView(v) : RowView(stored: v, seed, key: k, sealRequired: sealRequired) {
                    position += 1
                    least = key == .max ? nil : key + 1
                    met += 1
                    return (key, row)
                }
            }
        }
        return try nextFromAnyEntry()
    }

    /// The row of the entry at `position`, stored as `stored`, when its run is decrypted
    /// already (the next row in `block`); nil otherwise, or when it is not a well-formed row
    /// (`nextFromAnyEntry` decrypts the run, or throws for it).
    @inlinable @inline(__always)
    func decryptedView(_ stored: UnsafeRawBufferPointer) -> RowView? {
        guard position < decryptedEnd, let start = decryptedRow else { return nil }
        let count = stored.count - sealedOverhead
        guard let row = RowView(UnsafeRawBufferPointer(start: start, count: count)) else { return nil }
        decryptedRow = start + count
        return row
    }

    /// `next()` for any entry: reads ahead when none is left, decrypts, and throws for a
    /// damaged one.
    @usableFromInline
    func nextFromAnyEntry() throws(StorageError) -> (ObjectKey, RowView)? {
        if position == available {
            guard failure == nil, readAhead() else {
                guard let failure else { return nil }
                self.failure = nil
                throw failure
            }
        }
        let k = entries.key(position), v = entries.value(position)
        position += 1
        guard k.count == 8 else { throw transaction.rows.damaged(table, 0) }
        let key = ObjectKey(bigEndian: k.loadUnaligned(as: UInt64.self))
        // Keys out of order: the walk went through a damaged branch page.
        guard let floor = least, key >= floor else { throw transaction.rows.damaged(table, key) }
        least = key == .max ? nil : key + 1
        met += 1
        if decrypts { return (key, try decrypted(position - 1, key, v)) }
        guard let row = RowView(stored: v, seed, key: k, sealRequired: sealRequired) else { throw transaction.rows.damaged(table, key) }
        return (key, row)
    }

    /// Reads the entries from `least` on; false when there are none (the table's end, or an
    /// error, kept in `failure`).
    private func readAhead() -> Bool {
        position = 0
        available = 0
        decryptedEnd = 0
        guard !readAll, var start = least.map(ObjectKeyCoding.encode) else { return false }
        let table = self.table, transaction = self.transaction, entries = self.entries
        do {
            try StorageError.translating("Scanning '\(table.name)'") {
                try transaction.lmdb.withCursor(table.rows) { cursor in
                    withUnsafeBytes(of: &start) { cursor.read(from: $0, into: entries) }
                }
                if let error = entries.failure { throw error }
            }
            if entries.reachedEnd {
                readAll = true
                try checkCount(met + entries.count)
            }
        } catch {
            readAll = true
            failure = error
        }
        available = entries.count
        return available > 0
    }

    /// The row of entry `index`, stored as `stored` under `key` on an encrypted file: decrypted
    /// into `block` with the entries after it, when the walk reaches it.
    private func decrypted(_ index: Int, _ key: ObjectKey, _ stored: UnsafeRawBufferPointer) throws(StorageError) -> RowView {
        if index == decryptedEnd { try decryptRun(from: index, key, stored) }
        let bytes = UnsafeRawBufferPointer(start: decryptedRow, count: stored.count - RecordCipher.overhead)
        decryptedRow = decryptedRow! + bytes.count
        guard let row = RowView(bytes) else { throw transaction.rows.damaged(table, key) }
        return row
    }

    /// Decrypts the entries from `index` (`first` stored under `key`) to the last read ahead
    /// into `block` (the transaction's blocks when the cursor `keepsRows`), as many as fit (a
    /// new block when the first does not); throws when the first does not authenticate.
    private func decryptRun(from index: Int, _ key: ObjectKey, _ first: UnsafeRawBufferPointer) throws(StorageError) {
        let crypto = transaction.crypto!, run = entries.run(from: index), count = available - index
        let (opened, start): (Int, UnsafeMutableRawPointer)
        if keepsRows {
            (opened, start) = crypto.open(table.rowsName, run: run, count: count, first: first)
        } else {
            if decryptionBlock.map({ !$0.hasRoom(forSealed: first) }) ?? true { takeBlock(first.count) }
            (opened, start) = crypto.open(table.rowsName, run: run, count: count, into: decryptionBlock!)
        }
        guard opened > 0 else { throw transaction.rows.damaged(table, key) }
        decryptedEnd = index + opened
        decryptedRow = start
    }

    /// Makes `block` an empty block of at least `capacity` bytes: the current one when nothing
    /// else holds it and it is large enough, a new one otherwise.
    private func takeBlock(_ capacity: Int) {
        if isKnownUniquelyReferenced(&decryptionBlock), decryptionBlock!.capacity >= capacity {
            decryptionBlock!.used = 0
        } else {
            decryptionBlock = DecryptedRecords(capacity: max(RecordCrypto.blockSize, capacity))
        }
    }

    /// At the table's end of a walk in a read transaction: throws unless the walk met as many
    /// rows (`walked`) as the table counts.
    private func checkCount(_ walked: Int) throws(StorageError) {
        guard !transaction.isWrite else { return }
        let counted = try StorageError.translating("Counting '\(table.name)'") { try transaction.lmdb.count(table.rows) }
        guard counted != walked else { return }
        let path = transaction.file.path
        throw StorageError(.invalidDatabase, "'\(path)' is damaged: a walk over '\(table.name)' meets \(walked) objects, but the table counts \(counted); run `strata check \(path)`")
    }
}
