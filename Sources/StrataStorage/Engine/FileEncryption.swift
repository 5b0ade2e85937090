import Foundation
import Synchronization

/// The encryption of one open file (docs/ENCRYPTION.md): its key, the key check stored in the
/// file, and the ciphers its transactions borrow, each with its own nonce sequence.
package final class FileEncryption: @unchecked Sendable {
    // Sendable invariant: `idle` is only touched under `lock`; the rest is immutable.
    package let key: EncryptionKey
    /// The meta `encryption` value of this key: the scheme byte, then the HMAC-SHA-256 of a
    /// fixed label under the key's second half. A file storing another one has another key.
    let marker: [UInt8]
    private let lock = NSLock()
    private var idle: [RecordCipher] = []

    /// The scheme written in the marker's first byte: AES-256-GCM records, HMAC-SHA-256 index keys.
    static let scheme: UInt8 = 1
    /// The label whose keyed hash is the key check.
    private static let checkLabel = Array("strata key check".utf8)

    init(_ key: EncryptionKey) throws(StorageError) {
        self.key = key
        let cipher = try RecordCipher(key)
        let check = Self.checkLabel.withUnsafeBytes { cipher.hash($0, UnsafeRawBufferPointer(start: nil, count: 0), UnsafeRawBufferPointer(start: nil, count: 0)) }
        marker = [Self.scheme] + withUnsafeBytes(of: check) { Array($0) }
        idle = [cipher]
    }

    /// A cipher for one transaction; give it back with `giveBack`.
    func borrow() throws(StorageError) -> RecordCipher {
        lock.lock()
        let cipher = idle.popLast()
        lock.unlock()
        if let cipher { return cipher }
        return try RecordCipher(key)
    }

    /// Returns a cipher `borrow` handed out (a few are kept for later transactions).
    func giveBack(_ cipher: RecordCipher) {
        lock.lock()
        if idle.count < 8 { idle.append(cipher) }
        lock.unlock()
    }
}

