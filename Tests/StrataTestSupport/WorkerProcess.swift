import Foundation

/// The executables built next to the test bundle (`.build/debug/strata`, `strata-stress`).
public enum BuiltProducts {
    /// The executable `name` from the build directory holding this test bundle. Throws an
    /// error saying where it looked when it is missing (build everything first with
    /// `swift build --build-tests`).
    public static func executable(_ name: String) throws -> URL {
        let searched = candidateDirectories()
        for directory in searched {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw WorkerError("the executable '\(name)' is not built: looked in \(searched.map(\.path).joined(separator: ", ")); run `swift build --build-tests` first")
    }

    /// Directories that may hold the built products: where the test bundle and the running
    /// executable are, and their parents.
    private static func candidateDirectories() -> [URL] {
        var urls = [Bundle.main.bundleURL]
        urls += Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        urls.append(URL(fileURLWithPath: CommandLine.arguments[0]))
        urls.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
        var directories: [URL] = []
        for url in urls {
            for directory in [url, url.deletingLastPathComponent()] {
                let standard = directory.standardizedFileURL
                if !directories.contains(standard) { directories.append(standard) }
            }
        }
        return directories
    }
}

/// A failure of a child process: what went wrong, with its output so far.
public struct WorkerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A child process run with Foundation's `Process`, its stdout read line by line as it
/// arrives, its stderr collected, and its stdin open for commands.
///
/// Deadlines are safety nets against a hung child, never measurements.
public final class WorkerProcess {
    /// The child process.
    public let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private let shared = Shared()

    /// What the reader threads fill in, under `condition` (they do not keep the
    /// `WorkerProcess` alive, so its `deinit` can kill a child left running).
    private final class Shared {
        let condition = NSCondition()
        var unread: [String] = []
        var seen: [String] = []
        var errorText = Data()
        var openStreams = 2
    }

    /// Starts `executable` with `arguments`.
    public init(_ executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        Self.startReading(output.fileHandleForReading, shared) { shared, data, partial in
            partial.append(data)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
                partial.removeSubrange(partial.startIndex...newline)
                shared.unread.append(line)
                shared.seen.append(line)
            }
        }
        Self.startReading(errors.fileHandleForReading, shared) { shared, data, _ in shared.errorText.append(data) }
    }

    /// Starts `strata-stress` with `arguments`.
    public static func stress(_ arguments: [String]) throws -> WorkerProcess {
        try WorkerProcess(BuiltProducts.executable("strata-stress"), arguments)
    }

    deinit { kill() }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Every stdout line so far, and stderr, for failure messages.
    public var transcript: String {
        shared.condition.withLock {
            "stdout:\n" + shared.seen.joined(separator: "\n") + "\nstderr:\n" + String(decoding: shared.errorText, as: UTF8.self)
        }
    }

    /// Every stdout line printed so far.
    public var lines: [String] { shared.condition.withLock { shared.seen } }

    /// Everything printed on stderr so far.
    public var errorOutput: String { shared.condition.withLock { String(decoding: shared.errorText, as: UTF8.self) } }

    /// Writes one command line to the child's stdin.
    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The next stdout line, which must start with `prefix`; throws if it does not, or if
    /// none comes before `timeout` seconds or the child closes stdout.
    @discardableResult
    public func expectLine(startingWith prefix: String, timeout: TimeInterval = 120) throws -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        let condition = shared.condition
        condition.lock()
        while shared.unread.isEmpty && shared.openStreams > 0 && condition.wait(until: deadline) {}
        let line = shared.unread.isEmpty ? nil : shared.unread.removeFirst()
        condition.unlock()
        guard let line else {
            throw WorkerError("no line starting with '\(prefix)' from \(process.arguments ?? []) within \(Int(timeout)) s\n\(transcript)")
        }
        guard line.hasPrefix(prefix) else {
            throw WorkerError("expected a line starting with '\(prefix)', got '\(line)'\n\(transcript)")
        }
        return line
    }

    /// Waits until the child has exited and its output is read; throws after `timeout`
    /// seconds (killing it).
    public func waitForExit(timeout: TimeInterval = 300) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill()
            throw WorkerError("\(process.arguments ?? []) did not exit within \(Int(timeout)) s\n\(transcript)")
        }
        let condition = shared.condition
        condition.lock()
        while shared.openStreams > 0 && condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Waits for the child to exit and throws unless it exited with status 0.
    public func waitForSuccess(timeout: TimeInterval = 300) throws {
        try waitForExit(timeout: timeout)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw WorkerError("\(process.arguments ?? []) ended with \(process.terminationReason == .exit ? "status" : "signal") \(process.terminationStatus)\n\(transcript)")
        }
    }

    /// Sends `signal` (SIGKILL by default) if the child is still running.
    public func kill(_ signal: Int32 = SIGKILL) {
        if process.isRunning { Glibc.kill(process.processIdentifier, signal) }
    }

    /// Reads `handle` on its own thread until end of file, passing each chunk (and a buffer
    /// of unfinished line bytes) to `consume` under the lock.
    private static func startReading(_ handle: FileHandle, _ shared: Shared,
                                     _ consume: @escaping (Shared, Data, inout Data) -> Void) {
        let thread = Thread {
            var partial = Data()
            while true {
                let data = handle.availableData
                shared.condition.lock()
                defer { shared.condition.broadcast(); shared.condition.unlock() }
                if data.isEmpty {
                    if !partial.isEmpty { consume(shared, Data("\n".utf8), &partial) }
                    shared.openStreams -= 1
                    return
                }
                consume(shared, data, &partial)
            }
        }
        thread.start()
    }
}

/// The value of `name=` in a worker's `KEY name=value ...` line.
public func field(_ name: String, in line: String) -> String? {
    line.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
}
