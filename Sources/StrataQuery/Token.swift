import Foundation
import StrataStorage

/// One lexical unit of a query, with where it starts in the text.
///
/// The lexer produces the whole token list up front; the parser walks it by index. Keywords
/// (AND, BEGINSWITH, SORT, ...) are plain identifiers here and are recognised by the parser
/// in context, case-insensitively, so that a property may share a name with a keyword
/// wherever that is not ambiguous.
package struct Token: Equatable, CustomStringConvertible {
    /// What kind of token it is, with its decoded payload.
    package enum Kind: Equatable {
        /// A name: a property, a keyword, a class name after `@links`.
        case identifier(String)
        /// A name starting with `@`: `@count`, `@size`, `@sum`, `@avg`, `@min`, `@max`, `@links`.
        case atIdentifier(String)
        /// A subquery variable such as `$x`.
        case variable(String)
        /// A literal value: integer, floating-point, string, uuid, timestamp, base64 data.
        case literal(Value)
        /// A value argument: `%@` (nil: the next one in order) or `$n` (explicit index).
        case argument(Int?)
        /// A key-path argument: `%K` (nil: the next one in order) or `$Kn`.
        case keyPathArgument(Int?)
        /// An operator or punctuation: `== = != <> < <= =< > >= => && || ! ( ) { } [ ] , . -`.
        case symbol(String)
        /// The end of the query text.
        case end
    }

    /// The token's kind and payload.
    package var kind: Kind
    /// The character offset of the token's first character.
    package var position: Int
    /// The token as written, for error messages.
    package var text: String

    /// How the token reads in an error message: quoted text, or "end of input".
    package var description: String {
        if case .end = kind { return "end of input" }
        return "'\(text)'"
    }

    /// Whether the token is the given symbol.
    package func isSymbol(_ s: String) -> Bool {
        if case .symbol(let t) = kind { return t == s }
        return false
    }

    /// Whether the token is an identifier equal to `word`, ignoring ASCII case.
    package func isKeyword(_ word: String) -> Bool {
        if case .identifier(let t) = kind { return t.count == word.count && t.uppercased() == word }
        return false
    }
}
