import CStrataChecksum

/// The checksums that seal stored records (docs/FILE-FORMAT.md, "Checksums"). A sealed
/// record ends with the CRC32C, 4 bytes little endian, of its database's name, its LMDB key
/// and every byte of the value before those 4: a damaged value, or a value found under another
/// key or in another database, fails. The CRC of the name is worked out once per database
/// (its `seed`).
///
/// Rows say they are sealed with flag bit 3, history entries with layout 2, and the other
/// records (list directories, chunks and map keys, the stored schema) by starting with
/// `Checksum.marker`, two bytes no earlier writer put at the start of one.
@usableFromInline
package enum Checksum {
    /// The first two bytes of a sealed list value or schema: a varint 0 in two bytes, which
    /// the minimal varints of earlier layouts never are.
    static let marker: [UInt8] = [0x80, 0x00]

    /// The CRC32C of `bytes`.
    package static func crc32c(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        strata_crc32c(0, bytes.baseAddress, bytes.count)
    }

    /// The seed of the seals of database `name`: the CRC32C of its name.
    static func seed(_ name: String) -> UInt32 {
        var name = name
        return name.withUTF8 { crc32c(UnsafeRawBufferPointer($0)) }
    }

    /// The seal of `body` stored under `key` in the database of `seed`.
    @inlinable @inline(__always)
    static func seal(_ seed: UInt32, key: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer) -> UInt32 {
        strata_seal_crc(seed, key.baseAddress, key.count, body.baseAddress, body.count)
    }

    /// `sealed` without its last 4 bytes, if they are the seal of the rest under `key` in the
    /// database of `seed`; nil otherwise (shorter than a seal, or damaged).
    @inlinable @inline(__always)
    static func verified(_ sealed: UnsafeRawBufferPointer, _ seed: UInt32, key: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard sealed.count >= 4 else { return nil }
        let body = UnsafeRawBufferPointer(start: sealed.baseAddress, count: sealed.count - 4)
        let stored = UInt32(littleEndian: sealed.loadUnaligned(fromByteOffset: sealed.count - 4, as: UInt32.self))
        return seal(seed, key: key, body) == stored ? body : nil
    }

    /// Appends the seal of `record` (everything in it so far) under `key` in the database of
    /// `seed`.
    static func appendSeal(to record: inout [UInt8], _ seed: UInt32, key: UnsafeRawBufferPointer) {
        let crc = record.withUnsafeBytes { seal(seed, key: key, $0) }
        withUnsafeBytes(of: crc.littleEndian) { record.append(bytes: $0) }
    }

    /// `body` as a sealed record under `key` in the database of `seed`: the marker, the body,
    /// the seal.
    static func sealed(_ body: [UInt8], _ seed: UInt32, key: UnsafeRawBufferPointer) -> [UInt8] {
        var record = marker
        record.reserveCapacity(body.count + 6)
        record.append(contentsOf: body)
        appendSeal(to: &record, seed, key: key)
        return record
    }

    /// The seed of the history's seals.
    static let historySeed = seed(MetaKeys.history)
    /// The seed of the stored schema's seal.
    static let metaSeed = seed(MetaKeys.database)

    /// The body of a stored list value or schema: a sealed record's body once its seal is
    /// verified, or an unsealed record as it is where `required` is false (a file of format 2
    /// or earlier). Nil when the record is damaged or must be sealed and is not.
    static func opened(_ stored: UnsafeRawBufferPointer, _ seed: UInt32, key: UnsafeRawBufferPointer, required: Bool) -> UnsafeRawBufferPointer? {
        guard stored.count >= 2, stored[0] == marker[0], stored[1] == marker[1] else { return required ? nil : stored }
        guard let body = verified(stored, seed, key: key) else { return nil }
        return UnsafeRawBufferPointer(rebasing: body[2...])
    }
}
