import Foundation
import Synchronization

/// A 12-byte identifier, unique without a central generator, in the layout BSON and
/// RealmSwift use: a 4-byte big-endian count of seconds since 1970 (the time it was made),
/// 5 bytes chosen at random once per process, and a 3-byte counter that starts at a random
/// value. Ordering is the order of the 12 bytes, so identifiers made later sort later.
///
/// A value type of two words: reading, comparing and hashing one allocates nothing.
public struct ObjectId: Sendable, Hashable {
    /// Bytes 0–3, the seconds since 1970, as a big-endian number.
    @usableFromInline let high: UInt32
    /// Bytes 4–11 as a big-endian number: the process's random bytes then the counter.
    @usableFromInline let low: UInt64

    @inlinable
    init(high: UInt32, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The identifier whose 12 bytes are all zero.
    public init() {
        self.init(high: 0, low: 0)
    }

    /// A new identifier: the current time, this process's random bytes and the next value
    /// of the process's counter.
    public static func generate() -> ObjectId {
        let seconds = UInt32(truncatingIfNeeded: Int64(Date().timeIntervalSince1970))
        let count = UInt64(Generation.counter.wrappingAdd(1, ordering: .relaxed).oldValue & 0xFF_FFFF)
        return ObjectId(high: seconds, low: Generation.processBytes << 24 | count)
    }

    /// An identifier made of `timestamp` (whole seconds since 1970), the low 3 bytes of
    /// `machineId` and the low 2 bytes of `processId`, with a zero counter.
    public init(timestamp: Date, machineId: Int, processId: Int) {
        let seconds = UInt32(truncatingIfNeeded: Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        let machine = UInt64(truncatingIfNeeded: machineId) & 0xFF_FFFF
        let process = UInt64(truncatingIfNeeded: processId) & 0xFFFF
        self.init(high: seconds, low: machine << 40 | process << 24)
    }

    /// When the identifier was made, to the second.
    public var timestamp: Date {
        Date(timeIntervalSince1970: TimeInterval(high))
    }

    /// The identifier whose 12 bytes are `bytes` (which holds at least 12).
    @inlinable
    package init(bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= 12, "an ObjectId is 12 bytes")
        self.init(high: UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self)),
                  low: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt64.self)))
    }

    /// Calls `body` with the 12 bytes of the identifier, in order.
    @inlinable
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: (high.bigEndian, UInt32(truncatingIfNeeded: low >> 32).bigEndian,
                                 UInt32(truncatingIfNeeded: low).bigEndian), body)
    }
}

extension ObjectId: Comparable {
    /// Whether `lhs`'s bytes come before `rhs`'s (for generated identifiers: made earlier).
    @inlinable
    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}

/// The state `ObjectId.generate()` shares across the process.
private enum Generation {
    /// Five random bytes, fixed for the life of the process.
    static let processBytes = UInt64.random(in: 0..<(1 << 40))
    /// The 3-byte counter (only its low 24 bits are used), starting at a random value.
    static let counter = Atomic<UInt32>(UInt32.random(in: 0...0xFF_FFFF))
}
