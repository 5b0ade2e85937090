/// Why a push or a follower cannot go on, beyond PostgreSQL's own failures (`PostgresError`).
public enum ReplicationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file no longer keeps the history entries after the log's last version: its oldest
    /// retained entry is `oldestRetained`, but the log of `origin` ends at `logHolds`.
    case gap(origin: String, logHolds: UInt64, oldestRetained: UInt64)
    /// The log of `origin` holds versions past the file's newest (`fileNewest`): the file is
    /// not the one the log came from, or was restored from an older copy.
    case logAhead(origin: String, logHolds: UInt64, fileNewest: UInt64)
    /// The log of `origin` ends at `logHolds`, but it held at least `expectedAtLeast` when the
    /// pusher read it: versions were removed from the log by someone else.
    case logShrank(origin: String, logHolds: UInt64, expectedAtLeast: UInt64)
    /// The log's last version of `origin` reads as `lastVersion`, which is not a version.
    case unreadableLog(origin: String, lastVersion: String)
    /// The history entries of the file are not consecutive: `expected` is missing before `found`.
    case missingEntry(expected: UInt64, found: UInt64)
    /// The log has no origin of that id.
    case unknownOrigin(String)
    /// The log's entry of `version` of `origin` does not decode.
    case unreadableEntry(origin: String, version: UInt64)
    /// The log of `origin` has no row for `expected`, the version a follower needs next; its
    /// next row is `found`.
    case gapInLog(origin: String, expected: UInt64, found: UInt64)
    /// The log of `origin` (up to `logHolds`) holds no snapshot for an empty follower to start from.
    case noSnapshot(origin: String, logHolds: UInt64)
    /// The follower holds version `holds` of `origin`, past the log's newest (`logHolds`): the
    /// log lost versions, or the follower was started from a copy newer than the log.
    case followerAhead(origin: String, holds: UInt64, logHolds: UInt64)

    /// The failure, in one sentence naming the versions.
    public var description: String {
        switch self {
        case let .gap(origin, logHolds, oldestRetained):
            "The log of origin \(origin) ends at version \(logHolds), but the file's oldest retained history entry is version "
                + "\(oldestRetained): versions \(logHolds + 1) to \(oldestRetained - 1) are gone from the history and cannot be pushed"
        case let .logAhead(origin, logHolds, fileNewest):
            "The log of origin \(origin) holds version \(logHolds), past the file's newest version \(fileNewest): "
                + "the file is an older copy of the origin, and pushing it would fork the log"
        case let .logShrank(origin, logHolds, expectedAtLeast):
            "The log of origin \(origin) ends at version \(logHolds), but it held version \(expectedAtLeast) before: "
                + "versions were removed from strata_log, and pushing on would leave a gap"
        case let .unreadableLog(origin, lastVersion):
            "The log's last version of origin \(origin) is '\(lastVersion)', which is not a version number"
        case let .missingEntry(expected, found):
            "The file's history has no entry for version \(expected) (the next one is \(found))"
        case let .unknownOrigin(origin):
            "The log has no origin \(origin): push it first (strata replicate push), or check the id (strata_origin lists them)"
        case let .unreadableEntry(origin, version):
            "The log's entry of version \(version) of origin \(origin) is damaged: it does not decode"
        case let .gapInLog(origin, expected, found):
            "The log of origin \(origin) has no version \(expected), which the follower needs next (its next version is \(found))"
        case let .followerAhead(origin, holds, logHolds):
            "The follower holds version \(holds) of origin \(origin), but the log ends at version \(logHolds): "
                + "push the origin first, or start the follower again if the log lost versions"
        case let .noSnapshot(origin, logHolds):
            "The log of origin \(origin) (up to version \(logHolds)) holds no snapshot for an empty follower to start from: "
                + "push the origin with this version of Strata (its first push records one), or start the follower from a copy of the origin"
        }
    }
}
