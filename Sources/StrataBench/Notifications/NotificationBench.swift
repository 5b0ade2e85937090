import Foundation

/// `strata-bench --notifications` (also part of the default run, left out with `--only`):
/// Strata's notification rows, measured in this process, each on a new database in a
/// temporary directory. Raw LMDB and SQLite have no change notifications.
enum NotificationBench {
    /// Runs every row, each database made inside `base`.
    static func run(base: String) throws -> NotificationResults {
        var results = NotificationResults()
        results.latencies = try timed("latency, same thread", base) {
            CommitLatency.summaries("same thread", try CommitLatency.onWritersThread(directory: $0))
        } + timed("latency, other thread", base) {
            CommitLatency.summaries("other thread", try CommitLatency.acrossThreads(directory: $0))
        }
        results.unrelatedObservers = try timed("unrelated observers", base, UnrelatedObservers.measure)
        results.sortedChangeSet = try timed("sorted change set", base, SortedChangeSet.measure)
        results.actorWrites = try timed("actor-isolated writes", base, ActorWrites.measure)
        return results
    }

    /// Runs `body` in a new temporary directory inside `base`, noting on stderr how long it took.
    private static func timed(_ label: String, _ base: String, _ body: (URL) throws -> [LatencySummary]) throws -> [LatencySummary] {
        let start = monotonicSeconds()
        let summaries = try ChildProcess.withTemporaryDirectory(under: base) { try body(URL(fileURLWithPath: $0)) }
        printToStandardError(String(format: "# notifications %@: done in %.1f s", label, monotonicSeconds() - start))
        return summaries
    }
}

/// What the notification rows measured.
struct NotificationResults: Codable {
    /// Commit-to-callback latency, observer on the writer's thread and on another thread.
    var latencies: [LatencySummary] = []
    /// Commit plus delivery with 0 and with 100 observers of an unrelated class.
    var unrelatedObservers: [LatencySummary] = []
    /// The change set of a 100,000-object sorted `Results`, and the sorted query alone.
    var sortedChangeSet: [LatencySummary] = []
    /// One no-sync commit from a thread's Realm and from an actor's Realm awaited by a task.
    var actorWrites: [LatencySummary] = []
}
