/// The error a value type's string initializer throws for text that is not a value of the
/// type (for example `ObjectId(string:)` given something other than 24 hexadecimal digits).
public struct ValueParsingError: Error, CustomStringConvertible, Sendable {
    /// The name of the type the text was read as, such as `"ObjectId"`.
    public let typeName: String
    /// The text that was given.
    public let text: String
    /// What the text should have been.
    public let expected: String

    /// An error for `text` read as `typeName`, which should have been `expected`.
    public init(typeName: String, text: String, expected: String) {
        self.typeName = typeName
        self.text = text
        self.expected = expected
    }

    /// The message, naming the type, the text and what was expected.
    public var description: String {
        "Invalid \(typeName) string '\(text)': expected \(expected)"
    }
}
