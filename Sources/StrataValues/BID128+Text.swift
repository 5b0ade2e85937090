import Foundation

/// Decimal text, and conversions from binary numbers.
///
/// Text is written as Realm writes it: the coefficient's digits with a decimal point when the
/// exponent is negative and leaves a digit before the point (`"11.111110"`, `"-1.0"`),
/// otherwise one digit, a point if more follow, and `E` with the exponent (`"1.5E10"`,
/// `"1E-5"`); `"Inf"`, `"-Inf"` and `"NaN"`. Reading accepts an optional sign, digits with an
/// optional point, an optional `e`/`E` exponent with an optional sign, and `Inf`, `Infinity`
/// and `NaN` in any case; more than 34 significant digits are rounded half to even.
extension BID128 {
    /// The text of the value.
    package var text: String {
        if isNaN { return isNegative ? "-NaN" : "NaN" }
        if isInfinite { return isNegative ? "-Inf" : "Inf" }
        let (sign, coefficient, exponent) = parts
        var digits = String(coefficient)
        var before = digits.count, shift = exponent
        while before > 1 && shift != 0 {
            before -= 1
            shift += 1
        }
        if before < digits.count { digits.insert(".", at: digits.index(digits.startIndex, offsetBy: before)) }
        if shift != 0 { digits += "E\(shift)" }
        return sign ? "-" + digits : digits
    }

    /// Reads decimal text; nil when it is not a number in the form described above.
    package init?(text: some StringProtocol) {
        var bytes = Substring(text).utf8[...]
        var sign = false
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        switch String(Substring(bytes)).lowercased() {
        case "inf", "infinity": self = .infinity(negative: sign); return
        case "nan": self = sign ? BID128.nan.negated : .nan; return
        default: break
        }
        guard let number = DecimalText(bytes) else { return nil }
        self = BID128.rounded(sign: sign, coefficient: number.coefficient, exponent: number.exponent)
    }

    /// The integer `value`, exactly (exponent 0).
    package init<T: BinaryInteger>(integer value: T) {
        let magnitude = UInt128(value.magnitude)
        self = BID128.rounded(sign: value < 0, coefficient: magnitude, exponent: 0)
    }

    /// The binary floating-point `value` as a decimal of at most `digits` significant digits
    /// (Realm keeps 15 for a `Double` and 7 for a `Float`): exact when it has that few, else
    /// rounded to exactly that many, trailing zeros included.
    package init(binary value: Double, digits: Int) {
        if value.isNaN { self = .nan; return }
        if value.isInfinite { self = .infinity(negative: value < 0); return }
        // printf's `%e` rounds the exact binary value correctly to the digits asked for.
        let exact = BID128(text: String(format: "%.33e", value))
        if let exact, let stripped = exact.withoutTrailingZeros, DecimalDigits.count(stripped.parts.coefficient) <= digits {
            self = stripped
        } else {
            self = BID128(text: String(format: "%.\(digits - 1)e", value)) ?? .nan
        }
    }

    /// The same finite value with the fewest coefficient digits, nil for NaN and Infinity.
    private var withoutTrailingZeros: BID128? {
        guard isFinite else { return nil }
        var (sign, coefficient, exponent) = parts
        if coefficient == 0 { return BID128(sign: sign, coefficient: 0, exponent: 0) }
        while coefficient % 10 == 0 && exponent < BID128.maxExponent {
            coefficient /= 10
            exponent += 1
        }
        return BID128(sign: sign, coefficient: coefficient, exponent: exponent)
    }

    /// The nearest `Double`.
    package var doubleValue: Double {
        if isNaN { return .nan }
        if isInfinite { return isNegative ? -.infinity : .infinity }
        let (sign, coefficient, exponent) = parts
        let magnitude = Double("\(coefficient)e\(exponent)") ?? .nan
        return sign ? -magnitude : magnitude
    }
}

/// The digits of decimal text before rounding: at most 37 significant digits exactly, then a
/// sticky digit standing for any non-zero digits beyond them.
private struct DecimalText {
    var coefficient: UInt128 = 0
    var exponent = 0

    init?(_ text: Substring.UTF8View) {
        var digits = 0, significant = 0, lost = false, index = text.startIndex
        var seenPoint = false
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                if seenPoint { return nil }
                seenPoint = true
            } else if let digit = Self.digit(byte) {
                digits += 1
                if significant < 37 {
                    if significant > 0 || digit != 0 {
                        coefficient = coefficient * 10 + UInt128(digit)
                        significant += 1
                    }
                    if seenPoint { exponent -= 1 }
                } else {
                    lost = lost || digit != 0
                    if !seenPoint { exponent += 1 }
                }
            } else {
                break
            }
            index = text.index(after: index)
        }
        guard digits > 0 else { return nil }
        if index < text.endIndex {
            guard text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E"),
                  let power = Self.exponent(text[text.index(after: index)...]) else { return nil }
            exponent += power
        }
        if lost {
            coefficient = coefficient * 10 + 1
            exponent -= 1
        }
    }

    /// A signed exponent; values beyond any finite range saturate (they round to 0 or overflow).
    private static func exponent(_ text: Substring.UTF8View) -> Int? {
        var rest = text[...], negative = false
        if let first = rest.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        var value = 0
        for byte in rest {
            guard let digit = digit(byte) else { return nil }
            value = Swift.min(value * 10 + digit, 1_000_000)
        }
        return negative ? -value : value
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
