import Foundation

/// One worker process, started with Foundation's `Process` from this same executable: its
/// stdin takes commands, each of its stdout lines goes to `onLine` (on a reading thread) as
/// it arrives, and its stderr is the coordinator's.
final class Child {
    private let process = Process()
    private let input = Pipe(), output = Pipe()
    private let outputRead = DispatchSemaphore(value: 0)
    private var outputDone = false

    /// This executable, which every worker runs.
    private static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

    /// Starts `strata-stress` with `arguments`.
    init(arguments: [String], onLine: @escaping (String) -> Void) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let handle = output.fileHandleForReading
        Thread { [outputRead] in
            var partial = Data()
            while case let data = handle.availableData, !data.isEmpty {
                partial.append(data)
                while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                    onLine(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                    partial.removeSubrange(partial.startIndex...newline)
                }
            }
            outputRead.signal()
        }.start()
    }

    /// Whether the process has not exited yet.
    var isRunning: Bool { process.isRunning }

    /// Whether it exited by itself with status 0.
    var succeeded: Bool { !process.isRunning && process.terminationReason == .exit && process.terminationStatus == 0 }

    /// How it ended: `status N` or `signal N`.
    var outcome: String {
        process.terminationReason == .exit ? "status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
    }

    /// Writes one command line to its stdin (nothing happens if it has exited).
    func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Sends SIGKILL.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits until the process has exited and all its output has been handed to `onLine`, or
    /// until `deadline`; returns whether it ended.
    func wait(until deadline: Date) -> Bool {
        while process.isRunning {
            guard Date() < deadline else { return false }
            usleep(5_000)
        }
        // Returns at once now; without it Foundation keeps two pipe descriptors per process.
        process.waitUntilExit()
        if !outputDone {
            guard outputRead.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success else { return false }
            outputDone = true
        }
        return true
    }
}
