import LMDB

/// Rows of one table in key order (see `RowStore.scan`), read in batches: each
/// batch is one LMDB cursor walk that ends before `next` returns, so no cursor outlives the
/// call that opened it, whatever becomes of the transaction afterwards.
///
/// On an encrypted file a batch's rows are decrypted into one block (`block`), which the next
/// batch reuses unless someone holds it: a row handed out stays valid until the cursor reads
/// its next batch, or for as long as its batch's block is held (an object given the row holds
/// it). On a plain file rows lie in the memory map and `block` is nil.
///
/// In a read transaction, a walk that reaches the table's end having met a different number
/// of rows than the table counts (`mdb_stat`, which reads no page of the table) ends with a
/// damage error rather than with fewer objects: a damaged branch page hid rows or led the
/// walk into another table's. A write transaction may change the table between batches, so
/// its walks are not compared.
package final class RowCursor {
    private let table: Table
    private let transaction: StorageTransaction
    /// The rows read ahead, and how many of them `next` has handed out.
    @exclusivity(unchecked) private var batch: ContiguousArray<(ObjectKey, RowView)> = []
    @exclusivity(unchecked) private var position = 0
    /// Where the next batch starts; nil once the table's end is reached.
    @exclusivity(unchecked) private var resume: ObjectKey? = 0
    /// Rows met so far.
    @exclusivity(unchecked) private var met = 0
    /// An error met while reading ahead, thrown when `next` reaches it.
    @exclusivity(unchecked) private var failure: StorageError?
    /// On an encrypted file, the block the rows of the current batch are decrypted into.
    @exclusivity(unchecked) package private(set) var block: DecryptedRecords?
    /// Whether the rows are decrypted (the file is encrypted): only then is there a `block`.
    package let decrypts: Bool
    /// Rows per batch: enough that the cursor open and seek of a batch cost little per row.
    private static let batchSize = 128

    init(_ table: Table, transaction: StorageTransaction) {
        self.table = table
        self.transaction = transaction
        decrypts = transaction.crypto != nil
        batch.reserveCapacity(Self.batchSize)
    }

    /// The next object's key and row, or nil after the last.
    package func next() throws(StorageError) -> (ObjectKey, RowView)? {
        if position == batch.count {
            if failure == nil { readBatch() }
            if position == batch.count {
                guard let failure else { return nil }
                self.failure = nil
                throw failure
            }
        }
        defer { position += 1 }
        return batch[position]
    }

    /// Reads the rows from `resume` on, up to `batchSize`; an error ends the batch early and
    /// is kept in `failure`.
    private func readBatch() {
        batch.removeAll(keepingCapacity: true)
        position = 0
        guard let start = resume else { return }
        resume = nil
        let table = self.table, transaction = self.transaction
        if decrypts { takeBlock(RecordCrypto.blockSize) }
        do {
            try StorageError.translating("Scanning '\(table.name)'") {
                try transaction.lmdb.withCursor(table.rows) { cursor in
                    var first = ObjectKeyCoding.encode(start)
                    let reachedEnd = try withUnsafeBytes(of: &first) { from in
                        try cursor.scan(from: from) { k, v in
                            guard k.count == 8 else { throw transaction.rows.damaged(table, 0) }
                            let key = try ObjectKeyCoding.decode(k)
                            // Keys out of order: the walk went through a damaged branch page.
                            if key < start || batch.last.map({ key <= $0.0 }) == true { throw transaction.rows.damaged(table, key) }
                            // `decrypts` first: a plain file's walk touches no reference here.
                            if decrypts, !block!.hasRoom(forSealed: v) {
                                // The next batch starts at this row, in a block with room for it.
                                if !batch.isEmpty {
                                    resume = key
                                    return false
                                }
                                takeBlock(v.count)
                            }
                            let row = decrypts ? try transaction.rows.view(table, key, v, into: block!) : try transaction.rows.view(table, key, v)
                            batch.append((key, row))
                            met += 1
                            guard batch.count < Self.batchSize else {
                                resume = key == .max ? nil : key + 1
                                return false
                            }
                            return true
                        }
                    }
                    if reachedEnd { try checkCount() }
                }
            }
        } catch {
            failure = error
        }
    }

    /// Makes `block` an empty block of at least `capacity` bytes: the current one when nothing
    /// else holds it and it is large enough, a new one otherwise.
    private func takeBlock(_ capacity: Int) {
        if isKnownUniquelyReferenced(&block), block!.capacity >= capacity {
            block!.used = 0
        } else {
            block = DecryptedRecords(capacity: max(RecordCrypto.blockSize, capacity))
        }
    }

    /// At the table's end of a walk in a read transaction: throws unless the walk met as many
    /// rows as the table counts.
    private func checkCount() throws(StorageError) {
        guard !transaction.isWrite else { return }
        let counted = try StorageError.translating("Counting '\(table.name)'") { try transaction.lmdb.count(table.rows) }
        guard counted != met else { return }
        let path = transaction.file.path
        throw StorageError(.invalidDatabase, "'\(path)' is damaged: a walk over '\(table.name)' meets \(met) objects, but the table counts \(counted); run `strata check \(path)`")
    }
}
