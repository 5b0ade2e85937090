/// Why a push cannot go on, beyond PostgreSQL's own failures (`PostgresError`).
public enum ReplicationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file no longer keeps the history entries after the log's last version: its oldest
    /// retained entry is `oldestRetained`, but the log of `origin` ends at `logHolds`.
    case gap(origin: String, logHolds: UInt64, oldestRetained: UInt64)
    /// The log of `origin` holds versions past the file's newest (`fileNewest`): the file is
    /// not the one the log came from, or was restored from an older copy.
    case logAhead(origin: String, logHolds: UInt64, fileNewest: UInt64)
    /// The history entries of the file are not consecutive: `expected` is missing before `found`.
    case missingEntry(expected: UInt64, found: UInt64)

    /// The failure, in one sentence naming the versions.
    public var description: String {
        switch self {
        case let .gap(origin, logHolds, oldestRetained):
            "The log of origin \(origin) ends at version \(logHolds), but the file's oldest retained history entry is version "
                + "\(oldestRetained): versions \(logHolds + 1) to \(oldestRetained - 1) are gone from the history and cannot be pushed"
        case let .logAhead(origin, logHolds, fileNewest):
            "The log of origin \(origin) holds version \(logHolds), past the file's newest version \(fileNewest): "
                + "the file is an older copy of the origin, and pushing it would fork the log"
        case let .missingEntry(expected, found):
            "The file's history has no entry for version \(expected) (the next one is \(found))"
        }
    }
}
