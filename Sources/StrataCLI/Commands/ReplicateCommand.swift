import Foundation
import Strata
import StrataReplication

/// `strata replicate push FILE --to CONNINFO [--follow] [--batch N] [--decrypted-log]`: appends FILE's commits,
/// in version order, to the log table of a PostgreSQL database (docs/REPLICATION.md).
struct ReplicateCommand: Command {
    static let name = "replicate"
    // A following pusher runs until it is stopped; killing it must stop it, not a worker
    // it would leave behind.
    static let runsInWorker = false
    static let summary = "push the file's commits to a log table in PostgreSQL"
    static let help = HelpText(
        synopsis: "push FILE --to CONNINFO [--follow] [--batch N] [--decrypted-log]",
        description: [
            "Appends every retained commit of FILE that the PostgreSQL database of CONNINFO does not hold yet to its table "
                + "strata_log (origin, version, time, pid, process, entry), in version order, one PostgreSQL transaction per "
                + "batch; the tables are created when absent. The origin is FILE's replication id, given to it (in a commit "
                + "described \"Replication origin assigned\") by its first push. PostgreSQL is the truth for where to "
                + "resume, so a push killed at any point, or run again, leaves every version in the log exactly once.",
            "With --follow it keeps pushing as commits arrive, from any process, until it is stopped. It fails when FILE's "
                + "history no longer holds the next version the log needs (the retention removed it).",
        ],
        options: [("--to CONNINFO", "libpq's connection string, e.g. 'host=/var/run/postgresql dbname=app'"),
                  ("--follow", "keep pushing as commits arrive, until stopped"),
                  ("--batch N", "at most N commits per PostgreSQL transaction (default 500)"),
                  ("--decrypted-log", "push an encrypted FILE (its key from --key-file or STRATA_KEY): the log holds its commits decrypted")],
        examples: ["strata replicate push app.strata --to 'host=/var/run/postgresql dbname=app'",
                   "strata replicate push app.strata --to postgresql://strata@db.local/app --follow"],
        exitStatus: [(0, "success"), (1, "the file cannot be read, PostgreSQL refused, or the history has a gap"),
                     (2, "bad arguments")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--follow", "--decrypted-log"], valued: ["--to", "--batch"])
        let words = try options.positional(2, "replicate takes push and FILE")
        guard words[0] == "push" else { throw UsageError("unknown replicate action '\(words[0])': replicate knows one, push") }
        guard let conninfo = options.value("--to") else { throw UsageError("replicate push needs --to CONNINFO") }
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: words[1]), encryptionKey: try KeySource.keyData())
        let pusher = try ReplicationPusher(configuration: configuration, to: conninfo, allowingDecryptedLog: options.has("--decrypted-log"))
        if let batch = try options.count("--batch") {
            guard batch > 0 else { throw UsageError("--batch must be at least 1") }
            pusher.batchSize = batch
        }
        guard options.has("--follow") else {
            Output.line(Self.line(try pusher.push()))
            return 0
        }
        Output.line("following \(words[1]) as origin \(pusher.origin)")
        try pusher.follow(until: { false }, pushed: { Output.line(Self.line($0)) },
                          failed: { Output.error("replicate: \($0); retrying") })
        return 0
    }

    /// One line saying what a push appended.
    static func line(_ progress: ReplicationPusher.Progress) -> String {
        guard let versions = progress.versions else {
            return "origin \(progress.origin): the log already holds every version (up to \(progress.logHolds))"
        }
        let count = Int(versions.upperBound - versions.lowerBound + 1)
        return "origin \(progress.origin): pushed versions \(versions.lowerBound) to \(versions.upperBound) "
            + "(\(Output.count(count, "commit")))"
    }
}
