import Foundation
import Strata

/// Commit-to-callback latency (Strata only): a writer commits small writes a few
/// milliseconds apart while an observer elsewhere notes when each reaches its `Results`
/// callback; the latency is the callback's time minus the time `write {}` returned. Both
/// times are on the monotonic clock, which all processes share.
enum CommitLatency {
    static let commits = 500
    static let spacingMicroseconds: useconds_t = 4_000
    /// How long an observer waits for the last stamp before giving up on the missing ones.
    static let timeout = 60.0

    /// The latency database in `directory` (durable commits, as by default).
    static func configuration(_ directory: URL) -> Realm.Configuration {
        Realm.Configuration(fileURL: directory.appendingPathComponent("latency.realm"), objectTypes: [LatencyStamp.self])
    }

    /// Observer and writer as two processes, then as two threads of one process.
    static func measure(_ bench: ProcessBench) throws -> [LatencySummary] {
        let acrossProcesses = try bench.withDirectory { directory in
            let results = try WorkerGroup.run([
                WorkerRole.latencyObserver.arguments(engine: .strata, directory: directory, durable: true),
                WorkerRole.latencyWriter.arguments(engine: .strata, directory: directory, durable: true),
            ], seconds: 0)
            return LatencySummary(observer: "other process", commitTimes: results[1].commitTimes ?? [],
                                  callbackTimes: results[0].callbackTimes ?? [])
        }
        let acrossThreads = try bench.withDirectory { directory in
            let result = try WorkerGroup.run([
                WorkerRole.latencyThreads.arguments(engine: .strata, directory: directory, durable: true),
            ], seconds: 0)[0]
            return LatencySummary(observer: "other thread, same process", commitTimes: result.commitTimes ?? [],
                                  callbackTimes: result.callbackTimes ?? [])
        }
        return [acrossProcesses, acrossThreads]
    }
}

/// The latencies of one observer: percentiles by nearest rank over the commits it saw, and
/// how many it never saw.
struct LatencySummary: Codable {
    var observer: String
    var commits: Int
    var missed: Int
    var p50: Double?
    var p99: Double?
    var max: Double?

    init(observer: String, commitTimes: [Double], callbackTimes: [Double?]) {
        let latencies = zip(commitTimes, callbackTimes).compactMap { commit, callback in callback.map { $0 - commit } }.sorted()
        self.observer = observer
        commits = commitTimes.count
        missed = commitTimes.count - latencies.count
        func rank(_ fraction: Double) -> Double? {
            latencies.isEmpty ? nil : latencies[Swift.max(0, Int((fraction * Double(latencies.count)).rounded(.up)) - 1)]
        }
        p50 = rank(0.50)
        p99 = rank(0.99)
        max = latencies.last
    }
}
