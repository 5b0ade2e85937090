/// Arithmetic and comparison: exact decimal arithmetic rounded half to even at 34 digits;
/// comparison by value across exponents (`1.0 == 1.00`). `Numeric`, as in RealmSwift, so
/// generic numeric code (`reduce(.zero, +)`) takes decimals.
extension Decimal128: Comparable, Hashable, Numeric {
    /// Whether the two numbers are equal in value. NaN is equal to nothing, itself included.
    public static func == (lhs: Decimal128, rhs: Decimal128) -> Bool {
        !lhs.isNaN && !rhs.isNaN && lhs.bid == rhs.bid
    }

    /// Whether `lhs` orders before `rhs`; as in RealmSwift, NaN orders before every number.
    public static func < (lhs: Decimal128, rhs: Decimal128) -> Bool { lhs.bid < rhs.bid }

    /// Hashes the value, so that equal numbers of different exponents hash alike.
    public func hash(into hasher: inout Hasher) { hasher.combine(bid) }

    /// The sum, rounded to 34 digits.
    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(bid: lhs.bid + rhs.bid) }

    /// The difference, rounded to 34 digits.
    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(bid: lhs.bid - rhs.bid) }

    /// The product, rounded to 34 digits.
    public static func * (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(bid: lhs.bid * rhs.bid) }

    /// The quotient, rounded to 34 digits: ±Infinity when `rhs` is 0 and `lhs` is not, NaN for 0 / 0.
    public static func / (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { Decimal128(bid: lhs.bid / rhs.bid) }

    /// Replaces `lhs` with `lhs + rhs`.
    public static func += (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs + rhs }

    /// Replaces `lhs` with `lhs - rhs`.
    public static func -= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs - rhs }

    /// Replaces `lhs` with `lhs * rhs`.
    public static func *= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs * rhs }

    /// Replaces `lhs` with `lhs / rhs`.
    public static func /= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs / rhs }

    /// The negation of `operand`.
    public static prefix func - (operand: Decimal128) -> Decimal128 { Decimal128(bid: operand.bid.negated) }
}

extension Decimal128 {
    /// The type of the distance between two values.
    public typealias Stride = Decimal128

    /// The distance from this value to `other`: `other - self`.
    public func distance(to other: Decimal128) -> Stride { other - self }

    /// This value offset by `n`: `self + n`.
    public func advanced(by n: Decimal128) -> Decimal128 { self + n }
}
