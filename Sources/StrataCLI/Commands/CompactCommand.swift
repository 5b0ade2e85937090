import Foundation
import StrataStorage

/// `strata compact FILE OUT [--json]`: writes a compacted copy of FILE to OUT (which must not
/// exist), using LMDB's compacting copy: one consistent version, even while other processes
/// write.
struct CompactCommand: Command {
    static let name = "compact"
    static let summary = "write a compacted copy of FILE to a new file"
    static let help = HelpText(
        synopsis: "FILE OUT [--json]",
        description: [
            "Writes a copy of FILE to OUT, a new file, holding one consistent version (the newest when the "
                + "copy starts) while other processes keep writing FILE. The copy keeps the data, the schema "
                + "and the retained history and leaves out free pages, so it is as small as the data allows. "
                + "FILE itself is not changed: replace it with OUT only when no process has it open. Shows "
                + "progress on stderr when it is a terminal.",
        ],
        options: [("--json", "one JSON object: {\"file\", \"bytes\", \"out\", \"outBytes\"}")],
        examples: ["strata compact app.strata app-compacted.strata"],
        exitStatus: [(0, "success"), (1, "FILE cannot be read, or OUT exists or cannot be written"),
                     (2, "bad arguments")])

    /// What `compact --json` prints.
    struct Result: Encodable {
        let file: String
        let bytes: Int
        let out: String
        let outBytes: Int
    }

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        let words = try options.positional(2, "compact takes a FILE and an OUT path")
        let source = words[0], destination = words[1]
        if FileManager.default.fileExists(atPath: destination) {
            throw CommandFailure("'\(destination)' exists", hint: "give the name of a new file, or remove '\(destination)' first")
        }
        let file = try StorageFile.open(path: source, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let (before, used) = try file.sizes()
        let progress = Progress("compacting", unit: "KiB", total: used / 1024) { Self.size(destination) / 1024 }
        defer { progress.finish() }
        try file.writeCompactedCopy(to: destination)
        progress.finish()
        let result = Result(file: source, bytes: before, out: destination, outBytes: Self.size(destination))
        if options.has("--json") {
            Output.json(result)
        } else {
            let percent = before > 0 ? " (\(result.outBytes * 100 / before)% of FILE)" : ""
            let rows = [["file", source, "\(Output.grouped(result.bytes)) bytes"],
                        ["copy", destination, "\(Output.grouped(result.outBytes)) bytes\(percent)"]]
            Output.lines(Output.table(nil, rows, indent: "", shrinking: []))
        }
        return 0
    }

    /// The length of the file at `path` (0 while it does not exist).
    private static func size(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }
}
