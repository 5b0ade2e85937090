import LMDB

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

extension StorageTransaction {
    /// Removes up to `HistoryRetentionPolicy.removalsPerCommit` of the oldest entries that
    /// `policy` does not keep, as of `now` (seconds since 1970). Returns how many it removed.
    @discardableResult
    func applyHistoryRetention(_ policy: HistoryRetentionPolicy, history db: Database, now: Double) throws -> Int {
        if policy.keepsEverything { return 0 }
        var remaining = try lmdb.count(db)
        if let keep = policy.keepCount, policy.keepAge == nil, remaining <= keep,
           remaining <= policy.maximumCount ?? .max { return 0 }
        return try lmdb.withCursor(db) { cursor in
            var removed = 0
            while removed < HistoryRetentionPolicy.removalsPerCommit, remaining > 1, let oldest = try cursor.first() {
                let overCap = remaining > (policy.maximumCount ?? .max)
                if !overCap {
                    if let keep = policy.keepCount, remaining <= keep { break }
                    if let age = policy.keepAge {
                        // An entry that does not decode is removed, not kept forever.
                        if let time = HistoryEntry.header(oldest.value)?.time, time >= now - age { break }
                    }
                    if policy.keepCount == nil && policy.keepAge == nil { break }
                }
                try cursor.deleteCurrent()
                remaining -= 1
                removed += 1
            }
            return removed
        }
    }
}
