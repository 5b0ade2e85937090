import Foundation
import StrataStorage
import StrataValues

/// Splits query text into tokens, each with its character position.
///
/// Works on an array of `Character`s so positions are what a person counts. Errors (an
/// unterminated string, a stray character, an integer that does not fit 64 bits) are thrown
/// with the position of the offending text. Runs in time linear in the input and never
/// recurses, so any input is safe.
package struct Lexer {
    private let chars: [Character]
    private var index = 0
    private var tokens: [Token] = []

    /// Tokenizes `text`; the last token is always `.end`.
    package static func tokenize(_ text: String) throws(QueryError) -> [Token] {
        var lexer = Lexer(chars: Array(text))
        try lexer.run()
        return lexer.tokens
    }

    private init(chars: [Character]) { self.chars = chars }

    private func peek(_ offset: Int = 0) -> Character? {
        let i = index + offset
        return i < chars.count ? chars[i] : nil
    }

    private mutating func add(_ kind: Token.Kind, from start: Int) {
        tokens.append(Token(kind: kind, position: start, text: String(chars[start..<index])))
    }

    private mutating func run() throws(QueryError) {
        while let c = peek() {
            let start = index
            if c.isWhitespace { index += 1; continue }
            if isDigit(c) || (c == "." && peek(1).map(isDigit) == true) {
                try lexNumberOrDate()
            } else if c == "'" || c == "\"" {
                let s = try lexString(quote: c)
                add(.literal(.string(s)), from: start)
            } else if isIdentifierStart(c) {
                try lexWord()
            } else if c == "@" {
                index += 1
                let name = readIdentifier()
                if name.isEmpty { throw QueryError("expected a name after '@'", at: start) }
                add(.atIdentifier(name), from: start)
            } else if c == "%" {
                index += 1
                switch peek() {
                case "@": index += 1; add(.argument(nil), from: start)
                case "K": index += 1; add(.keyPathArgument(nil), from: start)
                default:
                    // printf-style number placeholders (`%d`, `%lld`, `%f`...) take an argument as
                    // `%@` does, as NSPredicate formats allow.
                    while let m = peek(), "lhqzjt".contains(m) { index += 1 }
                    guard let conversion = peek(), "diufgeDUFGE".contains(conversion) else {
                        throw QueryError("expected '%@', '%K' or a number placeholder such as '%d'", at: start)
                    }
                    index += 1
                    add(.argument(nil), from: start)
                }
            } else if c == "$" {
                try lexDollar()
            } else {
                try lexSymbol()
            }
        }
        tokens.append(Token(kind: .end, position: chars.count, text: ""))
    }

    // MARK: Words

    private func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
    private func isIdentifierStart(_ c: Character) -> Bool { c == "_" || c.isLetter }
    private func isIdentifierPart(_ c: Character) -> Bool { c == "_" || c.isLetter || c.isNumber }

    private mutating func readIdentifier() -> String {
        let start = index
        while let c = peek(), isIdentifierPart(c) { index += 1 }
        return String(chars[start..<index])
    }

    /// The value of `uuid(body)` or `oid(body)`.
    private static func identifier(_ word: String, _ body: String, at position: Int) throws(QueryError) -> Value {
        if word == "oid" {
            guard let id = try? ObjectId(string: body) else {
                throw QueryError("'\(body)' is not a valid ObjectId (24 hexadecimal digits)", at: position)
            }
            return .objectId(id)
        }
        guard let uuid = UUID(uuidString: body) else { throw QueryError("'\(body)' is not a valid UUID", at: position) }
        return .uuid(uuid)
    }

    /// An identifier, or one of the literal forms that start with letters: `uuid(...)`,
    /// `oid(...)`, `B64"..."`, `T<seconds>:<nanoseconds>`.
    private mutating func lexWord() throws(QueryError) {
        let start = index
        let word = readIdentifier()
        if word == "uuid" || word == "oid", peek() == "(" {
            index += 1
            let bodyStart = index
            while let c = peek(), c != ")" { index += 1 }
            guard peek() == ")" else { throw QueryError("expected ')' to close \(word)(", at: start) }
            let body = String(chars[bodyStart..<index])
            index += 1
            add(.literal(try Self.identifier(word, body, at: bodyStart)), from: start)
        } else if word == "B64", let q = peek(), q == "\"" || q == "'" {
            let bodyStart = index
            let body = try lexString(quote: q)
            guard let data = Data(base64Encoded: body) else { throw QueryError("invalid base64 data", at: bodyStart) }
            add(.literal(.data(data)), from: start)
        } else if word.first == "T", word.count > 1, word.dropFirst().allSatisfy(isDigit), peek() == ":" {
            try lexTimestamp(start: start, word: word)
        } else {
            add(.identifier(word), from: start)
        }
    }

    /// `T<seconds>:<nanoseconds>` since 1970, either part may be negative (realm-core form).
    private mutating func lexTimestamp(start: Int, word: String) throws(QueryError) {
        let secondsText = String(word.dropFirst())
        index += 1
        var nanosText = ""
        if peek() == "-" { nanosText = "-"; index += 1 }
        while let c = peek(), isDigit(c) { nanosText.append(c); index += 1 }
        guard let seconds = Int64(secondsText), let nanos = Int64(nanosText) else {
            throw QueryError("invalid timestamp; expected T<seconds>:<nanoseconds>", at: start)
        }
        let date = Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1e9)
        add(.literal(.date(date)), from: start)
    }

    // MARK: Numbers

    /// An integer, a hex integer, a floating-point number, or a date `YYYY-MM-DD@HH:MM:SS[:NANOS]`.
    private mutating func lexNumberOrDate() throws(QueryError) {
        let start = index
        if peek() == "0", let x = peek(1), x == "x" || x == "X" {
            index += 2
            let digitsStart = index
            while let c = peek(), c.isHexDigit { index += 1 }
            let digits = String(chars[digitsStart..<index])
            guard !digits.isEmpty, let bits = UInt64(digits, radix: 16) else {
                throw QueryError("invalid hexadecimal number '\(String(chars[start..<index]))'", at: start)
            }
            try checkNumberEnd(start)
            add(.literal(.int(Int64(bitPattern: bits))), from: start)
            return
        }
        if let date = try lexDate() {
            add(.literal(.date(date)), from: start)
            return
        }
        var isFloat = false
        while let c = peek(), isDigit(c) { index += 1 }
        if peek() == ".", peek(1).map(isDigit) == true || !(peek(1).map(isIdentifierStart) ?? false) {
            isFloat = true
            index += 1
            while let c = peek(), isDigit(c) { index += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var look = 1
            if let s = peek(1), s == "+" || s == "-" { look = 2 }
            if let d = peek(look), isDigit(d) {
                isFloat = true
                index += look
                while let c = peek(), isDigit(c) { index += 1 }
            }
        }
        try checkNumberEnd(start)
        let text = String(chars[start..<index])
        if isFloat {
            guard let d = Double(text) else { throw QueryError("invalid number '\(text)'", at: start) }
            // A literal the double does not hold exactly (more than 15 significant digits, or
            // beyond a double's range) stays decimal, so that a decimal128 property compares
            // with the number written; binary numbers compare with its nearest double.
            if let decimal = BID128(text: text), decimal != BID128(binary: d, digits: 15) {
                add(.literal(.decimal128(decimal)), from: start)
                return
            }
            add(.literal(.double(d)), from: start)
        } else {
            guard let i = Int64(text) else {
                throw QueryError("the number \(text) does not fit in a 64-bit integer", at: start)
            }
            add(.literal(.int(i)), from: start)
        }
    }

    /// Rejects a number running straight into a name, like `12abc`.
    private func checkNumberEnd(_ start: Int) throws(QueryError) {
        if let c = peek(), isIdentifierPart(c) {
            throw QueryError("unexpected '\(c)' after the number '\(String(chars[start..<index]))'", at: index)
        }
    }

    /// `YYYY-MM-DD@HH:MM:SS[:NANOS]` (realm-core's readable timestamp, UTC); nil and no input
    /// consumed when the text is not of that shape.
    private mutating func lexDate() throws(QueryError) -> Date? {
        func digits(_ from: Int, _ n: Int) -> Int? {
            var v = 0
            for k in 0..<n {
                guard let c = (from + k < chars.count ? chars[from + k] : nil), isDigit(c) else { return nil }
                v = v * 10 + c.wholeNumberValue!
            }
            return v
        }
        let i = index
        guard let year = digits(i, 4), chars.count > i + 10, chars[i + 4] == "-", let month = digits(i + 5, 2),
              chars[i + 7] == "-", let day = digits(i + 8, 2), chars[i + 10] == "@" || chars[i + 10] == "T"
        else { return nil }
        guard let hour = digits(i + 11, 2), chars.count > i + 16, chars[i + 13] == ":", let minute = digits(i + 14, 2),
              chars[i + 16] == ":", let second = digits(i + 17, 2)
        else { throw QueryError("invalid date; expected YYYY-MM-DD@HH:MM:SS", at: i) }
        index = i + 19
        var nanos = 0
        if peek() == ":" {
            index += 1
            let s = index
            while let c = peek(), isDigit(c), index - s < 9 { index += 1 }
            nanos = Int(String(chars[s..<index])) ?? 0
        }
        var parts = DateComponents()
        parts.calendar = Calendar(identifier: .gregorian)
        parts.timeZone = TimeZone(identifier: "UTC")
        (parts.year, parts.month, parts.day) = (year, month, day)
        (parts.hour, parts.minute, parts.second) = (hour, minute, second)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
              let date = parts.date
        else { throw QueryError("invalid date", at: i) }
        return date.addingTimeInterval(Double(nanos) / 1e9)
    }

    // MARK: Strings

    /// A quoted string with backslash escapes; `index` is at the opening quote.
    private mutating func lexString(quote: Character) throws(QueryError) -> String {
        let start = index
        index += 1
        var out = ""
        while let c = peek() {
            index += 1
            if c == quote { return out }
            guard c == "\\" else { out.append(c); continue }
            guard let e = peek() else { break }
            index += 1
            switch e {
            case "\\", "'", "\"", "/": out.append(e)
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "0": out.append("\0")
            case "b": out.append("\u{8}")
            case "f": out.append("\u{C}")
            case "u":
                let hexStart = index
                while let h = peek(), h.isHexDigit, index - hexStart < 4 { index += 1 }
                guard index - hexStart == 4, let code = UInt32(String(chars[hexStart..<index]), radix: 16),
                      let scalar = Unicode.Scalar(code)
                else { throw QueryError("invalid \\u escape; expected four hex digits of a Unicode scalar", at: hexStart - 2) }
                out.unicodeScalars.append(scalar)
            default:
                throw QueryError("unknown escape '\\\(e)' in string", at: index - 2)
            }
        }
        throw QueryError("unterminated string: no closing \(quote)", at: start)
    }

    // MARK: Arguments and symbols

    /// `$n` (value argument), `$Kn` (key-path argument) or `$name` (subquery variable).
    private mutating func lexDollar() throws(QueryError) {
        let start = index
        index += 1
        if let c = peek(), isDigit(c) {
            let n = readIdentifier()
            guard let i = Int(n), i < 1 << 20 else { throw QueryError("invalid argument '$\(n)'", at: start) }
            add(.argument(i), from: start)
            return
        }
        let name = readIdentifier()
        if name.isEmpty { throw QueryError("expected an argument number or a variable name after '$'", at: start) }
        if name.first == "K", name.count > 1, name.dropFirst().allSatisfy(isDigit) {
            guard let i = Int(name.dropFirst()), i < 1 << 20 else { throw QueryError("invalid argument '$\(name)'", at: start) }
            add(.keyPathArgument(i), from: start)
        } else {
            add(.variable(name), from: start)
        }
    }

    /// Operators and punctuation, longest match first.
    private mutating func lexSymbol() throws(QueryError) {
        let start = index
        let c = peek()!
        let two = peek(1).map { String(c) + String($0) }
        if let two, ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"].contains(two) {
            index += 2
            add(.symbol(two), from: start)
            return
        }
        if "=<>!(){}[],.-".contains(c) {
            index += 1
            add(.symbol(String(c)), from: start)
            return
        }
        throw QueryError("unexpected character '\(c)'", at: start)
    }
}
