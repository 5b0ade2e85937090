import Foundation
import Strata

/// The class the unrelated observers watch; the measured commits never touch it.
final class Gauge: Object {
    @Persisted var level = 0
}

/// The cost of a commit while 100 `Results` observers on the writer's thread watch a class
/// the commit does not touch, against none. Each commit adds one stamp (no-sync); the writer
/// then runs its run loop until the Realm's own `observe` block was called, and the delivery
/// that called it (to every observer) has returned. The gauge observers should be moved
/// forward from the change sets without re-running their queries, so both should cost about
/// the same.
enum UnrelatedObservers {
    static let observerCounts = [0, 100]
    /// Gauges stored, each with a level in 0..<100; observer k filters `level >= k`.
    static let gauges = 1_000
    /// The observer counts alternate in rounds, so changes of the machine's load hit both.
    static let rounds = 5
    static let commitsPerRound = 200
    /// How long to wait for one delivery.
    static let timeout = 10.0

    /// One summary per observer count: the time from each `write {}` call to the end of the
    /// delivery it caused.
    static func measure(directory: URL) throws -> [LatencySummary] {
        var configuration = Realm.Configuration(fileURL: directory.appendingPathComponent("unrelated.realm"),
                                                objectTypes: [LatencyStamp.self, Gauge.self])
        configuration.syncOnCommit = false
        let realm = try Realm(configuration: configuration)
        try realm.write { for i in 0..<gauges { realm.add(Gauge(value: ["level": i % 100])) } }
        var deliveries = 0
        let marker = realm.observe { _, _ in deliveries += 1 }
        defer { marker.invalidate() }
        var durations = [[Double?]](repeating: [], count: observerCounts.count)
        var seq = 0
        for _ in 0..<rounds {
            for (index, count) in observerCounts.enumerated() {
                let gaugeObservers = try GaugeObservers(realm: realm, count: count)
                for _ in 0..<commitsPerRound {
                    let before = deliveries
                    let call = monotonicSeconds()
                    try realm.write { realm.add(LatencyStamp(value: ["seq": seq])) }
                    let delivered = runRunLoop(until: { deliveries > before }, timeout: timeout)
                    durations[index].append(delivered ? monotonicSeconds() - call : nil)
                    seq += 1
                }
                try gaugeObservers.finish()
            }
        }
        return zip(observerCounts, durations).map { count, durations in
            LatencySummary(observer: "\(count) Results observers of an unrelated class", durations: durations)
        }
    }
}

/// `count` observers of gauges (`level >= k` for k in 0..<count) on the calling thread.
private final class GaugeObservers {
    private var tokens: [NotificationToken] = []
    private var initials = 0
    private var updates = 0
    private var failure: Error?

    /// Registers the observers and runs the run loop until each had its `.initial` callback.
    init(realm: Realm, count: Int) throws {
        tokens = (0..<count).map { k in
            realm.objects(Gauge.self).filter("level >= %@", k).observe { [unowned self] change in
                switch change {
                case .initial: initials += 1
                case .update: updates += 1
                case .error(let error): failure = error
                }
            }
        }
        let ready = runRunLoop(until: { initials == count || failure != nil }, timeout: UnrelatedObservers.timeout)
        if let failure { throw failure }
        if !ready { throw BenchError("only \(initials) of \(count) observers of gauges had their .initial callback") }
    }

    /// Stops the observers; throws if any was told of a change (no commit touched gauges).
    func finish() throws {
        for token in tokens { token.invalidate() }
        if let failure { throw failure }
        if updates > 0 { throw BenchError("observers of gauges were told of \(updates) changes; no commit touched gauges") }
    }
}
