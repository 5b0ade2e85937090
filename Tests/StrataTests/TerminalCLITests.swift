import Foundation
import XCTest

/// What `strata` prints to a terminal: colour on stdout, progress lines on stderr; and that
/// neither reaches a pipe.
final class TerminalCLITests: StrataTestCase {
    private let erase = "\r\u{1B}[K"

    /// `strata demo` in the test's directory; returns the file's path.
    private func demoFile() throws -> String {
        XCTAssertEqual(try strata(["demo", "--dir", directory.path]).process.terminationStatus, 0)
        return fileURL("demo.strata").path
    }

    func testColourOnlyOnATerminalAndNotWithNoColour() throws {
        let file = try demoFile()
        let terminal = ["TERM": "xterm"]
        let show = try TerminalRun(["show", file, "12"], terminal: .stdout, environment: terminal)
        XCTAssertEqual(show.status, 0, show.piped)
        XCTAssertTrue(show.terminal.contains("  \u{1B}[33m~\u{1B}[0m 1  age=9 -> 10"), show.terminal)
        let check = try TerminalRun(["check", file], terminal: .stdout, environment: terminal)
        XCTAssertTrue(check.terminal.contains("\u{1B}[32mconsistent\u{1B}[0m"), check.terminal)
        let plain = try TerminalRun(["show", file, "12"], terminal: .stdout, environment: ["TERM": "xterm", "NO_COLOR": "1"])
        XCTAssertFalse(plain.terminal.contains("\u{1B}"), plain.terminal)
        XCTAssertTrue(plain.terminal.contains("  ~ 1  age=9 -> 10"), plain.terminal)
        let json = try TerminalRun(["show", file, "12", "--json"], terminal: .stdout, environment: terminal)
        XCTAssertFalse(json.terminal.contains("\u{1B}"), "JSON is never coloured: \(json.terminal)")
    }

    func testEveryColourIsResetBeforeTheEndOfItsLine() throws {
        let file = try demoFile()
        for arguments in [["log", file], ["show", file, "12"], ["diff", file, "1", "12"], ["check", file]] {
            let run = try TerminalRun(arguments, terminal: .stdout, environment: ["TERM": "xterm"])
            XCTAssertEqual(run.status, 0, run.piped)
            XCTAssertTrue(run.terminal.contains("\u{1B}["), "\(arguments[0]) is coloured: \(run.terminal)")
            for line in run.terminal.components(separatedBy: "\r\n") {
                XCTAssertFalse(line.hasPrefix("\u{1B}[0m"), "\(arguments[0]): a reset after the newline: \(line.debugDescription)")
                let colours = line.components(separatedBy: "\u{1B}[3").count - 1
                let resets = line.components(separatedBy: "\u{1B}[0m").count - 1
                XCTAssertEqual(colours, resets, "\(arguments[0]): each colour reset on its own line: \(line.debugDescription)")
                if let last = line.range(of: "\u{1B}[", options: .backwards) {
                    XCTAssertTrue(line[last.lowerBound...].hasPrefix("\u{1B}[0m"), "ends reset: \(line.debugDescription)")
                }
            }
        }
    }

    func testLongRunningCommandsShowProgressOnAStderrTerminal() throws {
        let file = try demoFile()
        let now = ["STRATA_PROGRESS_AFTER": "0"]
        let export = try TerminalRun(["export", file], terminal: .stderr, environment: now)
        XCTAssertEqual(export.status, 0, export.terminal)
        XCTAssertTrue(export.terminal.hasPrefix("\rexporting: 0 of 10 objects (0%)\u{1B}[K"), export.terminal)
        XCTAssertTrue(export.terminal.hasSuffix(erase), "the line is erased at the end: \(export.terminal)")
        XCTAssertEqual(export.piped.split(separator: "\n").count, 11, "stdout holds only the export")

        let jsonl = fileURL("pets.jsonl").path
        try export.piped.write(toFile: jsonl, atomically: true, encoding: .utf8)
        for (arguments, label) in [(["check", file], "checking: 0 of 10 objects"),
                                   (["compact", file, fileURL("copy.strata").path], "compacting: 0 of "),
                                   (["import", fileURL("new.strata").path, jsonl], "importing: 0 of 11 lines"),
                                   (["demo", "--dir", fileURL("again").path], "demo: 0 of 11 commits")] {
            let run = try TerminalRun(arguments, terminal: .stderr, environment: now)
            XCTAssertEqual(run.status, 0, "\(arguments[0]): \(run.terminal)")
            XCTAssertTrue(run.terminal.hasPrefix("\r" + label), "\(arguments[0]): \(run.terminal)")
            XCTAssertTrue(run.terminal.hasSuffix(erase), "\(arguments[0]): \(run.terminal)")
            XCTAssertFalse(run.piped.contains("\u{1B}"), "\(arguments[0]): stdout is a pipe: \(run.piped)")
        }
    }

    func testNoProgressWhenStderrIsAPipe() throws {
        let file = try demoFile()
        for arguments in [["export", file], ["check", file]] {
            let run = try strata(arguments, environment: ["STRATA_PROGRESS_AFTER": "0"])
            XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
            XCTAssertEqual(run.errorOutput, "", run.transcript)
        }
    }
}
