/// How long the rows a walk over a table hands its body stay valid on an encrypted file. On
/// a plain file a row lies in the memory map and is valid for the transaction either way.
package enum RowLifetime: Sendable {
    /// Until the transaction ends: the body may keep rows (a top-k of rows).
    case transaction
    /// Until the body returns: the walk decrypts rows into a buffer it reuses (one row's
    /// for a walk over chosen keys, a block of rows' for a walk over the table, `RowCursor`),
    /// so a scan does not hold every row's plaintext until its transaction ends.
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
    @inline(__always)
    mutating func view(_ store: RowStore, _ table: Table, _ key: ObjectKey, _ bytes: UnsafeRawBufferPointer) throws(StorageError) -> RowView {
        var k = ObjectKeyCoding.encode(key)
        return try withUnsafeBytes(of: &k) { k throws(StorageError) in try view(store, table, key, storedKey: k, bytes) }
    }

    /// The row stored as `bytes` under object `key`, stored as `storedKey` (`RowStore.view`).
    @inline(__always)
    mutating func view(_ store: RowStore, _ table: Table, _ key: ObjectKey, storedKey: UnsafeRawBufferPointer,
                       _ bytes: UnsafeRawBufferPointer) throws(StorageError) -> RowView {
        guard reuses else { return try store.view(table, key, storedKey: storedKey, bytes) }
        let count = bytes.count - RecordCipher.overhead
        if buffer.map({ $0.capacity < count }) ?? true { buffer = DecryptedRecords(capacity: max(count, 4 << 10)) }
        let buffer = self.buffer!
        buffer.used = 0
        return try store.view(table, key, bytes, into: buffer)
    }
}
