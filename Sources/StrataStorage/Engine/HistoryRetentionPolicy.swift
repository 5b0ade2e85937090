/// Which history entries a commit keeps (docs/FILE-FORMAT.md, "Retention").
///
/// An entry is protected when it is one of the newest `keepCount` entries or younger than
/// `keepAge` seconds; the others are removed, oldest first. `maximumCount` removes the oldest
/// entries beyond it even when they are protected. The newest entry is always kept. With no
/// limit at all (`all`) nothing is removed.
package struct HistoryRetentionPolicy: Equatable, Sendable {
    /// The newest entries kept whatever their age (nil: the count protects none).
    package var keepCount: Int?
    /// Entries younger than this many seconds are kept (nil: age protects none).
    package var keepAge: Double?
    /// Never more entries than this (nil: no cap).
    package var maximumCount: Int?

    package init(keepCount: Int?, keepAge: Double?, maximumCount: Int?) {
        self.keepCount = keepCount
        self.keepAge = keepAge
        self.maximumCount = maximumCount
    }

    /// Keeps every entry.
    package static let all = HistoryRetentionPolicy(keepCount: nil, keepAge: nil, maximumCount: nil)

    /// The newest 10,000 entries or the last 30 days, whichever is more, but at most 1,000,000.
    package static let `default` = HistoryRetentionPolicy(keepCount: 10_000, keepAge: 30 * 86_400, maximumCount: 1_000_000)

    /// The most entries one commit removes, so that no commit does unbounded work. Each
    /// commit adds one entry, so a backlog (after the policy was tightened) shrinks by up to
    /// this many minus one per commit.
    package static let removalsPerCommit = 32

    /// Whether the policy never removes anything.
    var keepsEverything: Bool { keepCount == nil && keepAge == nil && maximumCount == nil }
}
