import Foundation

/// A parsed JSON value that keeps numbers as their text, so that integers of 64 bits and
/// doubles convert exactly (Foundation's `JSONSerialization` rounds some doubles).
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in their order in the text.
    case object([(String, JSONValue)])

    /// Equal kinds with equal contents (object members in the same order).
    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member `name` of an object, or nil.
    subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// A short description of the kind of value, for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let n): "the number \(n)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Text that is not JSON, with the column where reading stopped.
    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses one JSON document (one line of a JSON Lines file) from its UTF-8 bytes.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// A recursive-descent reader over the bytes of one document.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        /// A parse error at the current column.
        func error(_ message: String) -> ParseError {
            ParseError(description: "invalid JSON at column \(index + 1): \(message)")
        }

        /// Moves past spaces, tabs and line breaks.
        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        /// The value starting here; `depth` bounds the nesting of arrays and objects.
        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < 512 else { throw error("nested too deeply") }
            guard index < bytes.count else { throw error("unexpected end of line") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(String, JSONValue)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                    let name = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    members.append((name, try value(depth: depth + 1)))
                    skipSpace()
                    if try separator("}") { return .object(members) }
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    if try separator("]") { return .array(elements) }
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try word("true"); return .bool(true)
            case UInt8(ascii: "f"): try word("false"); return .bool(false)
            case UInt8(ascii: "n"): try word("null"); return .null
            default:
                return .number(try number())
            }
        }

        /// After an element: true at `close`, false at a comma.
        mutating func separator(_ close: Character) throws -> Bool {
            guard index < bytes.count else { throw error("unexpected end of line") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; return false }
            if bytes[index] == close.asciiValue! { index += 1; return true }
            throw error("expected ',' or '\(close)'")
        }

        /// Moves past `c`, which must come next.
        mutating func expect(_ c: Character) throws {
            guard index < bytes.count, bytes[index] == c.asciiValue! else { throw error("expected '\(c)'") }
            index += 1
        }

        /// Moves past the literal `w` (`true`, `false`, `null`), which must come next.
        mutating func word(_ w: String) throws {
            let w = Array(w.utf8)
            guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else { throw error("unknown word") }
            index += w.count
        }

        /// The text of the number starting here (kept as text for exact conversion later).
        mutating func number() throws -> String {
            let start = index
            func digits() -> Int {
                let s = index
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
                return index - s
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected a value") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw error("expected digits after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw error("expected digits in the exponent") }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// The string starting at the opening quote here, with its escapes resolved.
        mutating func string() throws -> String {
            index += 1  // the opening quote
            var out: [UInt8] = []
            while index < bytes.count {
                let b = bytes[index]
                index += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { break }
                    let e = bytes[index]
                    index += 1
                    switch e {
                    case UInt8(ascii: "\""): out.append(0x22)
                    case UInt8(ascii: "\\"): out.append(0x5C)
                    case UInt8(ascii: "/"): out.append(0x2F)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                                throw error("a lone surrogate in a string")
                            }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in a string") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let u = Unicode.Scalar(scalar) else { throw error("a lone surrogate in a string") }
                        out.append(contentsOf: Array(String(Character(u)).utf8))
                    default: throw error("unknown escape in a string")
                    }
                default:
                    if b < 0x20 { throw error("a control character in a string") }
                    out.append(b)
                }
            }
            throw error("unterminated string")
        }

        /// The four hex digits of a `\u` escape.
        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw error("expected four hex digits after \\u")
            }
            index += 4
            return v
        }
    }
}
