import Foundation
import Strata

/// One commit of the latency measurement: its number, in commit order from 0.
final class LatencyStamp: Object {
    @Persisted(primaryKey: true) var seq = 0
}

/// Commits `CommitLatency.commits` stamps, one per `write {}`, a few milliseconds apart, and
/// notes when each `write {}` was called and when it returned: the commit becomes visible to
/// others somewhere in between.
final class LatencyWriter {
    private let realm: Realm

    init(directory: URL) throws {
        realm = try Realm(configuration: CommitLatency.configuration(directory))
    }

    /// The monotonic times right before and right after each commit, by stamp number.
    func run() throws -> WorkerResult {
        var result = WorkerResult(writeCallTimes: [], writeReturnTimes: [])
        for seq in 0..<CommitLatency.commits {
            result.writeCallTimes?.append(monotonicSeconds())
            try realm.write { realm.add(LatencyStamp(value: ["seq": seq])) }
            result.writeReturnTimes?.append(monotonicSeconds())
            usleep(CommitLatency.spacingMicroseconds)
        }
        return result
    }
}

/// Observes the stamps with `Results.observe` on the calling thread, running its run loop
/// with `autorefresh` (the default) and never calling `refresh()`: other writers' commits
/// reach it only through the file's notifier thread.
enum LatencyObserver {
    /// Calls `onReady` once the `.initial` callback came, then runs the run loop until every
    /// stamp was seen (or `CommitLatency.timeout`). Returns, by stamp number, the monotonic
    /// time of the first callback that showed it; nil for one never shown.
    static func run(directory: URL, onReady: @escaping () -> Void) throws -> [Double?] {
        let realm = try Realm(configuration: CommitLatency.configuration(directory))
        var times = [Double?](repeating: nil, count: CommitLatency.commits)
        var seen = 0
        var failure: Error?
        let token = realm.objects(LatencyStamp.self).observe { change in
            let now = monotonicSeconds()
            switch change {
            case .initial:
                onReady()
            case .update(let stamps, _, _, _):
                // One writer adds stamps 0, 1, 2, ... in order: the count names the newest.
                let count = min(stamps.count, times.count)
                if count > seen { for seq in seen..<count { times[seq] = now } }
                seen = max(seen, count)
            case .error(let error):
                failure = error
            }
        }
        let deadline = Date(timeIntervalSinceNow: CommitLatency.timeout)
        while seen < times.count, failure == nil, Date() < deadline {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.1))
        }
        token.invalidate()
        if let failure { throw failure }
        return times
    }
}

/// `LatencyObserver` on a thread of its own, for the in-process comparison.
final class LatencyObserverThread: @unchecked Sendable {
    // Sendable invariant: `outcome` is written by the thread before `done` is signalled and
    // read only after waiting for it.
    private let ready = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<[Double?], Error>?

    /// Starts the thread and returns once its observer is registered (or it failed).
    init(directory: URL) {
        let thread = Thread { [self] in
            outcome = Result { try LatencyObserver.run(directory: directory, onReady: { _ = self.ready.signal() }) }
            ready.signal()
            done.signal()
        }
        thread.name = "latency.observer"
        thread.start()
        ready.wait()
    }

    /// Waits for the observer to finish and returns its callback times.
    func finish() throws -> [Double?] {
        done.wait()
        return try outcome!.get()
    }
}
