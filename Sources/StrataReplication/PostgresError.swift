import Foundation

/// A failure reported by PostgreSQL or by libpq: a connection that could not be made or was
/// lost, or a statement the server refused. `message` is PostgreSQL's own text.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// What PostgreSQL (or libpq) said, without its trailing newline.
    public let message: String
    /// The five-character SQLSTATE of a refused statement (e.g. `23505`), nil for a
    /// connection failure.
    public let sqlState: String?
    /// Whether the connection was lost or never made (the statement may be retried on a new one).
    public let isConnectionFailure: Bool

    /// An error saying `message`.
    public init(_ message: String, sqlState: String? = nil, isConnectionFailure: Bool = false) {
        self.message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        self.sqlState = sqlState
        self.isConnectionFailure = isConnectionFailure
    }

    /// `PostgreSQL: ` and the message.
    public var description: String { "PostgreSQL: \(message)" }
}

