import Foundation
import Strata

/// Commit-to-callback latency (Strata only): a writer commits small writes a few
/// milliseconds apart while an observer elsewhere notes when each reaches its `Results`
/// callback. The commit becomes visible between the writer's call of `write {}` and its
/// return, so the latency is given from both: from the return it is a lower bound (negative
/// when the callback ran before `write {}` had returned), from the call an upper bound that
/// includes the commit itself. All times are on the monotonic clock, which processes share.
enum CommitLatency {
    static let commits = 500
    static let spacingMicroseconds: useconds_t = 4_000
    /// How long an observer waits for the last stamp before giving up on the missing ones.
    static let timeout = 60.0

    /// The latency database in `directory` (durable commits, as by default).
    static func configuration(_ directory: URL) -> Realm.Configuration {
        Realm.Configuration(fileURL: directory.appendingPathComponent("latency.realm"), objectTypes: [LatencyStamp.self])
    }

    /// Observer and writer as two processes (the observer on its run loop, then consuming
    /// `changes` with `for await`), then as two threads of one process.
    static func measure(_ bench: ProcessBench) throws -> [LatencySummary] {
        let toCallback = try acrossProcesses(observer: .latencyObserver, bench)
        let toStream = try acrossProcesses(observer: .latencyStreamObserver, bench)
        let acrossThreads = try bench.withDirectory { directory in
            try WorkerGroup.run([WorkerRole.latencyThreads.arguments(engine: .strata, directory: directory, durable: true)],
                                seconds: 0)[0]
        }
        return summaries("other process", toCallback) + summaries("other process, for await", toStream)
            + summaries("other thread, same process", acrossThreads)
    }

    /// A writer process and an `observer` process: the writer's times with the observer's
    /// callback times.
    private static func acrossProcesses(observer: WorkerRole, _ bench: ProcessBench) throws -> WorkerResult {
        try bench.withDirectory { directory in
            let results = try WorkerGroup.run([
                observer.arguments(engine: .strata, directory: directory, durable: true),
                WorkerRole.latencyWriter.arguments(engine: .strata, directory: directory, durable: true),
            ], seconds: 0)
            var written = results[1]
            written.callbackTimes = results[0].callbackTimes
            return written
        }
    }

    /// Writer and observer as two threads of this process, on the latency database in
    /// `directory`: `whenReady` runs once both are set up, right before the first commit.
    /// Returns the writer's times with the observer's callback times.
    static func acrossThreads(directory: URL, whenReady: () throws -> Void = {}) throws -> WorkerResult {
        let observer = LatencyObserverThread(directory: directory)
        let writer = try LatencyWriter(directory: directory)
        try whenReady()
        var written = try writer.run()
        written.callbackTimes = try observer.finish()
        return written
    }

    /// The latencies `observer` saw, from the writer's `write {}` return and from its call.
    static func summaries(_ observer: String, _ result: WorkerResult) -> [LatencySummary] {
        [LatencySummary(observer: "\(observer), from write {} return", from: result.writeReturnTimes ?? [],
                        callbackTimes: result.callbackTimes ?? []),
         LatencySummary(observer: "\(observer), from write {} call", from: result.writeCallTimes ?? [],
                        callbackTimes: result.callbackTimes ?? [])]
    }
}

/// The latencies of one observer from one starting point: the minimum, percentiles by
/// nearest rank and the maximum over the commits it saw, and how many it never saw.
struct LatencySummary: Codable {
    var observer: String
    var commits: Int
    var missed: Int
    var min: Double?
    var p50: Double?
    var p99: Double?
    var max: Double?

    /// The latencies from `startTimes` to `callbackTimes` (both by commit number).
    init(observer: String, from startTimes: [Double], callbackTimes: [Double?]) {
        self.init(observer: observer, durations: startTimes.indices.map { i in
            i < callbackTimes.count ? callbackTimes[i].map { $0 - startTimes[i] } : nil
        })
    }

    /// The summary of `durations`, one per commit (nil: the commit was never seen).
    init(observer: String, durations: [Double?]) {
        let latencies = durations.compactMap { $0 }.sorted()
        self.observer = observer
        commits = durations.count
        missed = durations.count - latencies.count
        min = latencies.first
        func rank(_ fraction: Double) -> Double? {
            latencies.isEmpty ? nil : latencies[Swift.max(0, Int((fraction * Double(latencies.count)).rounded(.up)) - 1)]
        }
        p50 = rank(0.50)
        p99 = rank(0.99)
        max = latencies.last
    }

    /// `summaries` as a table under the heading `title`: min, p50, p99, max, and how many of
    /// the commits were never seen.
    static func table(_ title: String, _ summaries: [LatencySummary]) -> String {
        alignColumns([[title, "min", "p50", "p99", "max", "missed"]] + summaries.map { summary in
            [summary.observer] + [summary.min, summary.p50, summary.p99, summary.max].map { $0.map(formatDuration) ?? "-" }
                + ["\(summary.missed)/\(summary.commits)"]
        })
    }
}
