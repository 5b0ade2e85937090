import Foundation
import CStrataCrypto

/// The key of an encrypted file: 64 bytes, RealmSwift's size. Bytes 0..<32 are the AES-256-GCM
/// key of the records, bytes 32..<64 the HMAC-SHA-256 key of index keys and of the key check
/// (docs/ENCRYPTION.md).
package struct EncryptionKey: Sendable, Equatable {
    /// The 64 bytes.
    package let bytes: [UInt8]

    /// The key of `bytes`; throws `.invalidInput` unless there are exactly 64.
    package init(_ bytes: [UInt8]) throws(StorageError) {
        guard bytes.count == 64 else {
            throw StorageError(.invalidInput, "Encryption key must be exactly 64 bytes long (this one has \(bytes.count))")
        }
        self.bytes = bytes
    }

    /// The key of `data` (a configuration's `encryptionKey`), nil for none; throws
    /// `.invalidInput` unless it has exactly 64 bytes.
    package init?(_ data: Data?) throws(StorageError) {
        guard let data else { return nil }
        try self.init([UInt8](data))
    }
}

/// AES-256-GCM seals of records and HMAC-SHA-256 hashes for one key: libcrypto contexts with
/// the key schedule set once (`CStrataCrypto`). Used by one thread at a time.
///
/// A sealed record is `nonce (12) ‖ ciphertext ‖ tag (16)`, authenticated with the additional
/// data `name ‖ key`: the record's database (as `RecordCipher.name`) and LMDB key, so that a
/// record moved to another key or database fails to open.
final class RecordCipher {
    private let handle: OpaquePointer

    /// Bytes a sealed record adds to its plaintext.
    static let overhead = Int(STRATA_NONCE_BYTES + STRATA_TAG_BYTES)

    init(_ key: EncryptionKey) throws(StorageError) {
        guard let handle = key.bytes.withUnsafeBufferPointer({ strata_cipher_new($0.baseAddress) }) else {
            throw StorageError(.fail, "The encryption contexts could not be set up (libcrypto or getrandom failed)")
        }
        self.handle = handle
    }

    deinit { strata_cipher_free(handle) }

    /// The additional-data prefix of database `name`: its length (2 bytes LE), then its UTF-8.
    static func name(_ name: String) -> [UInt8] {
        let utf8 = Array(name.utf8)
        return [UInt8(truncatingIfNeeded: utf8.count), UInt8(truncatingIfNeeded: utf8.count >> 8)] + utf8
    }

    /// `plain` sealed for `key` in the database of `name` (`RecordCipher.name`).
    func seal(_ name: [UInt8], key: UnsafeRawBufferPointer, _ plain: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: plain.count + Self.overhead) { out, count in
            let rc = name.withUnsafeBytes { n in
                strata_cipher_seal(handle, n.baseAddress, n.count, key.baseAddress, key.count, plain.baseAddress, plain.count, out.baseAddress)
            }
            // libcrypto fails only when out of memory or misbuilt: there is no record to write.
            precondition(rc == 0, "AES-256-GCM sealing failed in libcrypto")
            count = plain.count + Self.overhead
        }
    }

    /// Opens `sealed`, stored under `key` in the database of `name`, writing its plaintext
    /// (`sealed.count - overhead` bytes) to `out`. False when it does not authenticate: damaged,
    /// another key, or moved from another record.
    func open(_ name: [UInt8], key: UnsafeRawBufferPointer, _ sealed: UnsafeRawBufferPointer, into out: UnsafeMutableRawPointer) -> Bool {
        name.withUnsafeBytes { n in
            strata_cipher_open(handle, n.baseAddress, n.count, key.baseAddress, key.count, sealed.baseAddress, sealed.count, out) == 0
        }
    }

    /// Opens the sealed records of a cursor's entries `run` (`count` of them, stored in the
    /// database of `name` under their keys, `CursorEntries.run(from:)`) into `out`, back to
    /// back, as many as fit in `capacity` bytes; stops at the first that does not
    /// authenticate. Returns how many opened and the bytes their plaintexts take.
    func open(_ name: [UInt8], run: (keys: UnsafeRawPointer, values: UnsafeRawPointer), count: Int,
              into out: UnsafeMutableRawPointer, capacity: Int) -> (opened: Int, written: Int) {
        // The entries are LMDB's `MDB_val`s, laid out as `strata_span`s.
        assert(MemoryLayout<strata_span>.size == 16 && MemoryLayout<strata_span>.offset(of: \strata_span.bytes) == 8)
        var written = 0
        let opened = name.withUnsafeBytes { n in
            strata_cipher_open_run(handle, n.baseAddress, n.count, run.keys.assumingMemoryBound(to: strata_span.self),
                                   run.values.assumingMemoryBound(to: strata_span.self), count, out, capacity, &written)
        }
        return (opened, written)
    }

    /// The HMAC-SHA-256 of `a ‖ b ‖ c` with the key's second half.
    func hash(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ c: UnsafeRawBufferPointer) -> SIMD32<UInt8> {
        var out = SIMD32<UInt8>()
        let rc = withUnsafeMutableBytes(of: &out) { o in
            strata_cipher_hash(handle, a.baseAddress, a.count, b.baseAddress, b.count, c.baseAddress, c.count, o.baseAddress)
        }
        precondition(rc == 0, "HMAC-SHA-256 failed in libcrypto")
        return out
    }
}
