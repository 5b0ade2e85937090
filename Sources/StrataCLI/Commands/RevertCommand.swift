import Foundation
import StrataStorage

/// `strata revert FILE VERSION [--json]`: one new commit that undoes commit VERSION.
struct RevertCommand: Command {
    static let name = "revert"
    static let summary = "undo one commit with a new commit"
    static let help = HelpText(
        synopsis: "FILE VERSION [--json]",
        description: [
            "Makes one new commit, described \"Revert version VERSION\", that undoes commit VERSION: the "
                + "objects it inserted are deleted, those it deleted come back (with a new object key where keys "
                + "are not primary keys), and the properties it modified get the values they had before it, "
                + "read from the old values its history entry keeps (docs/HISTORY.md).",
            "It refuses, changing nothing, when a later commit changed the same properties of the same "
                + "objects, or deleted or inserted them again: each conflicting object and property is named "
                + "with the version that changed it. Commits that changed embedded objects, and entries "
                + "without old values, cannot be reverted.",
        ],
        options: [("--json", "one JSON object: {\"reverted\": VERSION, \"version\": the new version}")],
        examples: ["strata revert app.strata 1207"],
        exitStatus: [(0, "success"), (1, "the file cannot be written, VERSION is not retained, or it conflicts with later commits"),
                     (2, "bad arguments")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        let words = try options.positional(2, "revert takes a FILE and a VERSION")
        let path = words[0], version = try Arguments.version(words[1])
        let file = try StorageFile.open(path: path, options: .init(encryptionKey: try KeySource.key()))
        let txn = try file.beginWrite()
        defer { txn.abort() }
        guard let entry = try txn.history.entry(version) else {
            let bounds = try txn.history.bounds()
            let retained = bounds.oldest.flatMap { o in bounds.newest.map { "\(o) to \($0)" } } ?? "none"
            throw CommandFailure("version \(version) is not in the retained history of '\(path)' (retained: \(retained))",
                                 hint: "'strata log \(path)' lists the retained versions")
        }
        let conflicts = try txn.revertConflicts(entry)
        guard conflicts.isEmpty else {
            throw CommandFailure("version \(version) cannot be reverted: later commits changed what it changed:\n"
                                 + conflicts.map { "  " + $0 }.joined(separator: "\n"),
                                 hint: "revert the later commits first (newest first), or change the objects with a write of your own")
        }
        try txn.revert(entry)
        txn.commitDescription = "Revert version \(version)"
        let newVersion = try txn.commit(processName: "strata", pid: getpid())
        if options.has("--json") {
            Output.json(["reverted": version, "version": newVersion])
        } else {
            Output.line("reverted version \(version) in version \(Style.paint(String(newVersion), .yellow))")
        }
        return 0
    }
}
