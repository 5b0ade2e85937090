/// One `strata` subcommand.
protocol Command {
    /// The word that selects it (`strata <name>`).
    static var name: String { get }
    /// One line saying what it does, for `strata help`.
    static var summary: String { get }
    /// What `strata <name> --help` prints: synopsis, options, examples, exit status.
    static var help: HelpText { get }
    /// Whether `strata help` lists it (internal commands are hidden).
    static var isListed: Bool { get }
    /// Whether it runs in a worker child process (CrashGuard), so that a damaged file cannot
    /// crash `strata`. False for the commands whose own process others must see in the
    /// file's registry (`watch`, `versions`, `demo`); they read no objects.
    static var runsInWorker: Bool { get }
    init()
    /// Runs the command with the arguments after its name; returns the exit status.
    /// Throws `UsageError` for bad arguments (exit status 2), `CommandFailure` for a
    /// failure with its status and hint; other errors exit with status 1.
    func run(_ arguments: [String]) throws -> Int32
}

extension Command {
    static var isListed: Bool { true }
    static var runsInWorker: Bool { true }
}

/// Bad command-line arguments: reported with the command's usage, exit status 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
