/// Swift strings made from stored UTF-8 bytes.
///
/// Most stored strings are short and ASCII (names, codes, identifiers). Swift keeps a string
/// of at most 15 UTF-8 bytes inline, in its two words: the bytes, then in the last byte its
/// flags (`smallASCIIFlags`) and count. `String(decoding:as:)` builds such a string a byte at
/// a time after checking the bytes (about 150 instructions for a 12-byte name); a short ASCII
/// string is built here from one copy and one check instead, the same bits the standard
/// library produces (`StoredStringTests` compares them for every length, 0 through 15).
@usableFromInline
package enum StoredString {
    /// The string of the UTF-8 `bytes` (invalid sequences read as U+FFFD, as
    /// `String(decoding:as:)` reads them).
    @inlinable @inline(__always)
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        if bytes.count <= 15, let string = smallASCII(bytes) { return string }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The high bits of the last byte of an inline ASCII string on a 64-bit little-endian
    /// platform (the standard library's `_StringObject`: immortal, small, ASCII).
    @usableFromInline
    static let smallASCIIFlags: UInt64 = 0xE0

    /// The string of `bytes` (at most 15) built inline, or nil when one is not ASCII (or the
    /// platform is not one whose layout is known: 64-bit, little endian).
    @inlinable @inline(__always)
    package static func smallASCII(_ bytes: UnsafeRawBufferPointer) -> String? {
        #if _pointerBitWidth(_64) && _endian(little)
        guard let words = asciiWords(bytes) else { return nil }
        return unsafeBitCast((words.0, words.1 | (smallASCIIFlags | UInt64(bytes.count)) << 56), to: String.self)
        #else
        return nil
        #endif
    }

    /// `bytes` (at most 15) laid out in two words as in memory, zero after them, or nil when
    /// one is not ASCII.
    @inlinable @inline(__always)
    static func asciiWords(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64)? {
        let words = packed(bytes)
        guard (words.0 | words.1) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return words
    }

    /// `bytes` (at most 15) in two words as in memory, zero after them, read with at most two
    /// loads whose ranges overlap in the middle, each within `bytes`: no copy through memory,
    /// whose narrow stores a wide load could not be forwarded from.
    @inlinable @inline(__always)
    static func packed(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let count = bytes.count
        guard count > 0 else { return (0, 0) }
        let base = bytes.baseAddress.unsafelyUnwrapped
        if count >= 8 {
            // Bytes [count - 8, count) end the second word: shifted down past those already in
            // the first (a shift of 64, when count is 8, leaves nothing).
            let tail = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return (base.loadUnaligned(as: UInt64.self), tail >> (8 * (16 - count)))
        }
        if count >= 4 {
            let head = UInt64(base.loadUnaligned(as: UInt32.self))
            let tail = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return (head | tail << (8 * (count - 4)), 0)
        }
        let first = UInt64(base.load(as: UInt8.self))
        let middle = UInt64(base.load(fromByteOffset: count / 2, as: UInt8.self))
        let last = UInt64(base.load(fromByteOffset: count - 1, as: UInt8.self))
        return (first | middle << (8 * (count / 2)) | last << (8 * (count - 1)), 0)
    }
}
