/// An IEEE 754-2008 decimal128 number as a value: the 16 bytes of its binary integer decimal
/// (BID) encoding, as Realm and MongoDB store it. A finite value is
/// `(-1)^sign × coefficient × 10^exponent` with a coefficient of at most 34 decimal digits and
/// an exponent in -6176...6111; the other values are ±Infinity and NaN.
///
/// Equality and ordering are by value across exponents (`1.0 == 1.00`, `-0 == 0`); NaN sorts
/// before every number and is equal to NaN, so the order is total and `Hashable` agrees with
/// `==` (the public `Decimal128` keeps IEEE's NaN inequality on top of this).
@usableFromInline
package struct BID128: Sendable {
    // Two words rather than one `UInt128`: a `Value` holding a decimal then keeps the 8-byte
    // alignment (and 24-byte stride) every other value has.
    private let low: UInt64, high: UInt64

    /// The encoding: bit 127 the sign, then the combination field and the coefficient.
    package var bits: UInt128 { UInt128(high) << 64 | UInt128(low) }

    /// Wraps the 16-byte encoding as it is stored.
    package init(bits: UInt128) {
        low = UInt64(truncatingIfNeeded: bits)
        high = UInt64(truncatingIfNeeded: bits >> 64)
    }

    /// The largest coefficient: 34 nines.
    static let maxCoefficient: UInt128 = 9_999_999_999_999_999_999_999_999_999_999_999
    /// The smallest and largest exponents of a finite value.
    static let minExponent = -6176, maxExponent = 6111
    /// What is added to an exponent to store it.
    static let exponentBias = 6176

    private static let signBit: UInt128 = 1 << 127
    private static let coefficientMask: UInt128 = (1 << 113) - 1

    /// Positive zero with exponent 0.
    package static let zero = BID128(sign: false, coefficient: 0, exponent: 0)
    /// The quiet NaN.
    package static let nan = BID128(bits: 0x7C << 120)
    /// The positive infinity.
    package static let infinity = BID128(bits: 0x78 << 120)
    /// The largest finite value: 34 nines times 10^6111.
    package static let greatestFinite = BID128(sign: false, coefficient: maxCoefficient, exponent: maxExponent)

    /// Encodes a finite value; `coefficient` must be at most `maxCoefficient` and `exponent`
    /// in the finite range (`rounded` brings any exact result there).
    init(sign: Bool, coefficient: UInt128, exponent: Int) {
        precondition(coefficient <= Self.maxCoefficient && (Self.minExponent...Self.maxExponent).contains(exponent))
        self.init(bits: (sign ? Self.signBit : 0) | UInt128(exponent + Self.exponentBias) << 113 | coefficient)
    }

    /// ±Infinity.
    static func infinity(negative: Bool) -> BID128 { BID128(bits: infinity.bits | (negative ? signBit : 0)) }

    /// Whether the sign bit is set (also for -0, -Infinity and a negative NaN).
    package var isNegative: Bool { bits & Self.signBit != 0 }
    /// Whether this is a NaN (quiet or signaling).
    package var isNaN: Bool { bits >> 122 & 0x1F == 0x1F }
    /// Whether this is a signaling NaN.
    package var isSignalingNaN: Bool { bits >> 121 & 0x3F == 0x3F }
    /// Whether this is ±Infinity.
    package var isInfinite: Bool { bits >> 122 & 0x1F == 0x1E }
    /// Whether this is a finite number.
    package var isFinite: Bool { bits >> 122 & 0x1E != 0x1E }
    /// Whether this is ±0 (of any exponent).
    package var isZero: Bool { isFinite && parts.coefficient == 0 }

    /// The value with its sign flipped.
    package var negated: BID128 { BID128(bits: bits ^ Self.signBit) }
    /// The value with its sign cleared.
    package var magnitude: BID128 { BID128(bits: bits & ~Self.signBit) }

    /// Sign, coefficient and exponent of a finite value. A non-canonical coefficient (above 34
    /// nines, or in the large-coefficient form) reads as 0, as IEEE 754 prescribes.
    var parts: (sign: Bool, coefficient: UInt128, exponent: Int) {
        if bits >> 125 & 0b11 == 0b11 {
            let biased = Int(truncatingIfNeeded: bits >> 111 & 0x3FFF)
            return (isNegative, 0, Swift.min(biased - Self.exponentBias, Self.maxExponent))
        }
        let coefficient = bits & Self.coefficientMask
        return (isNegative, coefficient <= Self.maxCoefficient ? coefficient : 0,
                Int(truncatingIfNeeded: bits >> 113 & 0x3FFF) - Self.exponentBias)
    }
}

