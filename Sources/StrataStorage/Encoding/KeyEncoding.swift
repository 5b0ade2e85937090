import Foundation
import LMDB
import StrataValues

/// The one place where index keys and object keys are built (docs/FILE-FORMAT.md, "Keys").
///
/// Index keys sort in value order under LMDB's byte-wise comparison, so ranges and prefixes
/// scan in order: a tag byte (0 null, 1 value), then integers as 8 bytes big endian with the
/// sign bit flipped, floats/doubles/dates as order-preserving 8-byte doubles, strings as UTF-8,
/// data raw, UUIDs as 16 bytes, ObjectIds as their 12 bytes, bools as 1 byte, decimal128s as
/// `BID128.appendOrderedKey` (equal values of different exponents share one key). Keys longer
/// than LMDB's limit are truncated;
/// lookups through such keys re-check the row (`IndexKey.isExact`).
package enum IndexKey {
    /// The largest index key: LMDB's default maximum key size.
    package static let maxLength = 511

    /// Builds the index key of `value`.
    package static func encode(_ value: Value) -> [UInt8] {
        // A string's key is laid out in one place, `withKey`.
        if case .string = value { return withKey(value) { Array($0) } }
        var out: [UInt8] = []
        switch value {
        case .data(let d): out.reserveCapacity(1 + min(d.count, maxLength - 1))
        default: out.reserveCapacity(17)
        }
        out.append(value.isNull ? 0 : 1)
        switch value {
        case .null: break
        case .bool(let b): out.append(b ? 1 : 0)
        case .int(let v): appendBigEndian(UInt64(bitPattern: v) ^ (1 << 63), to: &out)
        case .float(let f): appendOrderedDouble(Double(f), to: &out)
        case .double(let d): appendOrderedDouble(d, to: &out)
        case .date(let d): appendOrderedDouble(d.timeIntervalSinceReferenceDate, to: &out)
        case .string: preconditionFailure("strings are encoded by withKey")
        case .data(let d): out.append(contentsOf: d.prefix(maxLength - 1))
        case .uuid(let u): withUnsafeBytes(of: u.uuid) { out.append(bytes: $0) }
        case .link(let k): appendBigEndian(k, to: &out)
        case .typedLink(let name, let k):
            out.append(contentsOf: name.utf8)
            out.append(0)
            appendBigEndian(k, to: &out)
        case .objectId(let id): id.withBytes { out.append(bytes: $0) }
        case .decimal128(let d): d.appendOrderedKey(to: &out)
        }
        return out
    }

    /// Calls `body` with the index key of `value`: `encode(value)`'s bytes, built on the stack
    /// for a string (a lookup by name then allocates no key): the tag 1, then at most the
    /// first `maxLength - 1` bytes of its UTF-8.
    package static func withKey<R>(_ value: Value, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard case .string(var s) = value else { return try encode(value).withUnsafeBytes(body) }
        return try s.withUTF8 { utf8 in
            let n = min(utf8.count, maxLength - 1)
            return try withUnsafeTemporaryAllocation(byteCount: n + 1, alignment: 1) { key in
                key[0] = 1
                if n > 0 { (key.baseAddress! + 1).copyMemory(from: utf8.baseAddress!, byteCount: n) }
                return try body(UnsafeRawBufferPointer(key))
            }
        }
    }

    /// Whether the index key of `value` holds the whole value (false when it was truncated),
    /// so that an equality match on the key is an equality match on the value.
    package static func isExact(_ value: Value) -> Bool {
        switch value {
        case .string(let s): return s.utf8.count < maxLength
        case .data(let d): return d.count < maxLength
        default: return true
        }
    }

    @inline(__always)
    package static func appendBigEndian(_ v: UInt64, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.bigEndian) { out.append(bytes: $0) }
    }

    private static func appendOrderedDouble(_ d: Double, to out: inout [UInt8]) {
        let d = d == 0 ? 0 : d  // -0.0 sorts with 0.0
        let bits = d.bitPattern
        appendBigEndian(bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63), to: &out)
    }
}

/// Object keys as stored: 8 bytes big endian, so that table order is key order.
@usableFromInline
package enum ObjectKeyCoding {
    /// The stored form of `key`.
    @inlinable @inline(__always)
    package static func encode(_ key: ObjectKey) -> UInt64 { key.bigEndian }

    /// Reads the stored object key `bytes` begin with (a backlink's value may go on with a
    /// count); fewer than 8 bytes are damage (`LMDBError.corrupted`).
    @inline(__always)
    package static func decode(_ bytes: UnsafeRawBufferPointer) throws(LMDBError) -> ObjectKey {
        guard bytes.count >= 8 else { throw .corrupted }
        return UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
    }

    /// The object key of an object whose integer primary key is `pk`: the key order is the
    /// primary-key order, and a primary-key lookup is a direct table lookup.
    @inlinable @inline(__always)
    package static func key(forIntegerPrimaryKey pk: Int64) -> ObjectKey {
        UInt64(bitPattern: pk) ^ (1 << 63)
    }
}
