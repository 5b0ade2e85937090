import Foundation

/// Runs this thread's run loop in short turns until `done()` holds or `timeout` seconds have
/// passed: Strata delivers notifications (and `writeAsync` completions) on the run loop of the
/// Realm's thread. Returns whether `done()` held.
@discardableResult
func runRunLoop(until done: () -> Bool, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !done() {
        guard Date() < deadline else { return false }
        _ = RunLoop.current.run(mode: .default, before: min(deadline, Date(timeIntervalSinceNow: 0.1)))
    }
    return true
}