extension BID128: Comparable, Hashable {
    /// Compares by value: NaN first, then -Infinity, the finite values, +Infinity.
    package static func compare(_ a: BID128, _ b: BID128) -> Int {
        switch (a.isNaN, b.isNaN) {
        case (true, true): return 0
        case (true, false): return -1
        case (false, true): return 1
        case (false, false): break
        }
        let aNegative = a.isNegative && !a.isZero, bNegative = b.isNegative && !b.isZero
        if aNegative != bNegative { return aNegative ? -1 : 1 }
        let byMagnitude = compareMagnitudes(a, b)
        return aNegative ? -byMagnitude : byMagnitude
    }

    /// Compares the absolute values of two non-NaN values.
    private static func compareMagnitudes(_ a: BID128, _ b: BID128) -> Int {
        if a.isInfinite || b.isInfinite { return a.isInfinite == b.isInfinite ? 0 : (a.isInfinite ? 1 : -1) }
        let x = a.parts, y = b.parts
        if x.coefficient == 0 || y.coefficient == 0 {
            return x.coefficient == y.coefficient ? 0 : (x.coefficient == 0 ? -1 : 1)
        }
        let xDigits = DecimalDigits.count(x.coefficient), yDigits = DecimalDigits.count(y.coefficient)
        // The exponent of the leading digit decides, unless it is the same for both.
        let xLead = xDigits + x.exponent, yLead = yDigits + y.exponent
        if xLead != yLead { return xLead < yLead ? -1 : 1 }
        let xc = x.coefficient * DecimalDigits.power(34 - xDigits), yc = y.coefficient * DecimalDigits.power(34 - yDigits)
        return xc < yc ? -1 : (xc == yc ? 0 : 1)
    }

    @usableFromInline package static func == (a: BID128, b: BID128) -> Bool { compare(a, b) == 0 }
    @usableFromInline package static func < (a: BID128, b: BID128) -> Bool { compare(a, b) < 0 }

    /// Hashes the value, not the encoding: trailing zeros of the coefficient are removed first,
    /// all zeros hash alike and all NaNs hash alike.
    @usableFromInline package func hash(into hasher: inout Hasher) {
        if isNaN { hasher.combine(0 as UInt8); return }
        if isInfinite { hasher.combine(isNegative ? 1 : 2 as UInt8); return }
        var (sign, coefficient, exponent) = parts
        if coefficient == 0 { hasher.combine(3 as UInt8); return }
        while coefficient % 10 == 0 { coefficient /= 10; exponent += 1 }
        hasher.combine(sign)
        hasher.combine(coefficient)
        hasher.combine(exponent)
    }
}

/// Powers of ten and decimal digit counts of 128-bit integers.
enum DecimalDigits {
    /// 10^0 through 10^38, every power of ten a `UInt128` holds.
    static let powers: [UInt128] = {
        var table: [UInt128] = [1]
        for _ in 1...38 { table.append(table[table.count - 1] * 10) }
        return table
    }()

    /// 10^n for n in 0...38.
    @inline(__always) static func power(_ n: Int) -> UInt128 { powers[n] }

    /// The number of decimal digits of `x` (0 for 0).
    static func count(_ x: UInt128) -> Int {
        let estimate = ((128 - x.leadingZeroBitCount) * 1233) >> 12
        return estimate + (x >= powers[estimate] ? 1 : 0)
    }

    /// The number of decimal digits of the 256-bit integer `high × 2^128 + low`, which must be
    /// below 10^70.
    static func count(high: UInt128, low: UInt128) -> Int {
        if high == 0 { return count(low) }
        let estimate = ((256 - high.leadingZeroBitCount) * 1233) >> 12
        let split = Swift.min(estimate, 38)
        let p = powers[split].multipliedFullWidth(by: powers[estimate - split])
        let atLeast = high > p.high || (high == p.high && low >= p.low)
        return estimate + (atLeast ? 1 : 0)
    }
}
