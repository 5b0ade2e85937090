import Foundation

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
/// Decrypted records live in blocks (`DecryptedRecords`) that every view of them retains, so
/// a row handed out stays valid for as long as it is held, as a row in the memory map does.
/// The first read allocates a block; when the current block is full, it is reused if no view
/// holds it any more, and a new one is allocated otherwise (the old one lives on while its
/// views do). Reads and writes take a lock: a frozen snapshot's transaction is read from
/// several threads.
package final class RecordCrypto {
    private let encryption: FileEncryption
    private let cipher: RecordCipher
    private let lock = NSLock()
    /// The block reads decrypt into (none before the first read: a transaction that only
    /// writes never needs one).
    private var block: DecryptedRecords?
    /// Bytes of a block: many rows and list chunks per allocation.
    private static let blockSize = 64 << 10

    init(_ encryption: FileEncryption) throws(StorageError) {
        self.encryption = encryption
        cipher = try encryption.borrow()
    }

    deinit { encryption.giveBack(cipher) }

    /// `plain` sealed for `key` in the database of `name` (`RecordCipher.name`).
    func seal(_ name: [UInt8], key: UnsafeRawBufferPointer, _ plain: UnsafeRawBufferPointer) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return cipher.seal(name, key: key, plain)
    }

    /// The plaintext of `stored`, sealed for `key` in the database of `name`, and the block
    /// holding it (keep it while the bytes are used); nil when it does not authenticate.
    func open(_ name: [UInt8], key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer) -> (UnsafeRawBufferPointer, DecryptedRecords)? {
        let count = stored.count - RecordCipher.overhead
        guard count >= 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        // No local reference to the block is held while its uniqueness is asked.
        if block.map({ $0.used + count > $0.capacity }) == true {
            if count <= block!.capacity && isKnownUniquelyReferenced(&block) {
                block!.used = 0
            } else {
                block = nil
            }
        }
        let current = block ?? DecryptedRecords(capacity: max(Self.blockSize, count))
        block = current
        let out = current.base + current.used
        guard cipher.open(name, key: key, stored, into: out) else { return nil }
        current.used += count
        return (UnsafeRawBufferPointer(start: out, count: count), current)
    }

    /// Bytes of an index key on an encrypted file: the first half of the keyed hash.
    static let indexKeyLength = 16

    /// The index key of an encrypted file for the plain index key `plain` in the index
    /// database of `name` (`RecordCipher.name`): the first 16 bytes of
    /// HMAC-SHA-256(name ‖ plain). Equal values share a key; nothing else about them shows.
    func indexKey(_ name: [UInt8], _ plain: [UInt8]) -> [UInt8] {
        lock.lock()
        let hash = name.withUnsafeBytes { n in plain.withUnsafeBytes { cipher.hash(n, $0, UnsafeRawBufferPointer(start: nil, count: 0)) } }
        lock.unlock()
        return withUnsafeBytes(of: hash) { Array($0.prefix(Self.indexKeyLength)) }
    }
}

/// One block of decrypted records (see `RecordCrypto`): freed when no view holds it.
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
}
