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
    let realm: Realm

    init(directory: URL) throws {
        realm = try Realm(configuration: CommitLatency.configuration(directory))
    }

    /// The monotonic times right before and right after each commit, by stamp number.
    /// `afterCommit` runs after each commit, before the pause, with the stamp's number.
    func run(afterCommit: (Int) throws -> Void = { _ in }) throws -> WorkerResult {
        var result = WorkerResult(writeCallTimes: [], writeReturnTimes: [])
        for seq in 0..<CommitLatency.commits {
            result.writeCallTimes?.append(monotonicSeconds())
            try realm.write { realm.add(LatencyStamp(value: ["seq": seq])) }
            result.writeReturnTimes?.append(monotonicSeconds())
            try afterCommit(seq)
            usleep(CommitLatency.spacingMicroseconds)
        }
        return result
    }
}

/// Observes the stamps with `Results.observe` on the calling thread, which must run its run
/// loop (`autorefresh`, the default, and never `refresh()`: other threads' and processes'
/// commits reach it only through the file's notifier thread), and notes by stamp number the
/// monotonic time of the first callback that showed each stamp.
final class StampObserver {
    private var shown = StampTimes()
    /// By stamp number: when a callback first showed it; nil while not shown.
    var times: [Double?] { shown.times }
    private var seen: Int { shown.seen }
    private var isReady = false
    private var failure: Error?
    private var token: NotificationToken?

    /// Registers the observer on `realm`; `onReady` is called with the `.initial` callback.
    init(realm: Realm, onReady: @escaping () -> Void = {}) {
        token = realm.objects(LatencyStamp.self).observe { [unowned self] change in
            let now = monotonicSeconds()
            switch change {
            case .initial:
                isReady = true
                onReady()
            case .update(let stamps, _, _, _):
                shown.note(count: stamps.count, at: now)
            case .error(let error):
                failure = error
            }
        }
    }

    deinit { token?.invalidate() }

    /// Runs the run loop until the `.initial` callback came and `count` stamps were shown, or
    /// `timeout` passed (the stamps not shown stay nil); throws an error delivered instead.
    func await(stamps count: Int, timeout: Double = CommitLatency.timeout) throws {
        runRunLoop(until: { failure != nil || isReady && seen >= count }, timeout: timeout)
        if let failure { throw failure }
    }
}

/// By stamp number, the monotonic time a change first showed each stamp.
struct StampTimes {
    /// By stamp number: when a change first showed it; nil while not shown.
    private(set) var times = [Double?](repeating: nil, count: CommitLatency.commits)
    /// How many stamps were shown so far.
    private(set) var seen = 0

    /// Notes a change showing `count` stamps at `now`: one writer adds stamps 0, 1, 2, ...
    /// in order, so the count names the newest.
    mutating func note(count: Int, at now: Double) {
        let count = min(count, times.count)
        if count > seen { for seq in seen..<count { times[seq] = now } }
        seen = max(seen, count)
    }
}

/// `StampObserver` on its own Realm of the latency database, in a process or thread of its own.
enum LatencyObserver {
    /// Calls `onReady` once the `.initial` callback came, then runs the run loop until every
    /// stamp was seen (or `CommitLatency.timeout`). Returns, by stamp number, the monotonic
    /// time of the first callback that showed it; nil for one never shown.
    static func run(directory: URL, onReady: @escaping () -> Void) throws -> [Double?] {
        let realm = try Realm(configuration: CommitLatency.configuration(directory))
        let observer = StampObserver(realm: realm, onReady: onReady)
        try observer.await(stamps: CommitLatency.commits)
        return observer.times
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
