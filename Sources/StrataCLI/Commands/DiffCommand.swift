import Foundation
import Strata

/// `strata diff FILE A B [--json]`: the net changes from version A to version B.
struct DiffCommand: Command {
    static let name = "diff"
    static let summary = "show what changed between two retained versions"
    static let help = HelpText(
        synopsis: "FILE A B [--json]",
        description: [
            "Shows what changed from version A to version B (A <= B), netted over the commits A+1 ... B, per "
                + "class and object: inserted (+), deleted (-), modified (~) with the names of the properties "
                + "changed by any of those commits. An object inserted and deleted in between does not appear; "
                + "one inserted and then modified is inserted. Both versions must be in the retained history "
                + "(see 'strata log').",
            "Values are those of versions A and B: a modified property as name=old -> new, a deleted object "
                + "with its values at A, an inserted one with its values at B. They come from the old values "
                + "the history entries keep; in a file whose entries keep none, only the values no commit "
                + "after B changed are known, and the other properties are printed by name.",
        ],
        options: [("--json", "one JSON object (docs/HISTORY.md)")],
        examples: ["strata diff app.strata 1200 1207", "strata diff app.strata 1200 1207 --json"],
        exitStatus: [(0, "success"), (1, "the file cannot be read, or A or B is not retained"), (2, "bad arguments")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        let words = try options.positional(3, "diff takes a FILE and two versions A B")
        let path = words[0]
        let from = try Arguments.version(words[1]), to = try Arguments.version(words[2])
        guard from <= to else { throw UsageError("version A (\(from)) is above version B (\(to)): give the older version first") }
        let (classes, reports) = try HistoryFile.reading(path) { realm -> ([Realm.HistoryEntry.ClassChanges], [ChangeReport]) in
            let missing = [from, to].filter { !(realm.retainedHistory?.contains($0) ?? false) }
            guard missing.isEmpty else { throw HistoryFile.notRetained(missing, in: realm, path: path) }
            let classes = try realm.changes(from: from, to: to)
            return (classes, try ChangeReport.reports(classes, path: path, from: from, to: to))
        }
        if options.has("--json") {
            Output.json(HistoryJSON.Range(from: from, to: to, classes: reports.map(\.json)))
            return 0
        }
        let commits = Output.count(Int(to - from), "commit")
        Output.line("from version \(from) to version \(to) (\(commits)): \(ChangeReport.summary(classes))")
        for report in reports {
            Output.line()
            Output.lines(report.lines())
        }
        return 0
    }
}
