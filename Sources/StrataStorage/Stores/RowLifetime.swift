/// How long the rows a walk over a table hands its body stay valid on an encrypted file. On
/// a plain file a row lies in the memory map and is valid for the transaction either way.
package enum RowLifetime: Sendable {
    /// Until the transaction ends: the body may keep rows (a top-k of rows).
    case transaction
    /// Until the body returns: the walk decrypts every row into one buffer it reuses, so a
    /// scan holds one row's plaintext rather than every row's until its transaction ends.
    case call
}

/// Where a walk puts the rows it decrypts, as its `RowLifetime` says.
struct RowDecryption {
    private let reuses: Bool
    /// The buffer a `.call` walk reuses, made for the first row and grown for a longer one.
    private var buffer: DecryptedRecords?

    init(_ lifetime: RowLifetime, _ store: RowStore) {
        reuses = lifetime == .call && store.transaction.crypto != nil
    }

    /// The row stored as `bytes` under object `key` (`RowStore.view`).
    mutating func view(_ store: RowStore, _ table: Table, _ key: ObjectKey, _ bytes: UnsafeRawBufferPointer) throws(StorageError) -> RowView {
        guard reuses else { return try store.view(table, key, bytes) }
        let count = bytes.count - RecordCipher.overhead
        if buffer.map({ $0.capacity < count }) ?? true { buffer = DecryptedRecords(capacity: max(count, 4 << 10)) }
        let buffer = self.buffer!
        buffer.used = 0
        return try store.view(table, key, bytes, into: buffer)
    }
}
