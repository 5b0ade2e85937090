import Foundation

/// A 128-bit IEEE 754-2008 decimal floating-point number: up to 34 significant decimal digits
/// and an exponent from -6176 to 6111, with ±Infinity and NaN. Arithmetic is exact decimal
/// arithmetic rounded to 34 digits, so `0.1 + 0.2 == 0.3` holds.
///
/// As in RealmSwift, a `Decimal128` is a reference type whose value changes only through
/// ``negate()``; the operators return new instances.
public final class Decimal128 {
    /// The number, in the BID encoding the file stores.
    package private(set) var bid: BID128

    /// Wraps a stored number.
    package init(bid: BID128) { self.bid = bid }

    /// Creates a new zero.
    public init() { bid = .zero }

    /// Converts `value` to a Decimal128: any integer, `Float`, `Double`, `String`, `NSNumber`,
    /// `Decimal`, another `Decimal128`, or `NSNull` (NaN). A string that is not a decimal
    /// number is NaN, as in RealmSwift (`init(string:)` throws for it instead).
    ///
    /// Any other type is a fatal error.
    public init(value: Any) {
        switch value {
        case let d as Decimal128: bid = d.bid
        case is NSNull: bid = .nan
        case let s as String: bid = BID128(text: s) ?? .nan
        case let d as Double: bid = BID128(binary: d, digits: 15)
        case let f as Float: bid = BID128(binary: Double(f), digits: 7)
        case let i as any BinaryInteger: bid = BID128(integer: i)
        case let d as Decimal: bid = BID128(text: d.description) ?? .nan
        case let n as NSNumber: bid = Decimal128(number: n).bid
        default: preconditionFailure("Cannot convert a value of type \(type(of: value)) to Decimal128")
        }
    }

    /// Converts `number` to a Decimal128: integers exactly, a `Double` to 15 significant digits
    /// and a `Float` to 7, as RealmSwift does.
    public init(number: NSNumber) {
        if let decimal = number as? NSDecimalNumber {
            bid = BID128(text: decimal.stringValue) ?? .nan
            return
        }
        switch String(cString: number.objCType) {
        case "f": bid = BID128(binary: Double(number.floatValue), digits: 7)
        case "d": bid = BID128(binary: number.doubleValue, digits: 15)
        case "Q", "L", "I", "S", "C": bid = BID128(integer: number.uint64Value)
        default: bid = BID128(integer: number.int64Value)
        }
    }

    /// Parses `string` as a Decimal128: an optional sign, digits with an optional decimal
    /// point, an optional exponent (`e` or `E`, optional sign, digits), or `Inf`, `Infinity`,
    /// `NaN` in any case. More than 34 significant digits are rounded half to even.
    ///
    /// - Throws: ``ValueParsingError`` when `string` is not of that form.
    public init(string: String) throws {
        guard let parsed = BID128(text: string) else { throw Decimal128.parsingError(string) }
        bid = parsed
    }

    /// The error for `text` that is not a decimal number.
    private static func parsingError(_ text: String) -> ValueParsingError {
        ValueParsingError(typeName: "Decimal128", text: text, expected: "a decimal number such as 1.5, -2E10, Inf or NaN")
    }

    /// Creates a Decimal128 from `source` when it has at most 34 digits; nil otherwise.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard source.magnitude <= UInt128(BID128.maxCoefficient) else { return nil }
        bid = BID128(integer: source)
    }

    /// The smallest finite Decimal128: -9999999999999999999999999999999999E6111.
    public static var min: Decimal128 { Decimal128(bid: BID128.greatestFinite.negated) }

    /// The largest finite Decimal128: 9999999999999999999999999999999999E6111.
    public static var max: Decimal128 { Decimal128(bid: .greatestFinite) }

    /// The number as text (`"1.5"`, `"-1.5E10"`, `"Inf"`, `"NaN"`), which
    /// ``init(string:)`` reads back to the same number.
    public var stringValue: String { bid.text }

    /// The nearest `Double` (a lossy conversion).
    public var doubleValue: Double { bid.doubleValue }

    /// The number as a Foundation `Decimal` (lossy beyond its range; NaN for NaN and Infinity).
    public var decimalValue: Decimal { bid.isFinite ? Decimal(string: bid.text) ?? .nan : .nan }

    /// Whether this is NaN.
    public var isNaN: Bool { bid.isNaN }

    /// Whether this is a signaling NaN; as in RealmSwift, true for every NaN.
    public var isSignaling: Bool { isNaN }

    /// Whether this is a signaling NaN; as in RealmSwift, true for every NaN.
    public var isSignalingNaN: Bool { isSignaling }

    /// The type of ``magnitude``.
    public typealias Magnitude = Decimal128

    /// The absolute value, exactly.
    public var magnitude: Magnitude { Decimal128(bid: bid.magnitude) }

    /// Flips the sign of this number in place.
    public func negate() { bid = bid.negated }
}

extension Decimal128: CustomStringConvertible {
    /// The same as ``stringValue``.
    public var description: String { stringValue }
}

extension Decimal128: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    /// The integer, exactly.
    public convenience init(integerLiteral value: Int64) { self.init(bid: BID128(integer: value)) }

    /// The literal's `Double`, to 15 significant digits (as ``init(number:)``).
    public convenience init(floatLiteral value: Double) { self.init(bid: BID128(binary: value, digits: 15)) }

    /// Parses the literal; a literal that is not a decimal number is a fatal error.
    public convenience init(stringLiteral value: String) { self.init(value: value) }
}

extension Decimal128: Codable {
    /// Decodes a string (read with ``init(string:)``), an integer or a `Double`.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            try self.init(string: text)
        } else if let integer = try? container.decode(Int64.self) {
            self.init(bid: BID128(integer: integer))
        } else if let double = try? container.decode(Double.self) {
            self.init(bid: BID128(binary: double, digits: 15))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Cannot convert value to Decimal128")
        }
    }

    /// Encodes ``stringValue``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
