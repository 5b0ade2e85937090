/// The 24-digit hexadecimal form of an identifier: parsing, printing and `Codable`, which
/// encodes an identifier as that string (as RealmSwift does).
extension ObjectId: CustomStringConvertible, Codable {
    /// The identifier in `string`: exactly 24 hexadecimal digits, in either case.
    ///
    /// - Throws: `ValueParsingError` when `string` is not 24 hexadecimal digits.
    public init(string: String) throws {
        var digits = string.utf8.makeIterator()
        var high: UInt32 = 0, low: UInt64 = 0, count = 0
        while let c = digits.next() {
            guard count < 24, let digit = TextEscapes.hexDigit(c) else { throw Self.parsingError(string) }
            if count < 8 { high = high << 4 | UInt32(digit) } else { low = low << 4 | UInt64(digit) }
            count += 1
        }
        guard count == 24 else { throw Self.parsingError(string) }
        self.init(high: high, low: low)
    }

    /// The identifier in a literal string of 24 hexadecimal digits; a literal that is not
    /// one is a programming error and traps. `init(string:)` handles text known only at run time.
    public init(_ literal: StaticString) {
        let text = literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        do { try self.init(string: text) } catch { preconditionFailure("\(error)") }
    }

    /// The identifier decoded from a string of 24 hexadecimal digits.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do { try self.init(string: text) } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
        }
    }

    /// Encodes the identifier as its 24-digit string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }

    /// The 24 lowercase hexadecimal digits of the identifier's 12 bytes.
    public var stringValue: String {
        String(unsafeUninitializedCapacity: 24) { out in
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { hex in
                for i in 0..<8 { out[i] = hex[Int(high >> UInt32(28 - 4 * i) & 0xF)] }
                for i in 0..<16 { out[8 + i] = hex[Int(low >> UInt64(60 - 4 * i) & 0xF)] }
            }
            return 24
        }
    }

    /// The 24-digit string, as `stringValue`.
    public var description: String { stringValue }

    private static func parsingError(_ text: String) -> ValueParsingError {
        ValueParsingError(typeName: "ObjectId", text: text, expected: "24 hexadecimal digits")
    }
}
