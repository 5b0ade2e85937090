import Foundation
import Strata
import StrataReplication

/// `strata replicate push FILE --to CONNINFO [--follow] [--batch N] [--decrypted-log]`: appends FILE's commits,
/// in version order, to the log table of a PostgreSQL database; `strata replicate follow FILE --from CONNINFO
/// --origin ID [--follow] [--batch N]`: applies an origin's log to FILE; `strata replicate mirror FILE --to CONNINFO
/// [--schema NAME] [--follow]`: keeps one PostgreSQL table per class in step with FILE (docs/REPLICATION.md).
struct ReplicateCommand: Command {
    static let name = "replicate"
    // A following pusher or follower runs until it is stopped; killing it must stop it, not a
    // worker it would leave behind.
    static let runsInWorker = false
    static let summary = "push the file's commits to PostgreSQL, apply an origin's log to the file, or mirror it as SQL tables"
    static let help = HelpText(
        synopsis: "push FILE --to CONNINFO [--follow] [--batch N] [--decrypted-log] | follow FILE --from CONNINFO --origin ID [--follow] [--batch N] | mirror FILE --to CONNINFO [--schema NAME] [--follow]",
        description: [
            "push appends every retained commit of FILE that the PostgreSQL database of CONNINFO does not hold yet to its "
                + "table strata_log (origin, version, time, pid, process, entry), in version order, one PostgreSQL transaction "
                + "per batch; the tables are created when absent. The origin is FILE's replication id, given to it (in a commit "
                + "described \"Replication origin assigned\", which holds the whole file for followers to start from) by its "
                + "first push; from then on every commit of FILE records its new values. PostgreSQL is the truth for where to "
                + "resume, so a push killed at any point, or run again, leaves every version in the log exactly once.",
            "follow applies the log of origin ID to FILE, in version order, each origin version as one commit of FILE; FILE "
                + "is created when absent. An empty FILE starts at the origin's snapshot, a copy of the origin (writeCopy, "
                + "strata compact) after its version. FILE records the newest origin version it holds with the data, so a "
                + "follower killed at any point resumes after it. Only the follower writes to FILE: other writes are refused.",
            "mirror keeps one table per class of FILE (an origin or a follower) in the PostgreSQL schema NAME (default public): "
                + "_key (the object key) and a typed column per property, links as foreign keys, lists, sets, maps and mixed "
                + "values as jsonb. Each round writes, in one PostgreSQL transaction, what the commits since the last mirrored "
                + "version changed (every object the first time and after a schema change) and records the version in "
                + "NAME.strata_mirror.",
            "With --follow each keeps going as commits arrive, until it is stopped. A push fails when FILE's history no "
                + "longer holds the next version the log needs (the retention removed it).",
        ],
        options: [("--to CONNINFO", "push: libpq's connection string, e.g. 'host=/var/run/postgresql dbname=app'"),
                  ("--from CONNINFO", "follow: the PostgreSQL database that holds the log"),
                  ("--origin ID", "follow: the origin whose log is applied (its push prints it)"),
                  ("--schema NAME", "mirror: the PostgreSQL schema of the tables (default public)"),
                  ("--follow", "keep pushing or applying as commits arrive, until stopped"),
                  ("--batch N", "at most N commits per PostgreSQL transaction (push, default 500) or read (follow, default 100)"),
                  ("--decrypted-log", "push an encrypted FILE (its key from --key-file or STRATA_KEY): the log holds its commits decrypted")],
        examples: ["strata replicate push app.strata --to 'host=/var/run/postgresql dbname=app'",
                   "strata replicate push app.strata --to postgresql://strata@db.local/app --follow",
                   "strata replicate mirror replica.strata --to 'host=/var/run/postgresql dbname=reports' --follow",
                   "strata replicate follow replica.strata --from postgresql://strata@db.local/app --origin 02615fbd-d918-4110-9e2a-4799a47183f4 --follow"],
        exitStatus: [(0, "success"), (1, "the file cannot be read or written, PostgreSQL refused, or the history or log has a gap"),
                     (2, "bad arguments")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--follow", "--decrypted-log"], valued: ["--to", "--from", "--origin", "--batch", "--schema"])
        let words = try options.positional(2, "replicate takes push, follow or mirror, and FILE")
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: words[1]), encryptionKey: try KeySource.keyData())
        let batch = try options.count("--batch")
        if let batch, batch < 1 { throw UsageError("--batch must be at least 1") }
        switch words[0] {
        case "push":
            guard let conninfo = options.value("--to") else { throw UsageError("replicate push needs --to CONNINFO") }
            let pusher = try ReplicationPusher(configuration: configuration, to: conninfo, allowingDecryptedLog: options.has("--decrypted-log"))
            if let batch { pusher.batchSize = batch }
            guard options.has("--follow") else {
                Output.line(Self.line(try pusher.push()))
                return 0
            }
            Output.line("following \(words[1]) as origin \(pusher.origin)")
            try pusher.follow(until: { false }, pushed: { Output.line(Self.line($0)) },
                              failed: { Output.error("replicate: \($0); retrying") })
        case "follow":
            guard let conninfo = options.value("--from") else { throw UsageError("replicate follow needs --from CONNINFO") }
            guard let origin = options.value("--origin") else { throw UsageError("replicate follow needs --origin ID") }
            let follower = try ReplicationFollower(configuration: configuration, from: conninfo, origin: origin)
            if let batch { follower.batchSize = batch }
            guard options.has("--follow") else {
                Output.line(Self.line(try follower.follow()))
                return 0
            }
            Output.line("applying the log of origin \(origin) to \(words[1])")
            try follower.follow(until: { false }, applied: { Output.line(Self.line($0)) },
                                failed: { Output.error("replicate: \($0); retrying") })
        case "mirror":
            guard let conninfo = options.value("--to") else { throw UsageError("replicate mirror needs --to CONNINFO") }
            let mirror = try ReplicationMirror(configuration: configuration, to: conninfo, schema: options.value("--schema") ?? "public")
            guard options.has("--follow") else {
                Output.line(Self.line(try mirror.mirror(), schema: mirror.schema))
                return 0
            }
            Output.line("mirroring \(words[1]) into schema \(mirror.schema)")
            try mirror.follow(until: { false }, mirrored: { Output.line(Self.line($0, schema: mirror.schema)) },
                              failed: { Output.error("replicate: \($0); retrying") })
        default:
            throw UsageError("unknown replicate action '\(words[0])': replicate knows push, follow and mirror")
        }
        return 0
    }

    /// One line saying what a follower applied.
    static func line(_ progress: ReplicationFollower.Progress) -> String {
        guard let versions = progress.versions else {
            return "origin \(progress.origin): the file already holds every version of the log (up to \(progress.holds))"
        }
        let count = Int(versions.upperBound - versions.lowerBound + 1)
        return "origin \(progress.origin): applied versions \(versions.lowerBound) to \(versions.upperBound) "
            + "(\(Output.count(count, "commit"))); the log holds \(progress.logHolds)"
    }

    /// One line saying what a mirror wrote.
    static func line(_ progress: ReplicationMirror.Progress, schema: String) -> String {
        "schema \(schema): mirrors version \(progress.version) (\(progress.rebuilt ? "every table written" : "changes written"), "
            + "\(Output.count(progress.objects, "object")))"
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
