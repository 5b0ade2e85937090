import Foundation

/// A scenario worker's counters, printed as `STATS` lines at most every half second and when
/// it ends, so a worker killed at any moment has reported nearly everything it did.
/// Violations are printed at once: the first 20, then one line saying more follow.
final class WorkerStats {
    private let lock = NSLock()
    private var counters: [Counter: Int] = [:]
    private var violations = 0
    private var lastReport = Date.distantPast

    /// Adds `n` to `counter`.
    func add(_ counter: Counter, _ n: Int = 1) {
        lock.withLock { counters[counter, default: 0] += n }
    }

    /// Counts the checks of `findings` and reports each failure.
    func record(_ findings: Findings) {
        add(.checks, findings.checks)
        findings.failures.forEach(violation)
    }

    /// Reports an invariant that did not hold.
    func violation(_ text: String) {
        let count = lock.withLock {
            violations += 1
            return violations
        }
        if count <= 20 { emit(ReportLine.violation(text).text) }
        if count == 21 { emit(ReportLine.violation("more violations follow; only the first 20 are printed").text) }
    }

    /// Prints the counters if the last report is half a second old.
    func tick() {
        let due = lock.withLock {
            guard Date().timeIntervalSince(lastReport) >= 0.5 else { return false }
            lastReport = Date()
            return true
        }
        if due { report() }
    }

    /// Prints the counters, then `DONE`.
    func finish() {
        report()
        emit(ReportLine.done.text)
    }

    private func report() {
        emit(ReportLine.stats(lock.withLock { counters }).text)
    }
}
