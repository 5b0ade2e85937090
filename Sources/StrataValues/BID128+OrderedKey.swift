/// The index key of a decimal128: bytes whose byte-wise order is the numeric order, equal for
/// equal values (`1.0` and `1.00` share a key). One class byte (0 NaN, 1 -Infinity,
/// 2 negative, 3 zero, 4 positive, 5 +Infinity); a non-zero finite value follows it with the
/// exponent of its leading digit plus 6176 as 2 bytes big endian and its coefficient widened
/// to 34 digits as 16 bytes big endian, every bit of those 18 bytes inverted when negative.
extension BID128 {
    /// Appends the key described above.
    package func appendOrderedKey(to out: inout [UInt8]) {
        if isNaN { out.append(0); return }
        if isInfinite { out.append(isNegative ? 1 : 5); return }
        let (sign, coefficient, exponent) = parts
        if coefficient == 0 { out.append(3); return }
        out.append(sign ? 2 : 4)
        let digits = DecimalDigits.count(coefficient)
        let lead = UInt16(exponent + digits - 1 + BID128.exponentBias)
        let widened = coefficient * DecimalDigits.power(34 - digits)
        let flip: UInt8 = sign ? 0xFF : 0
        withUnsafeBytes(of: lead.bigEndian) { for byte in $0 { out.append(byte ^ flip) } }
        withUnsafeBytes(of: widened.bigEndian) { for byte in $0 { out.append(byte ^ flip) } }
    }
}
