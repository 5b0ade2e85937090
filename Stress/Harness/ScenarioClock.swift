import Foundation

/// Runs a scenario coordinator's loop: `step` every 20 ms until a deadline, and a progress
/// line now and then (every 10 s, or every minute in runs over two minutes), so a run of
/// hours shows it is alive. One clock serves every phase of a run.
final class ScenarioClock {
    let started = Date()
    private let interval: Double
    private var nextProgress: Double

    /// A clock for a run of `duration` seconds.
    init(duration: Double) {
        interval = duration > 120 ? 60 : 10
        nextProgress = interval
    }

    /// Seconds since the clock started.
    var elapsed: Double { Date().timeIntervalSince(started) }

    /// Calls `step` every 20 ms until `seconds` after the start; prints `progress()` lines.
    func run(until seconds: Double, progress: () -> String, step: () throws -> Void) rethrows {
        while elapsed < seconds {
            try step()
            if elapsed >= nextProgress {
                emit(String(format: "  %4.0f s  ", elapsed) + progress())
                nextProgress += interval
            }
            usleep(20_000)
        }
    }
}
