/// A command's help, in the same sections for every command: usage, what it does, options,
/// examples, exit status. Rendered to fit the output width.
struct HelpText {
    /// The arguments after `strata <name>`, e.g. `FILE [--json]`.
    var synopsis: String
    /// Paragraphs saying what the command does; a paragraph starting with two spaces is
    /// printed as it is (a sample line), the others are wrapped.
    var description: [String]
    /// Each option and what it does (`-h, --help` is added to every command).
    var options: [(String, String)] = []
    /// Complete command lines.
    var examples: [String]
    /// Each exit status and when it happens.
    var exitStatus: [(Int32, String)]

    /// `usage: strata <name> <synopsis>`, wrapped between bracketed groups, continued under
    /// the synopsis.
    func usage(name: String, width: Int = Output.width) -> [String] {
        var groups: [String] = [], current = "", depth = 0
        for c in synopsis {
            if c == " " && depth == 0 {
                if !current.isEmpty { groups.append(current) }
                current = ""
                continue
            }
            if c == "[" { depth += 1 } else if c == "]" { depth -= 1 }
            current.append(c)
        }
        if !current.isEmpty { groups.append(current) }
        let first = "usage: strata \(name) "
        return Output.wrap(words: groups, width: width, first: first, rest: String(repeating: " ", count: first.count))
    }

    /// The help as lines for `strata <name> --help`.
    func lines(name: String, width: Int = Output.width) -> [String] {
        var lines = usage(name: name, width: width)
        for paragraph in description {
            lines.append("")
            lines += paragraph.hasPrefix("  ") ? [paragraph] : Output.wrap(paragraph, width: width)
        }
        lines += ["", "options:"] + Self.definitions(options + [("-h, --help", "print this help")], width: width)
        lines += ["", examples.count == 1 ? "example:" : "examples:"] + examples.map { "  " + $0 }
        lines += ["", "exit status:"] + Self.definitions(exitStatus.map { (String($0.0), $0.1) }, width: width)
        return lines
    }

    /// Terms in a column, each definition wrapped beside its term.
    private static func definitions(_ items: [(String, String)], width: Int) -> [String] {
        let column = (items.map(\.0.count).max() ?? 0) + 4
        return items.flatMap { term, text in
            let first = "  " + term + String(repeating: " ", count: column - 2 - term.count)
            return Output.wrap(text, width: width, first: first, rest: String(repeating: " ", count: column))
        }
    }

    /// The text of `strata help`: every listed command with its summary.
    static func overview(_ commands: [Command.Type], width: Int = Output.width) -> [String] {
        let listed = commands.filter { $0.isListed }
        var lines = ["strata: looks into Strata database files while other processes use them", "",
                     "usage: strata <command> FILE [arguments]",
                     "       strata <command> --help    (or: strata help <command>)", "", "commands:"]
        lines += Output.table(nil, listed.map { [$0.name, $0.summary] } + [["help", "this list, or one command's help"]],
                              width: width, shrinking: [[1]])
        lines.append("")
        lines += Output.wrap("Errors go to stderr with a hint. Exit status: 0 success, 1 failure, 2 bad arguments. "
                             + "--json prints the data of any command as JSON (docs/INSPECTOR.md). Only compact, "
                             + "import, revert and demo write Strata files (and log --chart its picture); the others "
                             + "read one snapshot while other processes keep working. Options take --opt=value too.",
                             width: width)
        return lines
    }
}
