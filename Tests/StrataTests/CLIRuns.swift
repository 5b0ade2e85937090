import Foundation
import StrataTestSupport
import XCTest

/// Running the built `strata` executable from the CLI tests.
extension StrataTestCase {
    /// Runs `strata` with `arguments` until it exits; its output is in the result. With an
    /// `environment`, runs it through env(1) with those variables added and NO_COLOR removed
    /// (as `TerminalRun` does).
    func strata(_ arguments: [String], environment: [String: String] = [:]) throws -> WorkerProcess {
        let executable = try BuiltProducts.executable("strata")
        let process = environment.isEmpty
            ? try WorkerProcess(executable, arguments)
            : try WorkerProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                ["-u", "NO_COLOR"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                                    + [executable.path] + arguments)
        try process.waitForExit()
        return process
    }

    /// Runs `strata import` of `lines`, written out as a JSON Lines file, into the file `name`.
    func strataImport(_ lines: [String], into name: String) throws -> WorkerProcess {
        let jsonl = fileURL(name + ".jsonl").path
        try lines.map { $0 + "\n" }.joined().write(toFile: jsonl, atomically: true, encoding: .utf8)
        return try strata(["import", fileURL(name).path, jsonl])
    }

    /// Exports the file at `source`, imports the export into the file `name`, and requires
    /// both to succeed, the copy to export the same lines and `strata check` to pass on it.
    /// Returns the export.
    func assertExportImportRoundTrip(_ source: String, into name: String,
                                     file: StaticString = #filePath, line: UInt = #line) throws -> WorkerProcess {
        let export = try strata(["export", source])
        XCTAssertEqual(export.process.terminationStatus, 0, export.transcript, file: file, line: line)
        let imported = try strataImport(export.lines, into: name)
        XCTAssertEqual(imported.process.terminationStatus, 0, imported.transcript, file: file, line: line)
        XCTAssertEqual(try strata(["export", fileURL(name).path]).lines, export.lines, file: file, line: line)
        let check = try strata(["check", fileURL(name).path])
        XCTAssertEqual(check.process.terminationStatus, 0, check.transcript, file: file, line: line)
        return export
    }

    /// Runs `strata` with `arguments`, requires exit status 0 and one line on stdout, and
    /// returns that line parsed as JSON.
    func strataJSON(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let run = try strata(arguments)
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript, file: file, line: line)
        XCTAssertEqual(run.lines.count, 1, "one JSON document on one line: \(run.transcript)", file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(run.lines.joined().utf8))
    }

    /// `strataJSON` for a document that is a JSON object.
    func strataObject(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(try strataJSON(arguments, file: file, line: line) as? [String: Any], file: file, line: line)
    }
}

/// A run of `strata` with stdout or stderr on a pseudo-terminal, to see what it prints to a
/// terminal (colour, progress lines); the other stream and stdin are pipes. The environment
/// is this process's with `environment` added.
struct TerminalRun {
    /// Which stream is the terminal.
    enum Stream { case stdout, stderr }

    let status: Int32
    /// Everything written to the terminal (newlines arrive as "\r\n").
    let terminal: String
    /// Everything written to the other stream.
    let piped: String

    /// The bytes the reading thread collects (read by the test once that thread is done).
    private final class Collected { var data = Data() }

    /// Runs `strata` with `arguments`, `stream` on a new pseudo-terminal, until it exits.
    init(_ arguments: [String], terminal stream: Stream, environment extra: [String: String] = [:]) throws {
        // posix_openpt and friends by hand (Glibc's module leaves them out): open the
        // multiplexer, unlock the new terminal (TIOCSPTLCK) and ask its number (TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw WorkerError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw WorkerError("cannot open /dev/pts/\(number)") }
        let process = Process()
        process.executableURL = try BuiltProducts.executable("strata")
        process.arguments = arguments
        // NO_COLOR only when the test gives it (a test runner may set it for itself).
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "NO_COLOR" }.merging(extra) { $1 }
        let pipe = Pipe()
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardOutput = stream == .stdout ? terminal : pipe
        process.standardError = stream == .stderr ? terminal : pipe
        process.standardInput = Pipe()
        try process.run()
        close(slave)
        let seen = Collected()
        let finished = DispatchSemaphore(value: 0)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(master, &buffer, buffer.count)
                if n <= 0 { break }  // EIO once every copy of the terminal's other end is closed
                seen.data.append(contentsOf: buffer[0..<n])
            }
            finished.signal()
        }.start()
        let other = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        _ = finished.wait(timeout: .now() + 60)
        close(master)
        status = process.terminationStatus
        self.terminal = String(decoding: seen.data, as: UTF8.self)
        piped = String(decoding: other, as: UTF8.self)
    }
}
