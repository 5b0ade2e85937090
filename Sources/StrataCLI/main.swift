// strata: the command-line tool for Strata files.
//
//   strata <command> FILE [arguments]     see `strata help`
//   strata <command> --help               one command's usage, options, examples, exit status
//
// Each command is a type conforming to `Command` (Command.swift) in Commands/, listed in
// `commands` below; adding one there adds it to `strata help`. A command runs in a worker
// child process (CrashGuard.swift), so that a damaged file never crashes `strata`.
import Foundation

/// Every command `strata` knows, in the order `strata help` lists them.
let commands: [Command.Type] = [
    InfoCommand.self, QueryCommand.self, LogCommand.self, ShowCommand.self, DiffCommand.self, BlameCommand.self, RevertCommand.self,
    WatchCommand.self, VersionsCommand.self, CheckCommand.self, CompactCommand.self, ExportCommand.self, ImportCommand.self, DemoCommand.self,
    ReplicateCommand.self, EncryptCommand.self, DecryptCommand.self, RekeyCommand.self,
    VersionCommand.self, DemoWorkerCommand.self,
]

/// Runs `command` with `arguments` and returns the exit status: prints its help for
/// `--help`, and reports usage errors (status 2) and failures (with a hint) on stderr.
func run(_ command: Command.Type, _ arguments: [String]) -> Int32 {
    if Arguments.asksForHelp(arguments) {
        Output.lines(command.help.lines(name: command.name))
        return 0
    }
    do {
        return try command.init().run(try KeySource.extract(arguments))
    } catch let error as UsageError {
        let lines = ["\(command.name): \(error.message)"] + command.help.usage(name: command.name)
            + ["hint: 'strata \(command.name) --help' shows the options and examples"]
        Output.error(lines.joined(separator: "\n"))
        return 2
    } catch {
        let failure = CommandFailure(error)
        Output.error("\(command.name): \(failure.message)" + (failure.hint.map { "\nhint: \($0)" } ?? ""))
        return failure.status
    }
}

/// The command named `name`, or nil.
func command(named name: String) -> Command.Type? {
    commands.first { $0.name == name }
}

let words = Array(CommandLine.arguments.dropFirst())
switch words.first {
case nil, "--help", "-h":
    Output.lines(HelpText.overview(commands))
    exit(0)
case "--version":
    exit(run(VersionCommand.self, Array(words.dropFirst())))
case "help":
    guard let name = words.dropFirst().first else {
        Output.lines(HelpText.overview(commands))
        exit(0)
    }
    guard let command = command(named: name) else {
        Output.error("help: unknown command '\(name)'\nhint: 'strata help' lists the commands")
        exit(2)
    }
    exit(run(command, ["--help"]))
case let name?:
    guard let command = command(named: name) else {
        Output.error("unknown command '\(name)'\nhint: 'strata help' lists the commands")
        exit(2)
    }
    if command.runsInWorker && !CrashGuard.isWorker { exit(CrashGuard.runWorker(words, command: name)) }
    exit(run(command, Array(words.dropFirst())))
}
