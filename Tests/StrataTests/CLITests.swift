import Foundation
import StrataTestSupport
import XCTest

/// The built `strata` executable, run as a child process.
final class CLITests: StrataTestCase {
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

    func testDemoCreatesAMissingDirectoryButNotAMissingParent() throws {
        let child = directory.appendingPathComponent("new")
        let made = try strata(["demo", "--dir", child.path, "--json"])
        XCTAssertEqual(made.process.terminationStatus, 0, made.transcript)
        XCTAssertTrue(FileManager.default.fileExists(atPath: child.appendingPathComponent("demo.strata").path))

        let parent = directory.appendingPathComponent("mistyped")
        let refused = try strata(["demo", "--dir", parent.appendingPathComponent("demo").path])
        XCTAssertEqual(refused.process.terminationStatus, 1, refused.transcript)
        XCTAssertTrue(refused.errorOutput.contains("the directory '\(parent.path)' does not exist"), refused.transcript)
        XCTAssertTrue(refused.errorOutput.contains("hint: give --dir an existing directory"), refused.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: parent.path), "no directory is made")

        let file = child.appendingPathComponent("demo.strata").path
        let notDirectory = try strata(["demo", "--dir", file])
        XCTAssertEqual(notDirectory.process.terminationStatus, 1, notDirectory.transcript)
        XCTAssertTrue(notDirectory.errorOutput.contains("'\(file)' is not a directory"), notDirectory.transcript)
    }

    /// The commands `strata help` lists.
    private static let commands = ["info", "query", "log", "show", "diff", "check", "compact", "export", "import", "demo", "version"]

    func testHelpListsTheCommands() throws {
        for words in [["--help"], ["help"], []] {
            let help = try strata(words)
            XCTAssertEqual(help.process.terminationStatus, 0)
            let listed = help.lines.compactMap { line in Self.commands.first { line.hasPrefix("  \($0) ") } }
            XCTAssertEqual(listed, Self.commands, help.transcript)
            XCTAssertFalse(help.lines.contains { $0.contains("demo-worker") }, "internal commands are not listed")
            for line in help.lines { XCTAssertLessThanOrEqual(line.count, 80, line) }
        }
    }

    func testEveryCommandHasHelpWithUsageOptionsExamplesAndExitStatus() throws {
        for command in Self.commands {
            let help = try strata([command, "--help"])
            XCTAssertEqual(help.process.terminationStatus, 0, help.transcript)
            XCTAssertTrue(help.errorOutput.isEmpty, help.transcript)
            XCTAssertTrue(help.lines.first?.hasPrefix("usage: strata \(command) ") ?? false, help.transcript)
            for section in ["options:", "exit status:"] { XCTAssertTrue(help.lines.contains(section), "\(command): \(section)") }
            XCTAssertTrue(help.lines.contains { $0 == "example:" || $0 == "examples:" }, help.transcript)
            XCTAssertTrue(help.lines.contains { $0.hasPrefix("  strata \(command)") || $0.contains("&& strata \(command)") }, help.transcript)
            XCTAssertTrue(help.lines.contains { $0.hasPrefix("  -h, --help") }, help.transcript)
            XCTAssertTrue(help.lines.contains { $0.hasPrefix("  0  ") } && help.lines.contains { $0.hasPrefix("  2  ") }, help.transcript)
            XCTAssertEqual(command == "export", !help.lines.contains { $0.hasPrefix("  --json") }, "--json on every command that prints data")
            for line in help.lines { XCTAssertLessThanOrEqual(line.count, 80, "\(command): \(line)") }
            XCTAssertEqual(try strata(["help", command]).lines, help.lines, "strata help \(command)")
            XCTAssertEqual(try strata([command, "-h"]).lines, help.lines, "-h")
        }
        let unknown = try strata(["help", "frobnicate"])
        XCTAssertEqual(unknown.process.terminationStatus, 2)
        XCTAssertTrue(unknown.errorOutput.contains("hint: 'strata help' lists the commands"), unknown.transcript)
    }

    func testUnknownOptionsExitWithStatusTwoTheUsageAndAHint() throws {
        for command in Self.commands {
            let run = try strata([command, "--frobnicate"])
            XCTAssertEqual(run.process.terminationStatus, 2, run.transcript)
            XCTAssertTrue(run.lines.isEmpty, run.transcript)
            XCTAssertTrue(run.errorOutput.hasPrefix("strata: \(command): unknown option '--frobnicate'\nusage: strata \(command) "), run.transcript)
            XCTAssertTrue(run.errorOutput.hasSuffix("hint: 'strata \(command) --help' shows the options and examples\n"), run.transcript)
            let usage = run.errorOutput.split(separator: "\n").dropFirst().dropLast()
            for line in usage {
                XCTAssertLessThanOrEqual(line.count, 80, String(line))
                XCTAssertEqual(line.filter { $0 == "[" }.count, line.filter { $0 == "]" }.count, "broken inside brackets: \(line)")
            }
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
        XCTAssertEqual(check.lines.last, "result         consistent", check.transcript)
        let counted = try strataObject(["check", file, "--json"])
        XCTAssertEqual(counted["consistent"] as? Bool, true)
        XCTAssertGreaterThanOrEqual(counted["objects"] as? Int ?? 0, 10, "the pets, and the items written so far")
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
        XCTAssertTrue(check.errorOutput.contains("\nhint: "), check.transcript)
        let json = try strata(["check", path, "--json"])
        XCTAssertEqual(json.process.terminationStatus, 1, json.transcript)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.lines.joined().utf8)) as? [String: Any])
        XCTAssertEqual(result["consistent"] as? Bool, false)
        XCTAssertTrue((result["problem"] as? String)?.contains("no entry in the index of 'name'") ?? false, json.transcript)
    }

    func testBadDemoArgumentExitsWithStatusTwoAndTheUsage() throws {
        let result = try strata(["demo", "--dir"])
        XCTAssertEqual(result.process.terminationStatus, 2)
        XCTAssertTrue(result.errorOutput.contains("usage: strata demo [--dir DIR]"), result.transcript)
    }

    func testDemoJSONNamesBothProcessesAndEveryPet() throws {
        let demo = try strataObject(["demo", "--dir", directory.path, "--json"])
        XCTAssertEqual(demo["file"] as? String, fileURL("demo.strata").path)
        XCTAssertEqual(demo["version"] as? Int, 12)
        let processes = try XCTUnwrap(demo["processes"] as? [[String: Int]])
        XCTAssertEqual(processes.map { $0["pets"] }, [4, 6], "Rex's birthday was written by the second process")
        XCTAssertNotEqual(processes[0]["pid"], processes[1]["pid"])
        let pets = try XCTUnwrap(demo["pets"] as? [[String: Any]])
        XCTAssertEqual(pets.compactMap { $0["id"] as? Int }, Array(1...10))
        XCTAssertEqual(pets[0]["name"] as? String, "Rex")
        XCTAssertEqual(pets[0]["age"] as? Int, 10)
        XCTAssertEqual(pets[0]["writtenBy"] as? Int, processes[1]["pid"])
    }

    // MARK: compact

    func testCompactWritesASmallerCopyWithTheSameObjects() throws {
        XCTAssertEqual(try strata(["demo", "--dir", directory.path]).process.terminationStatus, 0)
        let file = fileURL("demo.strata").path, copy = fileURL("copy.strata").path
        let run = try strata(["compact", file, copy])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        XCTAssertEqual(run.lines.count, 2, run.transcript)
        XCTAssertTrue(run.lines[0].hasPrefix("file  \(file)") && run.lines[1].hasPrefix("copy  \(copy)"), run.transcript)
        let before = try strataObject(["info", file, "--json"]), after = try strataObject(["info", copy, "--json"])
        XCTAssertLessThan(after["bytes"] as? Int ?? .max, before["bytes"] as? Int ?? 0)
        XCTAssertEqual((after["pages"] as? [String: Int])?["free"], 0)
        XCTAssertEqual(after["objects"] as? Int, 10)
        XCTAssertEqual(after["history"] as? [String: Int], before["history"] as? [String: Int])
        XCTAssertEqual(try strata(["export", copy]).lines, try strata(["export", file]).lines)

        let again = try strata(["compact", file, copy])
        XCTAssertEqual(again.process.terminationStatus, 1, again.transcript)
        XCTAssertTrue(again.errorOutput.contains("'\(copy)' exists\nhint: give the name of a new file"), again.transcript)

        let json = try strataObject(["compact", file, fileURL("third.strata").path, "--json"])
        XCTAssertEqual(Set(json.keys), ["file", "bytes", "out", "outBytes"])
        XCTAssertEqual(json["outBytes"] as? Int, after["bytes"] as? Int)
    }

    // MARK: A file another process writes

    func testInfoCompactAndDiffWhileAnotherProcessWrites() throws {
        let file = fileURL("busy.strata").path
        let writer = try WorkerProcess.stress(["worker", "insert", "--file", file, "--from", "1", "--count", "500"])
        try writer.expectLine(startingWith: "COMMIT")
        var counts: [Int] = []
        for round in 0..<3 {
            let info = try strataObject(["info", file, "--json"])
            let objects = try XCTUnwrap(info["objects"] as? Int), version = try XCTUnwrap(info["version"] as? Int)
            XCTAssertEqual(objects, version - 1, "one snapshot: the class was stored at version 1, then one item per commit")
            counts.append(objects)
            let copy = fileURL("copy\(round).strata").path
            XCTAssertEqual(try strata(["compact", file, copy]).process.terminationStatus, 0)
            let copied = try strataObject(["check", copy, "--json"])
            XCTAssertEqual(copied["consistent"] as? Bool, true)
            XCTAssertEqual((copied["objects"] as? Int).map { $0 + 1 }, copied["version"] as? Int, "the copy is one version")
            let diff = try strataObject(["diff", file, "1", String(version), "--json"])
            let inserted = (diff["classes"] as? [[String: Any]])?.first?["inserted"] as? [[String: Any]] ?? []
            XCTAssertEqual(inserted.compactMap { $0["primaryKey"] as? Int }, Array(1...objects))
        }
        XCTAssertEqual(counts, counts.sorted(), "later runs see later versions")
        try writer.waitForSuccess()
        XCTAssertEqual(try strataObject(["info", file, "--json"])["objects"] as? Int, 500)
    }

    func testPipedOutputHasNoColourAndFitsEightyColumns() throws {
        XCTAssertEqual(try strata(["demo", "--dir", directory.path]).process.terminationStatus, 0)
        let file = fileURL("demo.strata").path
        for arguments in [["info", file], ["log", file], ["show", file, "12"], ["diff", file, "1", "12"], ["check", file],
                          ["query", file, "Pet", "age > 1"]] {
            let run = try strata(arguments, environment: ["TERM": "xterm"])
            XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
            for line in run.lines {
                XCTAssertFalse(line.contains("\u{1B}"), "\(arguments[0]): \(line)")
                let layout = line.replacingOccurrences(of: file, with: "FILE")  // paths are printed whole
                XCTAssertLessThanOrEqual(layout.count, 80, "\(arguments[0]): \(line)")
            }
        }
    }
}
