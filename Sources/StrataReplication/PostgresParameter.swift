/// A parameter of a statement run with `PostgresConnection.execute(_:_:)`: text, which the
/// server converts to the parameter's type (cast it in the SQL, e.g. `$1::bigint`), raw bytes
/// for a `bytea` (sent in binary, unescaped), or SQL NULL.
public enum PostgresParameter: Sendable, Hashable {
    /// A value in PostgreSQL's text form.
    case text(String)
    /// The bytes of a `bytea`.
    case bytes([UInt8])
    /// NULL.
    case null

    /// The bytes libpq is given (text with its terminating zero), nil for NULL.
    var wireBytes: [UInt8]? {
        switch self {
        case .text(let s): Array(s.utf8) + [0]
        case .bytes(let b): b
        case .null: nil
        }
    }

    /// libpq's format code: 1 for binary, 0 for text.
    var format: Int32 {
        if case .bytes = self { return 1 }
        return 0
    }
}
