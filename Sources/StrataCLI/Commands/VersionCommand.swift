import StrataStorage

/// `strata version [--json]` (also `strata --version`): the file format of the files this
/// `strata` creates, the newest it reads.
struct VersionCommand: Command {
    static let name = "version"
    static let runsInWorker = false
    static let summary = "print the file format this strata reads and writes"
    static let help = HelpText(
        synopsis: "[--json]",
        description: [
            "Prints the Strata file format of the files this strata creates, which is also the newest it "
                + "reads: it reads and writes files of formats 1 to that one, keeping each file's format "
                + "(docs/FILE-FORMAT.md). 'strata --version' is the same.",
        ],
        options: [("--json", "one JSON object: {\"program\": \"strata\", \"fileFormat\": N}")],
        examples: ["strata version", "strata --version"],
        exitStatus: [(0, "success"), (2, "bad arguments")])

    /// What `version --json` prints.
    struct Result: Encodable {
        let program: String
        let fileFormat: UInt32
    }

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        _ = try options.positional(0, "version takes no arguments")
        let format = StorageFile.formatVersion
        if options.has("--json") {
            Output.json(Result(program: "strata", fileFormat: format))
        } else {
            Output.line("strata, Strata file format \(format) (reads and writes formats 1 to \(format))")
        }
        return 0
    }
}
