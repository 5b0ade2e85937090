import Foundation

/// Formats the notification rows (Strata only) as small tables, each with a note on
/// how it was measured.
struct NotificationReport {
    var results: NotificationResults

    /// The tables, each followed by how it was measured.
    func table() -> String {
        var parts = ["Notification rows, Strata only (raw LMDB and SQLite have no change notifications), measured in this process."]
        if !results.latencies.isEmpty {
            parts.append(LatencySummary.table("commit-to-callback latency", results.latencies) + """

                (\(CommitLatency.commits) durable commits \(CommitLatency.spacingMicroseconds / 1000) ms apart, each adding \
                one object, to the callback of a Results observer of its class. Same thread: the writer runs its run \
                loop after each commit until the callback came. Other thread: that thread runs its run loop)
                """)
        }
        if !results.unrelatedObservers.isEmpty {
            parts.append(LatencySummary.table("no-sync commit + its delivery", results.unrelatedObservers) + "\n" + ratioLine + """

                (\(UnrelatedObservers.rounds * UnrelatedObservers.commitsPerRound) no-sync commits per row, each \
                adding one object, from write {} call until the run-loop turn that delivers has returned, marked by a \
                realm.observe block; the unrelated observers are on the writer's thread, Results of another class, \
                `level >= k` over \(UnrelatedObservers.gauges) objects)
                """)
        }
        if !results.sortedChangeSet.isEmpty {
            parts.append(LatencySummary.table("sorted Results of \(SortedChangeSet.persons / 1000)k objects, 1 commit", results.sortedChangeSet) + """

                (one observer of objects(Person.self).sorted(byKeyPath: "age"); \(SortedChangeSet.repeats) no-sync \
                commits of one modification per row, from write {} return to the callback: the query re-run and the \
                change set computed. The reference row reads .last of a new sorted Results)
                """)
        }
        if !results.actorWrites.isEmpty {
            parts.append(LatencySummary.table("actor-isolated writes, 1 commit", results.actorWrites) + """

                (\(ActorWrites.commits) no-sync commits per row, each adding one object. The actor rows are timed by \
                the task awaiting the actor's method, one call at a time, so they include the hop onto the actor)
                """)
        }
        return parts.joined(separator: "\n\n")
    }

    /// The p50 with the most observers over the p50 with the fewest.
    private var ratioLine: String {
        guard let fewest = results.unrelatedObservers.first?.p50, let most = results.unrelatedObservers.last?.p50,
              fewest > 0 else { return "" }
        return String(format: "p50 ratio, %d over %d observers: %.2f", UnrelatedObservers.observerCounts.last!,
                      UnrelatedObservers.observerCounts.first!, most / fewest)
    }
}
