import Foundation
import Strata
import StrataReplication
import StrataTestSupport

/// `strata-bench --replication`: replication through a throwaway local PostgreSQL cluster.
/// Lag: one-Person commits at a fixed rate (100/s for 5 s, then 1,000/s for 3 s) on an origin
/// that a pusher pushes as commits arrive and a follower applies every 5 ms, both on threads
/// of this process; the lag of a version is the time from its commit on the origin to its
/// commit on the follower (p50, p99, max). Throughput: 5,000 commits pushed in one go, then
/// applied by an empty follower in one go.
enum ReplicationBench {
    static func run(directory: URL, durable: Bool) throws -> String {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        var lines = ["replication (local PostgreSQL 15, \(durable ? "durable" : "no-sync") commits)",
                     "rate/s   commits   lag p50 ms   lag p99 ms   lag max ms"]
        for (rate, seconds) in [(100, 5.0), (1_000, 3.0)] {
            let place = directory.appendingPathComponent("lag-\(rate)")
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
            let lags = try lag(rate: rate, seconds: seconds, in: place, conninfo: try database(cluster, "lag\(rate)"), durable: durable)
            lines.append(String(format: "%6d   %7d   %10.2f   %10.2f   %10.2f", rate, lags.count,
                                percentile(lags, 0.5), percentile(lags, 0.99), lags.max() ?? 0))
        }
        let place = directory.appendingPathComponent("throughput")
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        let (push, apply) = try throughput(commits: 5_000, in: place, conninfo: try database(cluster, "throughput"), durable: durable)
        lines += ["", String(format: "push 5,000 commits: %.3f s (%.0f/s); follow them: %.3f s (%.0f/s)",
                             push, 5_000 / push, apply, 5_000 / apply)]
        return lines.joined(separator: "\n")
    }

    /// A new database of `cluster`, and its connection string.
    private static func database(_ cluster: PostgresCluster, _ name: String) throws -> String {
        try PostgresConnection(cluster.conninfo).execute("CREATE DATABASE \(name)")
        return cluster.conninfo.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)")
    }

    private static func configuration(_ url: URL, durable: Bool) -> Realm.Configuration {
        var config = Realm.Configuration(fileURL: url, objectTypes: [Person.self, Team.self, Pet.self])
        config.syncOnCommit = durable
        return config
    }

    /// The lag of every version committed at `rate` per second for `seconds`, in ms.
    private static func lag(rate: Int, seconds: Double, in place: URL, conninfo: String, durable: Bool) throws -> [Double] {
        let origin = configuration(place.appendingPathComponent("origin.strata"), durable: durable)
        let realm = try Realm(configuration: origin)
        let pusher = try ReplicationPusher(configuration: origin, to: conninfo)
        let follower = try ReplicationFollower(configuration: configuration(place.appendingPathComponent("follower.strata"), durable: durable),
                                               from: conninfo, origin: pusher.origin)
        let state = LagState()
        let pushing = Thread { try? pusher.follow(until: { state.stopped }, pushed: { _ in }) }
        let following = Thread {
            try? follower.follow(every: 0.005, until: { state.stopped }, applied: { progress in
                guard let versions = progress.versions else { return }
                let now = Date().timeIntervalSince1970
                for v in versions { state.applied(v, at: now) }
            })
        }
        pushing.start()
        following.start()
        let count = Int(Double(rate) * seconds)
        let start = Date().timeIntervalSince1970
        var first: UInt64 = 0
        for i in 0..<count {
            let due = start + Double(i) / Double(rate)
            let wait = due - Date().timeIntervalSince1970
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            try realm.write { realm.create(Person.self, value: ["id": i, "name": "p\(i)", "age": i % 90], update: .all) }
            state.committed(realm.version, at: Date().timeIntervalSince1970)
            if i == 0 { first = realm.version }
        }
        let deadline = Date(timeIntervalSinceNow: 60)
        while !state.hasApplied(realm.version) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        state.stop()
        while pushing.isExecuting || following.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        return state.lags(from: first, to: realm.version)
    }

    /// Seconds to push `commits` one-Person commits, and to apply them to an empty follower.
    private static func throughput(commits: Int, in place: URL, conninfo: String, durable: Bool) throws -> (push: Double, apply: Double) {
        let origin = configuration(place.appendingPathComponent("origin.strata"), durable: durable)
        let realm = try Realm(configuration: origin)
        let pusher = try ReplicationPusher(configuration: origin, to: conninfo)
        try pusher.push()
        for i in 0..<commits { try realm.write { realm.create(Person.self, value: ["id": i, "name": "p\(i)", "age": i % 90]) } }
        let follower = try ReplicationFollower(configuration: configuration(place.appendingPathComponent("follower.strata"), durable: durable),
                                               from: conninfo, origin: pusher.origin)
        try follower.follow()  // the snapshot
        let push = try elapsedSeconds { try pusher.push() }
        let apply = try elapsedSeconds { try follower.follow() }
        return (push, apply)
    }

    private static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
    }
}

/// When each version was committed on the origin and applied on the follower, shared by
/// the writer and the follower's thread.
private final class LagState: @unchecked Sendable {
    private let lock = NSLock()
    private var commitTimes: [UInt64: Double] = [:]
    private var applyTimes: [UInt64: Double] = [:]
    private var isStopped = false

    var stopped: Bool { lock.withLock { isStopped } }
    func stop() { lock.withLock { isStopped = true } }
    func committed(_ version: UInt64, at time: Double) { lock.withLock { commitTimes[version] = time } }
    func applied(_ version: UInt64, at time: Double) { lock.withLock { applyTimes[version] = time } }
    func hasApplied(_ version: UInt64) -> Bool { lock.withLock { applyTimes[version] != nil } }

    /// The lag of each version from `first` to `last` that was applied, in ms.
    func lags(from first: UInt64, to last: UInt64) -> [Double] {
        lock.withLock {
            (first...last).compactMap { v in commitTimes[v].flatMap { c in applyTimes[v].map { ($0 - c) * 1000 } } }
        }
    }
}
