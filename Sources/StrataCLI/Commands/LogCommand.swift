import Foundation
import Strata

/// `strata log FILE [--since VERSION] [--limit N] [--class C] [--process NAME] [--json |
/// --chart OUT.svg]`: the retained history, newest first, one line per version, or as a chart.
struct LogCommand: Command {
    static let name = "log"
    static let summary = "list the retained history, newest first"
    static let help = HelpText(
        synopsis: "FILE [--since VERSION] [--limit N] [--class CLASS] [--process NAME] [--json | --chart OUT.svg]",
        description: [
            "Lists the retained history entries of FILE, newest first, one line per version: version, time "
                + "(ISO-8601, UTC), process name and pid, per class +inserted -deleted ~modified(properties) "
                + "(\"cleared\" when the class was emptied), and the description in quotes. Long descriptions, "
                + "then change lists, are shortened to fit the width; 'strata show' prints an entry in full.",
            "--chart OUT.svg draws the same entries as an SVG picture instead: commits over time stacked by "
                + "process, commits that changed each class over time, the objects changed over versions, and "
                + "the file's size in use over versions (the pages each version reaches, as the next entry "
                + "records them); stdout gets a compact terminal chart of the same counts.",
        ],
        options: [("--since VERSION", "only versions above VERSION"),
                  ("--limit N, -n N", "at most N lines (after the other filters)"),
                  ("--class CLASS", "only commits that changed CLASS"),
                  ("--process NAME", "only commits by processes named NAME (or with pid NAME)"),
                  ("--json", "a JSON array of entries (docs/HISTORY.md)"),
                  ("--chart OUT.svg", "write the chart to OUT.svg (replacing it) and print a terminal chart")],
        examples: ["strata log app.strata --limit 20",
                   "strata log app.strata --class Dog --process 4242",
                   "strata log app.strata --since 1200 --json",
                   "strata log app.strata --chart history.svg"],
        exitStatus: [(0, "success"), (1, "the file cannot be read, or the chart has no entries or cannot be written"),
                     (2, "bad arguments")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"], valued: ["--since", "--limit", "--class", "--process", "--chart"],
                                    short: ["-n": "--limit"])
        let file = try options.positional(1, "log takes one FILE")[0]
        let since = try options.number("--since")
        let limit = try options.count("--limit")
        let className = options.value("--class"), process = options.value("--process")
        let chart = options.value("--chart")
        if chart != nil && options.has("--json") { throw UsageError("--chart and --json cannot be given together") }
        let entries = try HistoryFile.reading(file) { realm in
            try realm.history(since: since, limit: limit) { entry in
                if let className, entry.changes.classes[className].map({ !$0.isEmpty }) != true { return false }
                if let process, entry.processName != process, String(entry.pid) != process { return false }
                return true
            }
        }
        if let chart {
            try ChartFile.write(entries, of: file, to: chart)
        } else if options.has("--json") {
            Output.json(entries.map { HistoryJSON.Entry(entry: $0, classes: $0.classes.map(HistoryJSON.ClassSummary.init)) })
        } else {
            Output.lines(Self.lines(entries))
        }
        return 0
    }

    /// One aligned line per entry, fitted to the output width by shortening the description,
    /// then the changes (the description column is left out when no entry has one).
    static func lines(_ entries: [Realm.HistoryEntry]) -> [String] {
        let described = entries.contains { $0.description != nil }
        let rows = entries.map { entry in
            [String(entry.version), HistoryFile.time(entry.date), "\(entry.processName)[\(entry.pid)]",
             ChangeReport.summary(entry.classes)] + (described ? [entry.description.map { "\"\($0)\"" } ?? ""] : [])
        }
        let width = rows.map { $0[0].count }.max() ?? 0
        return Output.table(nil, rows, indent: "", shrinking: described ? [[4], [3]] : [[3]]).map { line in
            Style.paint(String(line.prefix(width)), .yellow) + line.dropFirst(width)
        }
    }
}
