import Foundation
import Strata

/// `strata show FILE VERSION [--json]`: one history entry in full.
struct ShowCommand: Command {
    static let name = "show"
    static let usage = "show FILE VERSION [--json]"
    static let summary = "show one version's change set in full"
    static let help = """
        usage: strata show FILE VERSION [--json]

        Shows the history entry of VERSION: time (ISO-8601, UTC), process and pid,
        description, and per class the inserted (+), deleted (-) and modified (~) objects,
        by primary key (or #objectKey), with the names of the modified properties.

        options:
          --json   one JSON object (docs/HISTORY.md)

        example:
          strata show app.strata 1207

        exit status: 0 success, 1 the file cannot be read or VERSION is not retained,
        2 bad arguments
        """

    func run(_ arguments: [String]) throws -> Int32 {
        if HistoryCLI.wantsHelp(arguments) { Output.line(Self.help); return 0 }
        let options = HistoryCLI.Options(arguments, valued: [])
        let words = try options.positional(2, "show takes a FILE and a VERSION")
        let version = try HistoryCLI.version(words[1])
        return try HistoryCLI.reading(words[0], command: Self.name) { realm in
            guard let entry = try realm.historyEntry(version: version) else {
                Output.error("show: version \(version) is not in the retained history of '\(words[0])' (retained: \(HistoryCLI.retained(realm)))")
                return 1
            }
            if options.json {
                HistoryCLI.printJSON(HistoryJSON.Detail(entry))
                return 0
            }
            Output.line("version      \(entry.version)")
            Output.line("time         \(HistoryCLI.time(entry.date))")
            Output.line("process      \(entry.processName) (pid \(entry.pid))")
            if let d = entry.description { Output.line("description  \(d)") }
            Output.line("changes      \(LogCommand.summary(entry.classes))")
            for c in entry.classes {
                Output.line()
                for line in HistoryCLI.objectLines(c) { Output.line(line) }
            }
            return 0
        }
    }
}
