/// The versions one Realm instance committed lately (the last `capacity`), newest last.
struct RecentCommits {
    private static let capacity = 64
    private var versions: [UInt64] = []

    /// Records a commit of `version` (an empty commit keeps the version it began on).
    mutating func note(_ version: UInt64) {
        if versions.count == Self.capacity { versions.removeFirst() }
        versions.append(version)
    }

    /// Whether this instance committed a version after `since`, up to `version`.
    func include(after since: UInt64, through version: UInt64) -> Bool {
        versions.contains { $0 > since && $0 <= version }
    }
}
