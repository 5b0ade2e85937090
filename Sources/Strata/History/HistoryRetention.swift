import Foundation
import StrataStorage

/// Strata: which history entries a file keeps (`Realm.Configuration.historyRetention`).
///
/// Every commit stores one history entry; each commit also removes a bounded number (at
/// most 32) of the oldest entries this policy no longer keeps, so the history stops growing
/// without any commit doing unbounded work. An entry is kept while it is one of the newest
/// `keepCount` entries **or** younger than `keepAge` seconds (whichever keeps more);
/// `maximumCount` caps the number of entries whatever their age. The newest entry is always
/// kept, and version numbers keep increasing whatever is removed.
///
/// The policy is applied by the process that commits, with that process's configuration.
public struct HistoryRetention: Sendable, Hashable, CustomStringConvertible {
    /// The newest entries kept whatever their age; nil: the count keeps none.
    public var keepCount: Int?
    /// Entries younger than this many seconds are kept; nil: age keeps none.
    public var keepAge: TimeInterval?
    /// At most this many entries, even young ones; nil: no cap.
    public var maximumCount: Int?

    /// A policy from its three limits. With all three nil, every entry is kept (`.all`).
    public init(keepCount: Int? = nil, keepAge: TimeInterval? = nil, maximumCount: Int? = nil) {
        precondition((keepCount ?? 1) >= 1 && (maximumCount ?? 1) >= 1, "history retention counts must be at least 1")
        precondition((keepAge ?? 0) >= 0, "history retention age must not be negative")
        self.keepCount = keepCount
        self.keepAge = keepAge
        self.maximumCount = maximumCount
    }

    /// Keeps the newest `count` entries (at least 1).
    public static func count(_ count: Int) -> HistoryRetention { HistoryRetention(keepCount: count) }

    /// Keeps the entries committed in the last `seconds` seconds (and always the newest one).
    public static func age(_ seconds: TimeInterval) -> HistoryRetention { HistoryRetention(keepAge: seconds) }

    /// Keeps every entry: the history grows with every commit.
    public static let all = HistoryRetention()

    /// The default: the newest 10,000 entries or the last 30 days, whichever is more, but
    /// never more than 1,000,000 entries.
    public static let `default` = HistoryRetention(keepCount: 10_000, keepAge: 30 * 86_400, maximumCount: 1_000_000)

    /// A readable form, e.g. `newest 10000 or 2592000 s, at most 1000000`.
    public var description: String {
        var parts: [String] = []
        if let keepCount { parts.append("newest \(keepCount)") }
        if let keepAge { parts.append("\(keepAge) s") }
        var text = parts.isEmpty ? "all" : parts.joined(separator: " or ")
        if let maximumCount { text += ", at most \(maximumCount)" }
        return text
    }

    var policy: HistoryRetentionPolicy {
        HistoryRetentionPolicy(keepCount: keepCount, keepAge: keepAge, maximumCount: maximumCount)
    }
}
