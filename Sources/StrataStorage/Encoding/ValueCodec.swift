import Foundation
import StrataValues

/// The one place where a value becomes slot bytes and back (and so where value-level
/// encryption will hook in). Encodings per type (docs/FILE-FORMAT.md, "Values"):
/// bool 1 byte; int minimal little-endian two's complement (0 is empty); float 4 and double
/// 8 bytes little endian; date a double of seconds since 2001-01-01; string UTF-8; data raw;
/// uuid 16 bytes; link the target's object key as a minimal little-endian unsigned integer;
/// objectId its 12 bytes in order; decimal128 its 16-byte BID encoding little endian (the low
/// 64 bits first, as Realm). A mixed slot is the value's stored type code, then its bytes; a
/// mixed slot's link (`typedLink`) is the target's key as 8 bytes little endian, then the
/// target class's name in UTF-8.
@usableFromInline
package enum ValueCodec {
    /// Appends the slot bytes of a non-null value.
    package static func encode(_ value: Value, into out: inout [UInt8]) {
        withEncoded(value) { out.append(bytes: $0) }
    }

    /// Appends the slot bytes of a non-null value; in a mixed slot, after the value's type code.
    package static func encode(_ value: Value, mixed: Bool, into out: inout [UInt8]) {
        if mixed, let tag = value.storedType { out.append(tag.rawValue) }
        encode(value, into: &out)
    }

    /// Calls `body` with the slot bytes of a non-null value, without building an array
    /// (numbers are laid out on the stack, strings and data lent as they are).
    package static func withEncoded<R>(_ value: Value, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch value {
        case .null: return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        case .bool(let b): return try withUnsafeBytes(of: b ? UInt8(1) : 0, body)
        case .int(let v): return try withLowBytes(UInt64(bitPattern: v), count: intWidth(v), body)
        case .float(let f): return try withUnsafeBytes(of: f.bitPattern.littleEndian, body)
        case .double(let d): return try withUnsafeBytes(of: d.bitPattern.littleEndian, body)
        case .date(let d): return try withUnsafeBytes(of: d.timeIntervalSinceReferenceDate.bitPattern.littleEndian, body)
        case .string(var s): return try s.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .data(let d): return try d.withUnsafeBytes(body)
        case .uuid(let u): return try withUnsafeBytes(of: u.uuid, body)
        case .link(let key): return try withLowBytes(key, count: (key.bitWidth - key.leadingZeroBitCount + 7) / 8, body)
        case .typedLink(let name, let key):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(8 + name.utf8.count)
            withUnsafeBytes(of: key.littleEndian) { bytes.append(bytes: $0) }
            bytes.append(contentsOf: name.utf8)
            return try bytes.withUnsafeBytes(body)
        case .objectId(let id): return try id.withBytes(body)
        case .decimal128(let d): return try withUnsafeBytes(of: d.bits.littleEndian, body)
        }
    }

    /// The low `count` bytes of `x`, little endian.
    private static func withLowBytes<R>(_ x: UInt64, count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: x.littleEndian) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }

    /// How many bytes the minimal encoding of `v` takes: the shortest n such that
    /// sign-extending the low n bytes gives `v` back (none for 0).
    private static func intWidth(_ v: Int64) -> Int {
        if v == 0 { return 0 }
        var n = 8
        while n > 1 {
            let shift = Int64(64 - 8 * (n - 1))
            if (v << shift) >> shift != v { break }
            n -= 1
        }
        return n
    }

    /// Decodes a minimal little-endian two's complement integer.
    @inlinable @inline(__always)
    package static func decodeInt(_ b: UnsafeRawBufferPointer) -> Int64 {
        b.isEmpty ? 0 : decodeInt(b.baseAddress.unsafelyUnwrapped, count: b.count)
    }

    /// Decodes the integer in the `count` bytes at `p` (0 for none). Of more than 8 bytes,
    /// which no encoder writes, only the first 8 are read.
    @inlinable @inline(__always)
    package static func decodeInt(_ p: UnsafeRawPointer, count: Int) -> Int64 {
        switch count {
        case 0: return 0
        case 1: return Int64(p.load(as: Int8.self))
        case 2: return Int64(Int16(littleEndian: p.loadUnaligned(as: Int16.self)))
        case 4: return Int64(Int32(littleEndian: p.loadUnaligned(as: Int32.self)))
        case 8...: return Int64(littleEndian: p.loadUnaligned(as: Int64.self))
        default:
            var x: UInt64 = 0
            for i in 0..<count { x |= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(i)) }
            let shift = UInt64(64 - 8 * count)
            return Int64(bitPattern: x << shift) >> Int64(shift)
        }
    }

    /// Decodes slot bytes of a non-null value of `type`.
    @usableFromInline
    package static func decode(_ b: UnsafeRawBufferPointer, as type: PropertyType) -> Value {
        switch type {
        case .bool: return .bool(b.first == 1)
        case .int: return .int(decodeInt(b))
        case .float: return .float(b.count == 4 ? Float(bitPattern: b.loadUnaligned(as: UInt32.self).littleEndian) : 0)
        case .double: return .double(b.count == 8 ? Double(bitPattern: b.loadUnaligned(as: UInt64.self).littleEndian) : 0)
        case .date:
            let t = b.count == 8 ? Double(bitPattern: b.loadUnaligned(as: UInt64.self).littleEndian) : 0
            return .date(Date(timeIntervalSinceReferenceDate: t))
        case .string: return .string(StoredString.decode(b))
        case .data: return .data(Data(b))
        case .uuid: return b.count == 16 ? .uuid(UUID(bytes: b)) : .null
        case .link:
            // Minimal little endian: its bytes are the low bytes of the key (at most 8 count).
            var x: UInt64 = 0
            withUnsafeMutableBytes(of: &x) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: b.prefix(8))) }
            return .link(UInt64(littleEndian: x))
        case .objectId: return b.count == 12 ? .objectId(ObjectId(bytes: b)) : .null
        case .decimal128: return b.count == 16 ? .decimal128(BID128(bits: UInt128(littleEndian: b.loadUnaligned(as: UInt128.self)))) : .null
        case .mixed:
            guard let tag = b.first, let stored = PropertyType(rawValue: tag), stored != .mixed else { return .null }
            let rest = UnsafeRawBufferPointer(rebasing: b.dropFirst())
            if stored == .link { return decodeTypedLink(rest) }
            return decode(rest, as: stored)
        }
    }

    /// A mixed slot's link after its type code: 8 bytes of key, then a class name (null when
    /// either is missing).
    private static func decodeTypedLink(_ b: UnsafeRawBufferPointer) -> Value {
        guard b.count > 8 else { return .null }
        let key = UInt64(littleEndian: b.loadUnaligned(as: UInt64.self))
        return .typedLink(String(decoding: UnsafeRawBufferPointer(rebasing: b.dropFirst(8)), as: UTF8.self), key)
    }

    /// Whether `b` is a well-formed mixed slot: the code of a stored type other than mixed,
    /// then bytes of a length that type has (a link: a key and a class name).
    package static func isWellFormedMixed(_ b: UnsafeRawBufferPointer) -> Bool {
        guard let tag = b.first, let type = PropertyType(rawValue: tag) else { return false }
        let count = b.count - 1
        switch type {
        case .bool: return count == 1
        case .int: return count <= 8
        case .float: return count == 4
        case .double, .date: return count == 8
        case .string, .data: return true
        case .uuid, .decimal128: return count == 16
        case .objectId: return count == 12
        case .link: return count > 8
        case .mixed: return false
        }
    }

    /// The value a non-optional property of `type` has when nothing was stored.
    @usableFromInline
    package static func defaultValue(_ type: PropertyType) -> Value {
        switch type {
        case .bool: .bool(false)
        case .int: .int(0)
        case .float: .float(0)
        case .double: .double(0)
        case .string: .string("")
        case .data: .data(Data())
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .link: .null
        case .objectId: .objectId(ObjectId())
        case .decimal128: .decimal128(.zero)
        case .mixed: .null
        }
    }
}
