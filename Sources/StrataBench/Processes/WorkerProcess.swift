import Foundation

/// The parent's side of one worker: a child process of this binary in a worker role
/// (`--role`), driven through its standard input and output (`WorkerChannel` is the child's
/// side). It says `READY` once set up, starts on `GO`, and ends with one `RESULT` line.
final class WorkerProcess {
    private let process: Process
    private let input = Pipe()
    private let output = Pipe()
    /// Output read but not yet consumed as a line.
    private var buffered = Data()

    /// Starts `strata-bench arguments`; its standard error is this process's.
    init(arguments: [String]) throws {
        process = try launchBenchProcess(arguments: arguments, input: input, output: output)
    }

    /// Waits for the worker's `READY` line.
    func awaitReady() throws {
        guard let line = nextLine(), line == WorkerChannel.ready else {
            throw BenchError("a \(process.arguments?.joined(separator: " ") ?? "worker") process did not get ready (exit status \(exitStatus()))")
        }
    }

    /// Tells the worker to do its work inside `window`. (SIGPIPE is ignored by the parent, so
    /// a worker that died makes this throw rather than end the parent.)
    func start(_ window: MeasurementWindow) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((window.goLine + "\n").utf8))
    }

    /// Waits for the worker to finish and returns what it reported.
    func result() throws -> WorkerResult {
        while let line = nextLine() {
            guard line.hasPrefix(WorkerChannel.resultPrefix) else { continue }
            let status = exitStatus()
            guard status == 0 else { throw BenchError("a worker exited with status \(status)") }
            return try JSONDecoder().decode(WorkerResult.self, from: Data(line.dropFirst(WorkerChannel.resultPrefix.count).utf8))
        }
        throw BenchError("a worker exited with status \(exitStatus()) before reporting")
    }

    /// Ends the worker if it is still running (after another worker failed).
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    private func exitStatus() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The next line of the worker's output, or nil at its end.
    private func nextLine() -> String? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { return nil }
            buffered.append(more)
        }
    }
}

/// Starts this binary again (never `fork`) with `arguments`, reading `input` (when given) and
/// writing its standard output into `output`.
func launchBenchProcess(arguments: [String], input: Pipe?, output: Pipe) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = arguments
    if let input { process.standardInput = input }
    process.standardOutput = output
    try process.run()
    return process
}
