// strata-stress: multi-process scenarios against one Strata file.
//
//   strata-stress bank|kill|churn|growth [flags]     one scenario (Scenarios.swift)
//   strata-stress all [flags]                         every scenario in turn
//   strata-stress worker <role> --file F [options]   one process of a scenario or a test
//
// Test roles (Workers.swift): insert, hold-write, read, serve, misuse, migrate, old-schema,
// async-write, lock-byte, hold-read, fill (FileWorkers.swift). Scenario roles: bank-writer, bank-reader, bank-observer, churn (Bank/),
// growth-writer, growth-reader (Growth/).
import Foundation

/// What `strata-stress` prints for `--help` and on a usage error.
let usage = """
    usage: strata-stress bank|kill|churn|growth|all [--duration S] [--writers W] [--readers R]
                         [--observers O] [--seed N] [--file F] [--nosync]
             bank, kill, churn: [--accounts A]   churn: [--churners C]
             growth: [--hold S] [--blob-kb B] [--live N] [--mbps M]
           strata-stress worker insert --file F --from A --count N [--tag T] [--nosync]
           strata-stress worker hold-write --file F [--from A] [--count N]
           strata-stress worker read --file F
           strata-stress worker serve --file F [--nosync]
           strata-stress worker migrate --file F [--hang]
           strata-stress worker old-schema --file F
           strata-stress worker async-write --file F [--from A] [--count N]
           strata-stress worker lock-byte --path P --byte N
           strata-stress worker hold-read --file F
           strata-stress worker fill --file F --megabytes M
    The workers open an encrypted file with the key in STRATA_KEY (128 hex digits).

    """

let words = CommandLine.arguments.dropFirst()
do {
    switch words.first {
    case "worker":
        guard let role = words.dropFirst().first else { fail("worker needs a role") }
        if let scenarioRole = Role(rawValue: role) {
            try scenarioRole.run(Arguments(words.dropFirst(2)))
        } else {
            try Workers.run(role, Arguments(words.dropFirst(2)))
        }
    case "all":
        try Scenarios.runAll(Arguments(words.dropFirst()))
    case let name? where Scenarios.names.contains(name):
        try Scenarios.runOne(name, Arguments(words.dropFirst()))
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
