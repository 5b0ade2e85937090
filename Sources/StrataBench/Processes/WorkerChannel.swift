import Foundation

/// A measurement's time span on the monotonic clock, which every process on the machine
/// shares: the parent picks it once all workers are ready, so they start together.
struct MeasurementWindow {
    var start: Double
    var end: Double

    /// A window of `seconds` that begins shortly after now, once every worker has been told.
    static func starting(lasting seconds: Double) -> MeasurementWindow {
        let start = monotonicSeconds() + 0.05
        return MeasurementWindow(start: start, end: start + seconds)
    }

    /// The line that starts a worker: `GO <start> <end>`.
    var goLine: String { "GO \(start) \(end)" }

    /// Parses `goLine`.
    init?(goLine: String) {
        let fields = goLine.split(separator: " ")
        guard fields.count == 3, fields[0] == "GO", let start = Double(fields[1]), let end = Double(fields[2])
        else { return nil }
        self.init(start: start, end: end)
    }

    init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// Sleeps until the window starts.
    func awaitStart() {
        let wait = start - monotonicSeconds()
        if wait > 0 { usleep(useconds_t(wait * 1e6)) }
    }

    /// Whether the window is over.
    var isOver: Bool { monotonicSeconds() >= end }
}

/// What a worker reports when it is done.
struct WorkerResult: Codable {
    /// Commits or reads done inside the window.
    var operations = 0
    /// Seconds from the window's start to the end of the last operation.
    var seconds = 0.0
    /// Reads whose check sum was wrong (readers verify every batch).
    var mismatches = 0
    /// Latency roles: when each commit's `write {}` was called and when it returned
    /// (monotonic seconds).
    var writeCallTimes: [Double]?
    var writeReturnTimes: [Double]?
    /// Latency roles: when the observer's callback first showed each commit; nil if never.
    var callbackTimes: [Double?]?
}

/// The worker's side of the parent's protocol (`WorkerProcess`): lines on standard output
/// and input. Diagnostics go to standard error.
enum WorkerChannel {
    static let ready = "READY"
    static let resultPrefix = "RESULT "

    /// Tells the parent this worker is set up.
    static func sayReady() {
        FileHandle.standardOutput.write(Data((ready + "\n").utf8))
    }

    /// Waits for the parent's `GO` line.
    static func awaitWindow() throws -> MeasurementWindow {
        guard let line = readLine(), let window = MeasurementWindow(goLine: line) else {
            throw BenchError("expected a GO line from the parent")
        }
        return window
    }

    /// Sends the result to the parent.
    static func report(_ result: WorkerResult) throws {
        let line = resultPrefix + String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
