import Foundation
import StrataValues

/// One stored value, as a closed enum: the currency between the object API, the query
/// engine and the row encoding. Integers of every width are `int`; `Date` keeps full
/// `Double` precision (seconds since the reference date).
@usableFromInline
package enum Value: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case uuid(UUID)
    /// A to-one link: the target object's key (the target class is in the schema).
    case link(ObjectKey)
    /// A link held by a mixed value (`AnyRealmValue.object`): the target's class, as stored,
    /// and its key, since a mixed slot's schema names no target class.
    case typedLink(String, ObjectKey)
    case objectId(ObjectId)
    /// A decimal128 number (compares and hashes by value: `1.0 == 1.00`).
    case decimal128(BID128)

    /// The stored type of a non-null value (its code tags it in a mixed slot); nil for null.
    package var storedType: PropertyType? {
        switch self {
        case .null: nil
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .double: .double
        case .string: .string
        case .data: .data
        case .date: .date
        case .uuid: .uuid
        case .link, .typedLink: .link
        case .objectId: .objectId
        case .decimal128: .decimal128
        }
    }

    /// Whether the value is `null`.
    package var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The value as a `Double` when it is numeric (int, float, double, date), for comparisons
    /// across numeric kinds and for aggregates.
    package var numeric: Double? {
        switch self {
        case .int(let v): return Double(v)
        case .float(let v): return Double(v)
        case .double(let v): return v
        case .date(let v): return v.timeIntervalSinceReferenceDate
        default: return nil
        }
    }
}

/// The key of an object inside its class's table. Stable for the object's lifetime.
@usableFromInline package typealias ObjectKey = UInt64

extension Value {
    /// Total order used by sorting and by `<`/`>` comparisons: null first, then by kind; numbers
    /// of different kinds compare numerically (a date is not a number); strings by Unicode
    /// scalar values (UTF-8 order), and against data by their bytes.
    package static func compare(_ a: Value, _ b: Value) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.string(let x), .string(let y)): return compareUTF8(x, y)
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
        case (.data(let x), .data(let y)): return compareBytes(x, y)
        // Strings and data order by their bytes against each other, as realm-core orders
        // mixed values (one kind, `kindOrder`).
        case (.string(let x), .data(let y)): return compareBytes(x.utf8, y)
        case (.data(let x), .string(let y)): return compareBytes(x, y.utf8)
        case (.uuid(let x), .uuid(let y)): return compareBytes(x.bytes, y.bytes)
        case (.link(let x), .link(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.typedLink(let c, let x), .typedLink(let d, let y)):
            if c != d { return compareUTF8(c, d) }
            return x < y ? -1 : (x == y ? 0 : 1)
        case (.objectId(let x), .objectId(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.decimal128(let x), .decimal128(let y)): return BID128.compare(x, y)
        case (.decimal128(let x), .int), (.decimal128(let x), .float), (.decimal128(let x), .double):
            return BID128.compare(x, b.asDecimal128!)
        case (.int, .decimal128(let y)), (.float, .decimal128(let y)), (.double, .decimal128(let y)):
            return BID128.compare(a.asDecimal128!, y)
        default:
            if a.kindOrder == b.kindOrder, let x = a.numeric, let y = b.numeric { return x < y ? -1 : (x == y ? 0 : (x > y ? 1 : (x.isNaN ? -1 : 1))) }
            return a.kindOrder < b.kindOrder ? -1 : (a.kindOrder == b.kindOrder ? 0 : 1)
        }
    }

    /// The value as a decimal128 when it is a number: integers exactly, a float to 7 and a
    /// double to 15 significant digits (as RealmSwift converts them).
    package var asDecimal128: BID128? {
        switch self {
        case .decimal128(let d): d
        case .int(let i): BID128(integer: i)
        case .float(let f): BID128(binary: Double(f), digits: 7)
        case .double(let d): BID128(binary: d, digits: 15)
        default: nil
        }
    }

    /// The exact decimal128 sum of the numbers among `values`.
    package static func decimalSum(_ values: some Sequence<Value>) -> BID128 {
        values.reduce(BID128.zero) { $0 + ($1.asDecimal128 ?? .zero) }
    }

    private var kindOrder: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .int, .float, .double, .decimal128: 2
        case .date: 3
        case .string, .data: 4
        case .uuid: 6
        case .link: 7
        case .objectId: 8
        case .typedLink: 9
        }
    }

    private static func compareUTF8(_ x: String, _ y: String) -> Int {
        var a = x, b = y
        return a.withUTF8 { ua in b.withUTF8 { ub in compareBytes(UnsafeRawBufferPointer(ua), UnsafeRawBufferPointer(ub)) } }
    }
}

/// Lexicographic comparison of two byte sequences (memcmp order, shorter first on a tie).
package func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Int {
    var ia = a.makeIterator(), ib = b.makeIterator()
    while true {
        switch (ia.next(), ib.next()) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
        }
    }
}

/// Fast lexicographic comparison of two raw byte buffers.
@inlinable @inline(__always)
package func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let n = Swift.min(a.count, b.count)
    if n > 0 {
        let r = memcmp(a.baseAddress!, b.baseAddress!, n)
        if r != 0 { return r < 0 ? -1 : 1 }
    }
    return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
}

extension UUID {
    /// The 16 bytes of the UUID, in order.
    package var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }

    /// Builds a UUID from 16 bytes.
    package init(bytes: UnsafeRawBufferPointer) {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(16))) }
        self.init(uuid: raw)
    }
}