/// The encryption of one transaction: its borrowed cipher, and the memory its reads decrypt
/// into.
///
/// A row read on an encrypted file is decrypted into blocks (`DecryptedRecords`) that live as
/// long as the transaction: a `RowView` stays valid for the transaction's life, as a row in
/// the memory map does, and holds no reference to keep it so (a row view is a plain value,
/// copied with no reference counting). Reads whose bytes are used only inside one call
/// (`withOpened`: list chunks, history entries, the schema) decrypt into temporary memory
/// instead, and a cursor handing rows to objects decrypts into blocks of its own, which those
/// objects keep (`open(_:run:count:into:)`, a run of its entries at a time). Reads and writes
/// take a lock: a frozen snapshot's transaction is read from several threads. It is a `Mutex`
/// (an atomic compare-and-swap when no other thread holds it), taken once per record or run.
package final class RecordCrypto {
    private let encryption: FileEncryption
    private let cipher: RecordCipher
    private let lock = Mutex(())
    /// The blocks rows are decrypted into, the last one filling (none before the first read: a
    /// transaction that only writes never needs one). Kept until the transaction ends.
    private var blocks: [DecryptedRecords] = []
    /// Bytes of a block: many rows per allocation.
    static let blockSize = 64 << 10

    init(_ encryption: FileEncryption) throws(StorageError) {
        self.encryption = encryption
        cipher = try encryption.borrow()
    }

    deinit { encryption.giveBack(cipher) }

    /// `plain` sealed for `key` in the database of `name` (`RecordCipher.name`).
    func seal(_ name: [UInt8], key: UnsafeRawBufferPointer, _ plain: UnsafeRawBufferPointer) -> [UInt8] {
        lock.withLock { _ in cipher.seal(name, key: key, plain) }
    }

    /// The plaintext of `stored`, sealed for `key` in the database of `name`, valid until the
    /// transaction ends; nil when it does not authenticate.
    func open(_ name: [UInt8], key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let count = stored.count - RecordCipher.overhead
        guard count >= 0 else { return nil }
        return lock.withLock { _ in open(name, key: key, stored, count: count, appendingTo: transactionBlock(room: count)) }
    }

    /// The plaintext of `stored` decrypted into `block`, valid while the block is held; nil
    /// when it does not authenticate. The block must have room (`DecryptedRecords.hasRoom`).
    func open(_ name: [UInt8], key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer,
              into block: DecryptedRecords) -> UnsafeRawBufferPointer? {
        let count = stored.count - RecordCipher.overhead
        guard count >= 0 else { return nil }
        precondition(block.hasRoom(count), "a decrypted-records block has no room for the record")
        return lock.withLock { _ in open(name, key: key, stored, count: count, appendingTo: block) }
    }

    /// Decrypts the sealed rows of a cursor's entries `run` (`count` of them, in the database of
    /// `name`) at the end of `block`, back to back, as many as fit; stops at the first that
    /// does not authenticate. Returns how many it decrypted, from where.
    func open(_ name: [UInt8], run: (keys: UnsafeRawPointer, values: UnsafeRawPointer), count: Int,
              into block: DecryptedRecords) -> (opened: Int, start: UnsafeMutableRawPointer) {
        lock.withLock { _ in open(name, run: run, count: count, appendingTo: block) }
    }

    /// `open(_:run:count:into:)` into the transaction's blocks, whose rows stay valid until the
    /// transaction ends (a new block when the run's first record, sealed as `first`, does not
    /// fit in the last).
    func open(_ name: [UInt8], run: (keys: UnsafeRawPointer, values: UnsafeRawPointer), count: Int,
              first: UnsafeRawBufferPointer) -> (opened: Int, start: UnsafeMutableRawPointer) {
        lock.withLock { _ in
            open(name, run: run, count: count, appendingTo: transactionBlock(room: first.count - RecordCipher.overhead))
        }
    }

    /// The transaction's last block, or a new one when it has no room for `count` bytes;
    /// `lock` is held.
    private func transactionBlock(room count: Int) -> DecryptedRecords {
        if let last = blocks.last, last.hasRoom(count) { return last }
        blocks.append(DecryptedRecords(capacity: max(Self.blockSize, count)))
        return blocks[blocks.count - 1]
    }

    /// Decrypts the run at the end of `block`; `lock` is held.
    private func open(_ name: [UInt8], run: (keys: UnsafeRawPointer, values: UnsafeRawPointer), count: Int,
                      appendingTo block: DecryptedRecords) -> (opened: Int, start: UnsafeMutableRawPointer) {
        let start = block.base + block.used
        let (opened, written) = cipher.open(name, run: run, count: count, into: start, capacity: block.capacity - block.used)
        block.used += written
        return (opened, start)
    }

    /// Calls `body` with the plaintext of `stored` (nil when it does not authenticate), held in
    /// temporary memory that is gone when `body` returns.
    func withOpened<T, E: Error>(_ name: [UInt8], key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer,
                                 _ body: (UnsafeRawBufferPointer?) throws(E) -> T) throws(E) -> T {
        let count = stored.count - RecordCipher.overhead
        guard count >= 0 else { return try body(nil) }
        let result: Result<T, E> = withUnsafeTemporaryAllocation(byteCount: max(count, 1), alignment: 16) { out in
            let opened = lock.withLock { _ in cipher.open(name, key: key, stored, into: out.baseAddress!) }
            do throws(E) { return .success(try body(opened ? UnsafeRawBufferPointer(start: out.baseAddress, count: count) : nil)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Decrypts `stored` (`count` bytes of plaintext) at the end of `block`; `lock` is held.
    private func open(_ name: [UInt8], key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer, count: Int,
                      appendingTo block: DecryptedRecords) -> UnsafeRawBufferPointer? {
        let out = block.base + block.used
        guard cipher.open(name, key: key, stored, into: out) else { return nil }
        block.used += count
        return UnsafeRawBufferPointer(start: out, count: count)
    }

    /// Bytes of an index key on an encrypted file: the first half of the keyed hash.
    static let indexKeyLength = 16

    /// The index key of an encrypted file for the plain index key `plain` in the index
    /// database of `name` (`RecordCipher.name`): the first 16 bytes of
    /// HMAC-SHA-256(name ‖ plain). Equal values share a key; nothing else about them shows.
    func indexKey(_ name: [UInt8], _ plain: [UInt8]) -> [UInt8] {
        let hash = lock.withLock { _ in
            name.withUnsafeBytes { n in plain.withUnsafeBytes { cipher.hash(n, $0, UnsafeRawBufferPointer(start: nil, count: 0)) } }
        }
        return withUnsafeBytes(of: hash) { Array($0.prefix(Self.indexKeyLength)) }
    }
}

/// One block of decrypted records (see `RecordCrypto`): the transaction's, or a cursor's
/// that the objects given its rows keep (`RowCursor`).
@usableFromInline
package final class DecryptedRecords {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    var used = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// Whether `count` more bytes fit.
    func hasRoom(_ count: Int) -> Bool { used + count <= capacity }

    /// Whether the plaintext of the sealed record `stored` fits.
    func hasRoom(forSealed stored: UnsafeRawBufferPointer) -> Bool { hasRoom(stored.count - RecordCipher.overhead) }
}
