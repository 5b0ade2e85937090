import Foundation
import Strata
import Synchronization

/// The stamps observed as async code does: a detached task, with no run loop, opens its own
/// Realm of the latency database and consumes `changes` of the stamps with `for await`,
/// noting by stamp number the monotonic time of the first change that showed each.
enum StampStream {
    /// Calls `onReady` once `.initial` came, then waits until every stamp was seen (or
    /// `CommitLatency.timeout`). Returns the times by stamp number; nil for one never shown.
    static func run(directory: URL, onReady: @escaping @Sendable () -> Void) throws -> [Double?] {
        let shown = Mutex(StampTimes()), failure = Mutex<Error?>(nil)
        let done = DispatchSemaphore(value: 0)
        let consumer = Task.detached {
            do {
                let realm = try Realm(configuration: CommitLatency.configuration(directory))
                consuming: for await change in realm.objects(LatencyStamp.self).changes {
                    let now = monotonicSeconds()
                    switch change {
                    case .initial:
                        onReady()
                    case .update(let stamps, _, _, _):
                        let seen = shown.withLock { $0.note(count: stamps.count, at: now); return $0.seen }
                        if seen == CommitLatency.commits { break consuming }
                    case .error(let error):
                        throw error
                    }
                }
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        if done.wait(timeout: .now() + CommitLatency.timeout) == .timedOut {
            consumer.cancel()
            done.wait()
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return shown.withLock { $0.times }
    }
}
