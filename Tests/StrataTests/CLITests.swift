import Foundation
import XCTest

/// The built `strata` executable, run as a child process.
final class CLITests: StrataTestCase {
    private func strata(_ arguments: [String]) throws -> WorkerProcess {
        let process = try WorkerProcess(BuiltProducts.executable("strata"), arguments)
        try process.waitForExit()
        return process
    }

    func testDemoWritesFromTwoProcessesAndPrintsWhatTheFileHolds() throws {
        let demo = try strata(["demo", "--dir", directory.path])
        XCTAssertEqual(demo.process.terminationReason, .exit)
        XCTAssertEqual(demo.process.terminationStatus, 0, demo.transcript)
        let output = demo.lines.joined(separator: "\n")
        XCTAssertTrue(output.contains("opened the file at version 6: sees 5 pets"), output)
        XCTAssertTrue(output.contains("before refresh(): 5 pets, version 6"), output)
        XCTAssertTrue(output.contains("after refresh():  10 pets, version 12"), output)
        XCTAssertTrue(output.contains("demo.strata at version 12 holds 10 pets:"), output)
        XCTAssertTrue(output.contains("written by this process: 4, by the second process: 6"), output)
        XCTAssertTrue(demo.lines.contains { $0.contains("Shadow") && $0.contains("cat") && $0.contains("11") }, output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("demo.strata").path))
    }

    func testDemoRunTwiceReplacesTheOldDatabase() throws {
        let first = try strata(["demo", "--dir", directory.path])
        XCTAssertEqual(first.process.terminationStatus, 0, first.transcript)
        let second = try strata(["demo", "--dir", directory.path])
        XCTAssertEqual(second.process.terminationStatus, 0, second.transcript)
        XCTAssertTrue(second.lines.first?.hasSuffix("(replaced the old one)") ?? false, second.transcript)
        XCTAssertTrue(second.lines.contains("demo.strata at version 12 holds 10 pets:"), second.transcript)
    }

    func testHelpListsTheCommands() throws {
        for word in ["--help", "help"] {
            let help = try strata([word])
            XCTAssertEqual(help.process.terminationStatus, 0)
            XCTAssertTrue(help.lines.contains { $0.hasPrefix("  demo [--dir DIR]") }, help.transcript)
            XCTAssertFalse(help.lines.contains { $0.contains("demo-worker") }, "internal commands are not listed")
        }
    }

    func testUnknownCommandExitsWithStatusTwoAndAMessageOnStandardError() throws {
        let result = try strata(["frobnicate"])
        XCTAssertEqual(result.process.terminationStatus, 2)
        XCTAssertTrue(result.lines.isEmpty, result.transcript)
        XCTAssertTrue(result.errorOutput.contains("unknown command 'frobnicate'"), result.transcript)
    }

    func testCheckReportsAConsistentFileWhileAnotherProcessWrites() throws {
        let demo = try strata(["demo", "--dir", directory.path])
        XCTAssertEqual(demo.process.terminationStatus, 0, demo.transcript)
        let file = directory.appendingPathComponent("demo.strata").path
        let writer = try WorkerProcess.stress(["worker", "insert", "--file", file, "--from", "1", "--count", "200"])
        let check = try strata(["check", file])
        XCTAssertEqual(check.process.terminationStatus, 0, check.transcript)
        XCTAssertTrue(check.lines.first?.contains("consistent at version") ?? false, check.transcript)
        try writer.waitForSuccess()
        let after = try strata(["check", file])
        XCTAssertEqual(after.process.terminationStatus, 0, after.transcript)
    }

    func testCheckExitsWithStatusOneOnAnInconsistentFile() throws {
        checksIntegrityAfterTest = false
        let path = fileURL().path
        try closingRealms {
            let realm = try openRealm(types: [Dog.self])
            try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex"])) }
        }
        try StorageFixtures.removeIndexEntries(path: path, className: "Dog")
        let check = try strata(["check", path])
        XCTAssertEqual(check.process.terminationStatus, 1, check.transcript)
        XCTAssertTrue(check.errorOutput.contains("no entry in the index of 'name'"), check.transcript)
    }

    func testBadDemoArgumentExitsWithStatusTwoAndTheUsage() throws {
        let result = try strata(["demo", "--dir"])
        XCTAssertEqual(result.process.terminationStatus, 2)
        XCTAssertTrue(result.errorOutput.contains("usage: strata demo [--dir DIR]"), result.transcript)
    }
}
