import Foundation
import Synchronization

/// The progress line of long work (`check`, `compact`, `export`, `import`, `demo`): drawn on
/// stderr, only when stderr is a terminal, from one second after the start
/// (`STRATA_PROGRESS_AFTER` seconds when set, 0 for at once), redrawn five times a second
/// by a thread of its own, and erased by `finish()`.
///
/// The work reports with `update(_:)`, an atomic store cheap enough to call per object; or
/// the line reads `poll` (for work that cannot report, such as LMDB copying a file).
final class Progress: @unchecked Sendable {
    private let label: String
    private let unit: String
    private let total: Int?
    private let poll: (@Sendable () -> Int)?
    private let done = Atomic<Int>(0)
    private let state = NSCondition()
    private var stopped = false
    private var running = false
    private var shown = false

    /// Starts the progress of `label` (e.g. "exporting"), counting `unit`s (plural, e.g.
    /// "objects") out of `total` when known.
    init(_ label: String, unit: String, total: Int?, poll: (@Sendable () -> Int)? = nil) {
        self.label = label
        self.unit = unit
        self.total = total
        self.poll = poll
        guard isatty(2) == 1 else { return }
        let delay = ProcessInfo.processInfo.environment["STRATA_PROGRESS_AFTER"].flatMap(Double.init) ?? 1
        if delay <= 0 { show() }  // at once: drawn before the work begins
        running = true
        Thread { [self] in draw(after: max(0.2, delay)) }.start()
    }

    /// Reports that `count` units are done.
    func update(_ count: Int) {
        done.store(count, ordering: .relaxed)
    }

    /// Stops drawing and erases the line, if one was drawn. Called when the work ends,
    /// before anything else is printed (again, harmlessly, from a `defer` for early exits).
    func finish() {
        state.lock()
        stopped = true
        state.broadcast()
        while running { state.wait() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
        state.unlock()
    }

    /// The drawing thread: waits `delay` seconds, then draws every 0.2 s until stopped.
    private func draw(after delay: Double) {
        state.lock()
        var next = Date(timeIntervalSinceNow: delay)
        while !stopped {
            if state.wait(until: next) { continue }
            show()
            next = Date(timeIntervalSinceNow: 0.2)
        }
        running = false
        state.broadcast()
        state.unlock()
    }

    /// Draws the line now.
    private func show() {
        FileHandle.standardError.write(Data("\r\(text())\u{1B}[K".utf8))
        shown = true
    }

    /// "exporting: 512,000 of 1,000,000 objects (51%)", or without a total "importing:
    /// 512,000 lines".
    private func text() -> String {
        let count = poll?() ?? done.load(ordering: .relaxed)
        guard let total, total > 0 else { return "\(label): \(Output.grouped(count)) \(unit)" }
        let percent = min(100, count * 100 / total)
        return "\(label): \(Output.grouped(count)) of \(Output.grouped(total)) \(unit) (\(percent)%)"
    }
}
