import Foundation
import Strata

/// `strata show FILE VERSION [--json]`: one history entry in full.
struct ShowCommand: Command {
    static let name = "show"
    static let summary = "show one version's change set in full"
    static let help = HelpText(
        synopsis: "FILE VERSION [--json]",
        description: [
            "Shows the history entry of VERSION: time (ISO-8601, UTC), process and pid, description, and per "
                + "class the inserted (+), deleted (-) and modified (~) objects, by primary key (or #objectKey), "
                + "with the names of the modified properties.",
            "Values are printed as name=value: a modified property as old -> new, a deleted object with "
                + "the values it had, an inserted one with those it was given. They are read from the old "
                + "values the later history entries keep (docs/HISTORY.md); in a file whose entries keep "
                + "none, only the properties no later commit changed are known, and the others are printed by name.",
        ],
        options: [("--json", "one JSON object (docs/HISTORY.md)")],
        examples: ["strata show app.strata 1207", "strata show app.strata 1207 --json"],
        exitStatus: [(0, "success"), (1, "the file cannot be read or VERSION is not retained"), (2, "bad arguments")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        let words = try options.positional(2, "show takes a FILE and a VERSION")
        let path = words[0], version = try Arguments.version(words[1])
        let (entry, reports) = try HistoryFile.reading(path) { realm -> (Realm.HistoryEntry, [ChangeReport]) in
            guard let entry = try realm.historyEntry(version: version) else {
                throw HistoryFile.notRetained([version], in: realm, path: path)
            }
            return (entry, try ChangeReport.reports(entry.classes, path: path, from: version - 1, to: version))
        }
        if options.has("--json") {
            Output.json(HistoryJSON.Entry(entry: entry, classes: reports.map(\.json)))
            return 0
        }
        Output.line("version      \(Style.paint(String(entry.version), .yellow))")
        Output.line("time         \(HistoryFile.time(entry.date))")
        Output.line("process      \(entry.processName) (pid \(entry.pid))")
        if let d = entry.description { Output.line("description  \(d)") }
        Output.line("changes      \(ChangeReport.summary(entry.classes))")
        for report in reports {
            Output.line()
            Output.lines(report.lines())
        }
        return 0
    }
}
