import Foundation
import StrataStorage

/// `strata import FILE INPUT [--json]`: adds the objects of a `strata export` file to FILE in
/// one write transaction: all of them, or none when any line is wrong. Creates FILE when it
/// does not exist, and the classes it lacks from the input's schema line, in the same
/// transaction.
struct ImportCommand: Command {
    static let name = "import"
    static let summary = "add the objects of an export to FILE, in one transaction"
    static let help = HelpText(
        synopsis: "FILE INPUT [--json]",
        description: [
            "Adds the objects in INPUT (JSON Lines as 'strata export' writes them; - reads stdin) to FILE in "
                + "one write transaction, recorded in the history as \"import INPUT\". FILE is created when it "
                + "does not exist, and the classes it lacks are created from INPUT's schema lines (the first "
                + "line of an export; concatenated exports have several), in the same transaction. Any bad line stops the import with its line "
                + "number, and nothing is written (a FILE the import would have created is not left behind).",
            "Each object line needs every property of its class except optional ones, links and lists; a "
                + "link is the target's primary key (an object of INPUT or one already in FILE), or, when the "
                + "target class has none, the \"key\" of the target's line in INPUT. A primary key already in "
                + "FILE is an error. Other processes may use FILE meanwhile; they wait for the write lock "
                + "while the import holds it. Shows progress on stderr when it is a terminal.",
        ],
        options: [("--json", "one JSON object: {\"file\", \"input\", \"objects\", \"version\", \"createdFile\", "
                   + "\"createdClasses\"}")],
        examples: ["strata export old.strata > dogs.jsonl && strata import new.strata dogs.jsonl",
                   "strata export app.strata --class Dog | strata import dogs.strata -"],
        exitStatus: [(0, "success"), (1, "a bad line, or a file that cannot be read or written (nothing written)"),
                     (2, "bad arguments")])

    /// What `import` prints.
    struct Result: Encodable {
        let file: String
        let input: String
        let objects: Int
        let version: UInt64
        let createdFile: Bool
        let createdClasses: [String]
    }

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        let words = try options.positional(2, "import takes a FILE and an INPUT file")
        let path = words[0], input = words[1]
        guard let lines = InputLines.read(input) else {
            throw CommandFailure("cannot read '\(input)'", hint: "give the path of a file 'strata export' wrote, or - for stdin")
        }
        let isNew = !FileManager.default.fileExists(atPath: path)
        let result: Result
        do {
            result = try Self.add(lines, to: path, from: input, isNew: isNew)
        } catch {
            if isNew { _ = try? StorageFile.deleteFiles(path: path) }
            guard let bad = error as? LineError else { throw error }
            let unchanged = isNew ? "'\(path)' was not created" : "'\(path)' is unchanged"
            throw CommandFailure("\(input) line \(bad.line): \(bad.message); nothing was imported",
                                 hint: "correct line \(bad.line) and run the import again; \(unchanged)")
        }
        if options.has("--json") {
            Output.json(result)
        } else {
            let created = result.createdClasses.isEmpty ? "" : "; created \(result.createdClasses.joined(separator: ", "))"
            Output.line("\(path): imported \(Output.count(result.objects, "object")) at version \(result.version)\(created)")
        }
        return 0
    }

    /// Opens (or creates) `path` and adds `lines` in one write transaction; the file is
    /// closed again when this returns, so that a new one can be removed after a failure.
    private static func add(_ lines: InputLines, to path: String, from input: String, isNew: Bool) throws -> Result {
        let file = try StorageFile.open(path: path, options: .init(readOnly: false, encryptionKey: try KeySource.key()))
        let txn = try file.beginWrite()
        var committed = false
        defer { if !committed { txn.abort() } }
        let progress = Progress("importing", unit: "lines", total: lines.count)
        defer { progress.finish() }
        let importer = ObjectImporter(txn)
        var createdClasses: [String] = []
        for (number, bytes) in lines {
            progress.update(number)
            let json: JSONValue
            do { json = try JSONValue.parse(bytes) } catch { throw LineError(line: number, message: "\(error)") }
            if let schema = try ImportSchema.schema(json, bytes, line: number) {
                createdClasses += try ImportSchema.apply(schema.schema, line: number, txn)
            } else {
                try importer.add(json, line: number)
            }
        }
        progress.finish()
        let linking = Progress("linking", unit: "objects", total: importer.pendingCount)
        defer { linking.finish() }
        try importer.linkAll { linking.update($0) }
        linking.finish()
        txn.commitDescription = "import \(input == "-" ? "stdin" : URL(fileURLWithPath: input).lastPathComponent)"
        let version = try txn.commit(processName: "strata", pid: getpid())
        committed = true
        return Result(file: path, input: input, objects: importer.count, version: version, createdFile: isNew,
                      createdClasses: createdClasses)
    }
}
