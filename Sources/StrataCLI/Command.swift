import Foundation

/// One `strata` subcommand.
protocol Command {
    /// The word that selects it (`strata <name>`).
    static var name: String { get }
    /// Its arguments, for `strata help` and usage errors.
    static var usage: String { get }
    /// One line saying what it does.
    static var summary: String { get }
    /// Whether `strata help` lists it (internal commands are hidden).
    static var isListed: Bool { get }
    init()
    /// Runs the command with the arguments after its name; returns the exit status.
    /// Throws `UsageError` for bad arguments (exit status 2).
    func run(_ arguments: [String]) throws -> Int32
}

extension Command {
    static var isListed: Bool { true }
}

/// Bad command-line arguments: reported with the command's usage, exit status 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The text of `strata help`.
enum Help {
    static func text(_ commands: [Command.Type]) -> String {
        let listed = commands.filter { $0.isListed }
        let width = listed.map { $0.usage.count }.max() ?? 0
        var lines = ["strata: a command-line tool for Strata database files", "",
                     "usage: strata <command> [arguments]", "", "commands:"]
        for command in listed {
            lines.append("  " + command.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + command.summary)
        }
        lines.append("  " + "help".padding(toLength: width, withPad: " ", startingAt: 0) + "  show this list")
        return lines.joined(separator: "\n")
    }
}
