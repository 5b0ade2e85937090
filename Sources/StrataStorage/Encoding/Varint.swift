/// Unsigned LEB128 varints, used by the row header and the history records.
@usableFromInline
package enum Varint {
    /// Appends `value` as a varint.
    @inline(__always)
    package static func append(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Reads a varint at `offset`, advancing it. Returns nil if the bytes end first or the
    /// varint is longer than 10 bytes (a damaged record).
    @inlinable @inline(__always)
    package static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 70 {
            let b = bytes[offset]
            offset += 1
            result |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return result }
            shift += 7
        }
        return nil
    }
}
