import Foundation
import Strata

/// `strata diff FILE A B [--json]`: the net changes from version A to version B.
struct DiffCommand: Command {
    static let name = "diff"
    static let usage = "diff FILE A B [--json]"
    static let summary = "show what changed between two retained versions"
    static let help = """
        usage: strata diff FILE A B [--json]

        Shows what changed from version A to version B (A <= B), netted over the commits
        A+1 ... B, per class and object: inserted (+), deleted (-), modified (~) with the
        names of the properties changed by any of those commits. An object inserted and
        deleted in between does not appear; one inserted and then modified is inserted.
        Both versions must be in the retained history (see `strata log`).

        options:
          --json   one JSON object (docs/HISTORY.md)

        example:
          strata diff app.strata 1200 1207

        exit status: 0 success, 1 the file cannot be read or A or B is not retained,
        2 bad arguments
        """

    func run(_ arguments: [String]) throws -> Int32 {
        if HistoryCLI.wantsHelp(arguments) { Output.line(Self.help); return 0 }
        let options = HistoryCLI.Options(arguments, valued: [])
        let words = try options.positional(3, "diff takes a FILE and two versions A B")
        let from = try HistoryCLI.version(words[1]), to = try HistoryCLI.version(words[2])
        guard from <= to else { throw UsageError("version A (\(from)) is above version B (\(to)): give the older version first") }
        return try HistoryCLI.reading(words[0], command: Self.name) { realm in
            guard let retained = realm.retainedHistory, retained.contains(from), retained.contains(to) else {
                let which = [from, to].filter { !(realm.retainedHistory?.contains($0) ?? false) }.map(String.init)
                Output.error("diff: version \(which.joined(separator: " and ")) is not in the retained history of '\(words[0])' (retained: \(HistoryCLI.retained(realm)))")
                return 1
            }
            let classes = try realm.changes(from: from, to: to)
            if options.json {
                HistoryCLI.printJSON(Document(from: from, to: to, classes: classes.map(HistoryJSON.ClassDetail.init)))
                return 0
            }
            let commits = to - from
            Output.line("from version \(from) to version \(to) (\(commits) commit\(commits == 1 ? "" : "s")): \(LogCommand.summary(classes))")
            for c in classes {
                Output.line()
                for line in HistoryCLI.objectLines(c) { Output.line(line) }
            }
            return 0
        }
    }

    /// `{"from": A, "to": B, "classes": [class in full]}`.
    struct Document: Encodable {
        let from: UInt64
        let to: UInt64
        let classes: [HistoryJSON.ClassDetail]
    }
}
