import Foundation
import StrataStorage

/// The meaning of one comparison between two plain values: the reference the compiled fast
/// paths must agree with, used for property-to-property comparisons and to fold comparisons
/// between constants.
package enum ValueSemantics {
    /// Whether `lhs op[options] rhs` holds. For IN, `rhs` is one element of the list (callers
    /// OR over the list); BETWEEN is two ordering comparisons done by the caller.
    ///
    /// Null rules (realm-core's): `==` holds when both are null, `!=` when exactly one is (so
    /// `!=` matches nil); null orders equal to null (`>=`, `<=` hold) and before every string
    /// and data value (`"a" > nil`), and is unordered against any other value (`<`, `<=`, `>`,
    /// `>=` with a number are false); every other operator is false when either side is null.
    ///
    /// Values of different kinds (a mixed value's), numbers of every kind being one kind and
    /// strings and data another, are only ever unequal: a string never equals a number.
    package static func compare(_ lhs: Value, _ op: ComparisonOperator, _ rhs: Value, options: StringOptions) -> Bool {
        if lhs.isNull || rhs.isNull {
            switch op {
            case .equal, .in: return lhs.isNull && rhs.isNull
            case .notEqual: return lhs.isNull != rhs.isNull
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                if lhs.isNull && rhs.isNull { return ordered(0, op) }
                guard bytes(lhs.isNull ? rhs : lhs) != nil else { return false }
                return ordered(lhs.isNull ? -1 : 1, op)
            default: return false
            }
        }
        if kind(lhs) != kind(rhs) { return op == .notEqual }
        if let a = bytes(lhs), let b = bytes(rhs) {
            var x = a, y = b
            if !options.isEmpty, case .string(let s) = lhs, case .string(let t) = rhs {
                x = Array(StringMatching.fold(s, options).utf8)
                y = Array(StringMatching.fold(t, options).utf8)
            }
            switch op {
            case .equal, .in, .notEqual, .beginsWith, .endsWith, .contains, .like:
                return StringMatching.matches(op == .in ? .equal : op, text: x, pattern: y)
            default:
                return ordered(compareBytes(x, y), op)
            }
        }
        let c = Value.compare(lhs, rhs)
        switch op {
        case .equal, .in: return c == 0 && !isNaN(lhs) && !isNaN(rhs)
        case .notEqual: return c != 0 || isNaN(lhs) || isNaN(rhs)
        default:
            if isNaN(lhs) || isNaN(rhs) { return false }
            return ordered(c, op)
        }
    }

    /// The result of an ordering operator given a three-way comparison result.
    @inline(__always)
    package static func ordered(_ c: Int, _ op: ComparisonOperator) -> Bool {
        switch op {
        case .less: c < 0
        case .lessOrEqual: c <= 0
        case .greater: c > 0
        case .greaterOrEqual: c >= 0
        case .equal, .in: c == 0
        case .notEqual: c != 0
        default: false
        }
    }

    /// The kind of a non-null value for comparisons: numbers share one, strings and data
    /// another, every other type is its own.
    private static func kind(_ v: Value) -> PropertyType? {
        switch v {
        case .int, .float, .double, .decimal128: .double
        case .data: .string
        default: v.storedType
        }
    }

    private static func isNaN(_ v: Value) -> Bool {
        if case .decimal128(let d) = v { return d.isNaN }
        return v.numeric?.isNaN ?? false
    }

    /// The bytes that string and data values compare by.
    private static func bytes(_ v: Value) -> [UInt8]? {
        switch v {
        case .string(let s): Array(s.utf8)
        case .data(let d): Array(d)
        default: nil
        }
    }
}
