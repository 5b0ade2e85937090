// strata-stress: multi-process scenarios against one Strata file.
//
//   strata-stress worker <role> --file F [options]   one role of a multi-process test
//   strata-stress bank [options]                     several processes moving money (Bank.swift)
//
// Worker roles (Workers.swift): insert, hold-write, read, serve, transfer.
import Foundation

/// What `strata-stress` prints for `--help` and on a usage error.
let usage = """
    usage: strata-stress worker insert --file F --from A --count N [--tag T] [--nosync]
           strata-stress worker hold-write --file F [--from A] [--count N]
           strata-stress worker read --file F
           strata-stress worker serve --file F [--nosync]
           strata-stress worker transfer --file F --count N --accounts A [--seed S] [--nosync]
           strata-stress worker migrate --file F [--hang]
           strata-stress worker old-schema --file F
           strata-stress worker async-write --file F [--from A] [--count N]
           strata-stress bank [--file F] [--processes P] [--transfers N] [--accounts A] [--nosync]

    """

let words = CommandLine.arguments.dropFirst()
do {
    switch words.first {
    case "worker":
        guard let role = words.dropFirst().first else { fail("worker needs a role") }
        try Workers.run(role, Arguments(words.dropFirst(2)))
    case "bank":
        try Bank.run(Arguments(words.dropFirst()))
    case "--help", "-h", "help":
        print(usage, terminator: "")
    case let other?:
        fail("unknown command '\(other)'")
    case nil:
        fail("no command")
    }
} catch {
    FileHandle.standardError.write(Data("strata-stress: \(error)\n".utf8))
    exit(1)
}
