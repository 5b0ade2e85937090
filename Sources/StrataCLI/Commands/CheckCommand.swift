import Foundation
import StrataStorage

/// `strata check FILE [--json]`: verifies the file's structures (rows, indexes, primary keys,
/// links, lists, backlinks, history, checksums) on one snapshot, while other processes keep working. Exit status
/// 0 when consistent, 1 with the first inconsistency.
struct CheckCommand: Command {
    static let name = "check"
    static let summary = "verify rows, indexes, keys, links, lists and backlinks"
    static let help = HelpText(
        synopsis: "FILE [--json]",
        description: [
            "Verifies FILE on one snapshot, while other processes keep reading and writing it: every row "
                + "decodes; every index entry matches its row and every row has its entries; primary keys are "
                + "unique; every link and list member points at an existing object and has its backlink, and "
                + "every backlink stands for a link; every list's directory matches its chunks; every history "
                + "entry decodes; every row, list and history record matches its checksum (format 3 files). "
                + "A file LMDB opens at an older version than the one last committed to it is reported as "
                + "rolled back. The check runs in a worker process: damage that crashes the reader is "
                + "reported as damage (exit status 1). Stops at the first inconsistency. Shows progress on "
                + "stderr when it is a terminal.",
        ],
        options: [("--json", "one JSON object: the counts, \"consistent\" and \"problem\" (also on failure)")],
        examples: ["strata check app.strata", "strata check app.strata --json"],
        exitStatus: [(0, "consistent"), (1, "inconsistent (the first problem on stderr), or the file cannot be read"),
                     (2, "bad arguments")])

    /// What `check --json` prints.
    struct Result: Encodable {
        let file: String
        let version: UInt64
        let consistent: Bool
        @NullWhenNil var problem: String?
        let classes, objects, indexEntries, links, listElements: Int
    }

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        let path = try options.positional(1, "check takes one FILE")[0]
        let file = try StorageFile.open(path: path, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let txn = try file.beginRead()
        defer { txn.abort() }
        var total = 0
        for schema in txn.schema.sorted { if let table = try txn.table(schema.name) { total += try txn.rows.count(table) } }
        let progress = Progress("checking", unit: "objects", total: total)
        defer { progress.finish() }
        let outcome: Result
        do {
            let report = try IntegrityCheck.run(txn) { progress.update($0) }
            progress.finish()
            outcome = Result(file: path, version: txn.version, consistent: true, problem: nil, classes: report.classes,
                             objects: report.objects, indexEntries: report.indexEntries, links: report.links,
                             listElements: report.listElements)
        } catch let problem where problem is IntegrityCheck.Problem || (problem as? StorageError)?.code == .invalidDatabase {
            progress.finish()
            if options.has("--json") {
                Output.json(Result(file: path, version: txn.version, consistent: false, problem: "\(problem)",
                                   classes: 0, objects: 0, indexEntries: 0, links: 0, listElements: 0))
            }
            throw CommandFailure("'\(path)' is inconsistent at version \(txn.version): \(problem)",
                                 hint: "keep a copy of the file as it is; 'strata export' saves the objects that still read")
        }
        if options.has("--json") {
            Output.json(outcome)
        } else {
            let rows = [["file", path], ["version", String(outcome.version)],
                        ["classes", Output.grouped(outcome.classes)], ["objects", Output.grouped(outcome.objects)],
                        ["index entries", Output.grouped(outcome.indexEntries)], ["links", Output.grouped(outcome.links)],
                        ["list elements", Output.grouped(outcome.listElements)]]
            Output.lines(Output.table(nil, rows, indent: "", shrinking: []))
            Output.line("result         \(Style.paint("consistent", .green))")
        }
        return 0
    }
}
