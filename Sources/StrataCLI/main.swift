// strata: the command-line tool for Strata files.
//
//   strata <command> [arguments]     see `strata help`
//
// Each command is a type conforming to `Command` (Command.swift) in Commands/, listed in
// `commands` below; adding one there adds it to `strata help`.
import Foundation

/// Every command `strata` knows, in the order `strata help` lists them.
let commands: [Command.Type] = [DemoCommand.self, CheckCommand.self, CompactCommand.self, LogCommand.self, ShowCommand.self, DiffCommand.self, QueryCommand.self, InfoCommand.self, ExportCommand.self, ImportCommand.self, DemoWorkerCommand.self]

let words = Array(CommandLine.arguments.dropFirst())
switch words.first {
case nil, "help", "--help", "-h":
    Output.line(Help.text(commands))
    exit(0)
case let name?:
    guard let command = commands.first(where: { $0.name == name }) else {
        Output.error("unknown command '\(name)'; run 'strata help' for the list")
        exit(2)
    }
    do {
        exit(try command.init().run(Array(words.dropFirst())))
    } catch let error as UsageError {
        Output.error("\(error.message)\nusage: strata \(command.usage)")
        exit(2)
    } catch {
        Output.error("\(name): \(error)")
        exit(1)
    }
}
