/// Exact decimal arithmetic, correctly rounded to 34 digits (round half to even), as IEEE
/// 754-2008 specifies for decimal128: an exact result keeps the preferred exponent (the
/// smaller one for a sum, the sum of the exponents for a product, their difference for a
/// quotient); an inexact one is rounded once. Beyond the largest finite value a result is
/// ±Infinity; below the smallest it rounds towards 0.
///
/// Intermediate results that do not fit 128 bits are cut to at most 37 digits followed by one
/// "sticky" digit, 1 when anything non-zero was cut off; the final rounding always drops that
/// digit and at least one more, so it decides exactly as the full result would.
extension BID128 {
    /// The sum `a + b`.
    package static func + (a: BID128, b: BID128) -> BID128 {
        if a.isNaN || b.isNaN { return .nan }
        if a.isInfinite || b.isInfinite {
            if a.isInfinite && b.isInfinite && a.isNegative != b.isNegative { return .nan }
            return a.isInfinite ? a : b
        }
        var x = a.parts, y = b.parts
        if x.exponent < y.exponent { swap(&x, &y) }
        if x.coefficient == 0 { x.exponent = y.exponent }  // nothing to align: keep the smaller exponent
        // Scale x up to the exponent of y where that fits; past that, cut y down instead.
        let gap = x.exponent - y.exponent
        let room = 37 - DecimalDigits.count(x.coefficient)
        var big: UInt128, small: UInt128, exponent: Int
        if gap <= room {
            big = x.coefficient * DecimalDigits.power(gap)
            small = y.coefficient
            exponent = y.exponent
        } else {
            let cut = gap - room
            let kept = cut > 38 ? 0 : y.coefficient / DecimalDigits.power(cut)
            let lost = cut > 38 ? y.coefficient : y.coefficient % DecimalDigits.power(cut)
            big = x.coefficient * DecimalDigits.power(room) * 10
            small = kept * 10 + (lost == 0 ? 0 : 1)
            exponent = x.exponent - room - 1
        }
        if x.sign == y.sign { return rounded(sign: x.sign, coefficient: big + small, exponent: exponent) }
        if big == small { return rounded(sign: false, coefficient: 0, exponent: exponent) }
        return big > small
            ? rounded(sign: x.sign, coefficient: big - small, exponent: exponent)
            : rounded(sign: y.sign, coefficient: small - big, exponent: exponent)
    }

    /// The difference `a - b`.
    package static func - (a: BID128, b: BID128) -> BID128 { a + b.negated }

    /// The product `a × b`.
    package static func * (a: BID128, b: BID128) -> BID128 {
        if a.isNaN || b.isNaN { return .nan }
        let sign = a.isNegative != b.isNegative
        if a.isInfinite || b.isInfinite {
            return a.isZero || b.isZero ? .nan : .infinity(negative: sign)
        }
        let x = a.parts, y = b.parts
        let product = x.coefficient.multipliedFullWidth(by: y.coefficient)
        if product.high == 0 { return rounded(sign: sign, coefficient: product.low, exponent: x.exponent + y.exponent) }
        // At least 39 digits: keep 37 and a sticky digit.
        let cut = DecimalDigits.count(high: product.high, low: product.low) - 37
        let (kept, rest) = DecimalDigits.power(cut).dividingFullWidth(product)
        return rounded(sign: sign, coefficient: kept * 10 + (rest == 0 ? 0 : 1), exponent: x.exponent + y.exponent + cut - 1)
    }

    /// The quotient `a ÷ b`: ±Infinity for a non-zero number divided by 0, NaN for 0 ÷ 0 and
    /// Infinity ÷ Infinity.
    package static func / (a: BID128, b: BID128) -> BID128 {
        if a.isNaN || b.isNaN { return .nan }
        let sign = a.isNegative != b.isNegative
        if a.isInfinite { return b.isInfinite ? .nan : .infinity(negative: sign) }
        if b.isInfinite { return rounded(sign: sign, coefficient: 0, exponent: 0) }
        let x = a.parts, y = b.parts
        let preferred = x.exponent - y.exponent
        if y.coefficient == 0 { return x.coefficient == 0 ? .nan : .infinity(negative: sign) }
        if x.coefficient == 0 { return rounded(sign: sign, coefficient: 0, exponent: preferred) }
        // Widen the dividend to 34 digits, then scale it so the quotient has 36 or 37 digits.
        let widen = 34 - DecimalDigits.count(x.coefficient)
        let scale = 2 + DecimalDigits.count(y.coefficient)
        let dividend = (x.coefficient * DecimalDigits.power(widen)).multipliedFullWidth(by: DecimalDigits.power(scale))
        let (whole, remainder) = y.coefficient.dividingFullWidth(dividend)
        var exponent = preferred - widen - scale
        guard remainder == 0 else { return rounded(sign: sign, coefficient: whole * 10 + 1, exponent: exponent - 1) }
        var quotient = whole
        while exponent < preferred && quotient % 10 == 0 {
            quotient /= 10
            exponent += 1
        }
        return rounded(sign: sign, coefficient: quotient, exponent: exponent)
    }

    /// The finite value nearest to `coefficient × 10^exponent` (ties to an even last digit),
    /// or ±Infinity when it is beyond the largest finite value.
    static func rounded(sign: Bool, coefficient: UInt128, exponent: Int) -> BID128 {
        var coefficient = coefficient, exponent = exponent
        let drop = Swift.max(DecimalDigits.count(coefficient) - 34, minExponent - exponent, 0)
        if drop > 38 {
            coefficient = 0  // below half of the last place kept
            exponent += drop
        } else if drop > 0 {
            let unit = DecimalDigits.power(drop)
            var kept = coefficient / unit
            let rest = coefficient % unit, half = unit / 2
            if rest > half || (rest == half && kept % 2 == 1) { kept += 1 }
            coefficient = kept
            exponent += drop
            if coefficient > maxCoefficient {
                coefficient /= 10
                exponent += 1
            }
        }
        if exponent > maxExponent {
            if coefficient == 0 {
                exponent = maxExponent
            } else if exponent - maxExponent <= 34 - DecimalDigits.count(coefficient) {
                coefficient *= DecimalDigits.power(exponent - maxExponent)  // clamped: trailing zeros
                exponent = maxExponent
            } else {
                return .infinity(negative: sign)
            }
        }
        return BID128(sign: sign, coefficient: coefficient, exponent: exponent)
    }
}
