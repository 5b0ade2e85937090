import Foundation

/// The coordinator's commands to a scenario worker, read from stdin on a thread of their own.
///
/// - `stop`: finish the current step, report and exit (writers, churners);
/// - `final V`: the writers have stopped and the file is at version V (readers check that
///   version and exit; observers wait for its notification);
/// - `release` and `hold`: stop holding old snapshots, and start again (the `growth`
///   scenario's readers).
///
/// End of input counts as `stop`, so a worker never outlives its coordinator.
final class ControlChannel {
    private let condition = NSCondition()
    private var stopped = false
    private var released = false
    private var final: UInt64?

    /// Starts reading stdin.
    init() {
        Thread { [self] in
            while let line = readLine() { handle(line) }
            update { $0.stopped = true }
        }.start()
    }

    /// Whether the worker should wind down: `stop`, `final` or end of input arrived.
    var stopRequested: Bool { condition.withLock { stopped || final != nil } }

    /// Whether the last of `release` and `hold` was `release`.
    var isReleased: Bool { condition.withLock { released } }

    /// The version `final` announced, if it arrived.
    var finalVersion: UInt64? { condition.withLock { final } }

    /// Sleeps for `seconds`, or less if a command arrives meanwhile.
    func pause(_ seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        let before = (stopped, released, final)
        while before == (stopped, released, final) && condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Waits until `final` arrives and returns its version, or nil at end of input.
    func waitForFinal() -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        while final == nil && !stopped { condition.wait() }
        return final
    }

    private func handle(_ line: String) {
        let words = line.split(separator: " ")
        switch (words.first, words.count) {
        case ("stop", 1): update { $0.stopped = true }
        case ("release", 1): update { $0.released = true }
        case ("hold", 1): update { $0.released = false }
        case ("final", 2) where UInt64(words[1]) != nil: update { $0.final = UInt64(words[1]) }
        default:
            emit("VIOLATION unknown command '\(line)'")
        }
    }

    private func update(_ change: (ControlChannel) -> Void) {
        condition.withLock {
            change(self)
            condition.broadcast()
        }
    }
}
