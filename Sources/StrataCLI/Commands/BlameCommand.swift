import Foundation
import StrataStorage

/// `strata blame FILE CLASS PRIMARYKEY [--json]`: every retained commit that touched one
/// object (named by primary key, or `#N` in a class without one), newest first, with its
/// process, time and old -> new values.
struct BlameCommand: Command {
    static let name = "blame"
    static let summary = "list the commits that changed one object, with old -> new values"
    static let help = HelpText(
        synopsis: "FILE CLASS PRIMARYKEY [--json]",
        description: [
            "Lists every retained version that inserted (+), deleted (-) or modified (~) the object of CLASS "
                + "with PRIMARYKEY, newest first: version, time (ISO-8601, UTC), process and pid, the changed "
                + "properties as name=old -> new (an inserted object with its values, a deleted one with the "
                + "values it had), and the commit's description. A deleted object is found by its old values. "
                + "In a class without a primary key (embedded objects too), name the object by its key as "
                + "'strata query --json' shows it: #N.",
            "Values come from the old values the history entries keep (docs/HISTORY.md). Past an entry "
                + "without them (written with historyRecordsOldValues off, or by older Strata) the commits "
                + "are listed with the property names only.",
        ],
        options: [("--json", "one JSON array of changes, newest first (docs/HISTORY.md)")],
        examples: ["strata blame app.strata Dog 7", "strata blame app.strata User alice@example.com --json",
                   "strata blame app.strata Note '#3'"],
        exitStatus: [(0, "success"), (1, "the file cannot be read, or no such object is in the retained history"),
                     (2, "bad arguments, an unknown class, or no object key #N for a class without a primary key")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        let words = try options.positional(3, "blame takes a FILE, a CLASS and a PRIMARYKEY")
        let path = words[0], className = words[1]
        let file = try StorageFile.open(path: path, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let txn = try file.beginRead()
        defer { txn.abort() }
        guard let table = try txn.table(className) else {
            throw ClassNames.unknown(className, in: Array(txn.schema.classes.keys), file: path)
        }
        let history = try ObjectHistory(txn, table, primaryKey: words[2], path: path)
        if options.has("--json") {
            Output.json(history.changes.map(HistoryJSON.ObjectChange.init))
            return 0
        }
        Output.line("\(className) \(words[2]): touched by \(Output.count(history.changes.count, "retained version"))"
                    + (history.isPartial ? " (values unknown before an entry without old values)" : ""))
        let rows = history.changes.map { change in
            [String(change.entry.version), HistoryFile.time(Date(timeIntervalSince1970: change.entry.time)),
             "\(change.entry.processName)[\(change.entry.pid)]", "\(change.sign) " + Self.detail(change),
             change.entry.description.map { "\"\($0)\"" } ?? ""]
        }
        Output.lines(Output.table(nil, rows, indent: "  ", shrinking: [[4], [3]]))
        return 0
    }

    /// `name="Rex" -> "Max", age=3 -> 4`: each property with the values known before and after.
    static func detail(_ change: ObjectHistory.Change) -> String {
        change.properties.indices.map { i in
            let name = change.properties[i].name
            switch (change.before?[i], change.after?[i]) {
            case (let old?, let new?): return "\(name)=\(old.quotedText) -> \(new.quotedText)"
            case (nil, let new?): return "\(name)=\(new.quotedText)"
            case (let old?, nil): return "\(name)=\(old.quotedText)"
            case (nil, nil): return name
            }
        }.joined(separator: ", ")
    }
}
