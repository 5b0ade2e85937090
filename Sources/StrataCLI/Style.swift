import Foundation

/// Colour in human output: ANSI colours only when stdout is a terminal, `NO_COLOR` is not
/// set and `TERM` is not `dumb`; piped or redirected output is plain text.
enum Style {
    /// The colours used: green for what was added or is sound, red for what was removed or
    /// is broken, yellow for what changed and for version numbers.
    enum Colour: String {
        case green = "32", red = "31", yellow = "33"
    }

    /// Whether output is coloured (decided once, at start).
    static let isEnabled: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return isatty(1) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }()

    /// `text` in `colour`, or `text` itself when colour is off. Each line of `text` is
    /// painted on its own, its colour reset before the newline, so that no line starts with
    /// a reset and a line cut or shown alone keeps no colour.
    static func paint(_ text: String, _ colour: Colour) -> String {
        guard isEnabled else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "\u{1B}[\(colour.rawValue)m\($0)\u{1B}[0m" }.joined(separator: "\n")
    }
}
