import CStrataChecksum

/// The checksums that seal stored records (docs/FILE-FORMAT.md, "Checksums"). A sealed
/// record ends with the CRC32C, 4 bytes little endian, of its LMDB key followed by every byte
/// of the value before those 4: a damaged value, or a value found under another key, fails.
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

    /// The CRC32C of `bytes` computed with the table alone, as a processor without SSE4.2 does.
    package static func portableCRC32C(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        strata_crc32c_portable(0, bytes.baseAddress, bytes.count)
    }

    /// The seal of `body` stored under `key`.
    @inline(__always)
    static func seal(key: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer) -> UInt32 {
        strata_seal_crc(key.baseAddress, key.count, body.baseAddress, body.count)
    }

    /// `sealed` without its last 4 bytes, if they are the seal of the rest under `key`;
    /// nil otherwise (shorter than a seal, or damaged).
    @usableFromInline
    static func verified(_ sealed: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard sealed.count >= 4 else { return nil }
        let body = UnsafeRawBufferPointer(start: sealed.baseAddress, count: sealed.count - 4)
        let stored = UInt32(littleEndian: sealed.loadUnaligned(fromByteOffset: sealed.count - 4, as: UInt32.self))
        return seal(key: key, body) == stored ? body : nil
    }

    /// Appends the seal of `record` (everything in it so far) under `key`.
    static func appendSeal(to record: inout [UInt8], key: UnsafeRawBufferPointer) {
        let crc = record.withUnsafeBytes { seal(key: key, $0) }
        withUnsafeBytes(of: crc.littleEndian) { record.append(contentsOf: $0) }
    }

    /// `body` as a sealed record under `key`: the marker, the body, the seal.
    static func sealed(_ body: [UInt8], key: UnsafeRawBufferPointer) -> [UInt8] {
        var record = marker
        record.reserveCapacity(body.count + 6)
        record.append(contentsOf: body)
        appendSeal(to: &record, key: key)
        return record
    }

    /// The body of a stored list value or schema: a sealed record's body once its seal is
    /// verified, or an unsealed record as it is where `required` is false (a file of format 2
    /// or earlier). Nil when the record is damaged or must be sealed and is not.
    static func opened(_ stored: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, required: Bool) -> UnsafeRawBufferPointer? {
        guard stored.count >= 2, stored[0] == marker[0], stored[1] == marker[1] else { return required ? nil : stored }
        guard let body = verified(stored, key: key) else { return nil }
        return UnsafeRawBufferPointer(rebasing: body[2...])
    }
}
