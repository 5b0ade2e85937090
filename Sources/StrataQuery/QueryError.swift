import Foundation

/// A query that cannot be parsed, resolved against its class, or bound to its arguments.
///
/// Thrown by every stage of the query pipeline. `position` is the character offset
/// (0-based, counted in `Character`s of the query text) where the problem was found, so a
/// person can see which part of a long query to fix; it is nil when the problem has no place
/// in the text (for example, too many arguments).
package struct QueryError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong, phrased for a person: names the token, property, operator or argument.
    package var message: String
    /// The character offset in the query text, or nil when the problem is not at one place.
    package var position: Int?

    /// Creates an error with a message and an optional position.
    package init(_ message: String, at position: Int?) {
        self.message = message
        self.position = position
    }

    /// "Invalid query at position 12: expected a value after '>', found end of input", or
    /// "Invalid query: ..." when there is no position.
    package var description: String {
        if let position { return "Invalid query at position \(position): \(message)" }
        return "Invalid query: \(message)"
    }
}

extension QueryError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` is useful too.
    package var errorDescription: String? { description }
}
