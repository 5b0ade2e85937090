import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// `strata log`, `show` and `diff`, run as the built executable against real files.
final class HistoryCLITests: StrataTestCase {
    /// Runs `strata ... --json` and returns its stdout parsed, failing unless it exits with 0.
    private func json(_ arguments: [String]) throws -> Any {
        try strataJSON(arguments + ["--json"])
    }

    /// A file with five versions: 1 stores the classes, then:
    /// 2 "adopt" (Dog 1, 2, 3), 3 (Dog 2 renamed and older, Dog 3 deleted),
    /// 4 "tags" (Tag swift), 5 "clear" (every Dog deleted, Dog 7 added).
    private func makeFile() throws -> String {
        try closingRealms {
            let realm = try openRealm(types: [Dog.self, Tag.self])
            try realm.write(withDescription: "adopt") {
                for i in 1...3 { realm.add(Dog(value: ["id": i, "name": "d\(i)"])) }
            }
            try realm.write {
                let two = realm.object(ofType: Dog.self, forPrimaryKey: 2)!
                two.name = "Rex"
                two.age = 4
                realm.delete(realm.object(ofType: Dog.self, forPrimaryKey: 3)!)
            }
            try realm.write(withDescription: "tags") { realm.add(Tag(value: ["name": "swift"])) }
            try realm.write(withDescription: "clear") {
                realm.delete(realm.objects(Dog.self))
                realm.add(Dog(value: ["id": 7]))
            }
        }
        return fileURL().path
    }

    private let me = ProcessInfo.processInfo.processName

    // MARK: log

    /// A line's columns: the text between runs of two or more spaces.
    private func columns(_ line: String) -> [String] {
        line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func testLogPrintsOneLinePerVersionNewestFirst() throws {
        let file = try makeFile()
        let log = try strata(["log", file])
        XCTAssertEqual(log.process.terminationStatus, 0, log.transcript)
        XCTAssertEqual(log.lines.count, 5, log.transcript)
        XCTAssertEqual(log.lines.map { $0.split(separator: " ").first.map(String.init) }, ["5", "4", "3", "2", "1"])
        let iso = try NSRegularExpression(pattern: #"^\d  \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ  "#)
        for line in log.lines {
            XCTAssertNotNil(iso.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
            XCTAssertTrue(line.contains("\(me)[\(getpid())]"), line)
            XCTAssertLessThanOrEqual(line.count, 80, "fits 80 columns when piped: \(line)")
        }
        XCTAssertTrue(log.errorOutput.isEmpty, log.transcript)

        // Wide enough for every column whole: changes, then the description in quotes.
        let wide = try strata(["log", file], environment: ["COLUMNS": "200"])
        XCTAssertEqual(columns(wide.lines[0]).dropFirst(3), ["Dog cleared +1", "\"clear\""], wide.transcript)
        XCTAssertEqual(columns(wide.lines[1]).dropFirst(3), ["Tag +1", "\"tags\""], wide.transcript)
        XCTAssertEqual(columns(wide.lines[2]).dropFirst(3), ["Dog -1 ~1(name,age)"], wide.transcript)
        XCTAssertEqual(columns(wide.lines[3]).dropFirst(3), ["Dog +3", "\"adopt\""], wide.transcript)
        XCTAssertEqual(columns(wide.lines[4]).dropFirst(3), ["(no object changes)"], wide.transcript)
        XCTAssertEqual(columns(wide.lines[0]).prefix(3), ["5", columns(wide.lines[0])[1], "\(me)[\(getpid())]"])
    }

    func testLogShortensLongDescriptionsFirstToFitTheWidth() throws {
        let description = Array(repeating: "a long description", count: 6).joined(separator: " ")
        try closingRealms {
            let realm = try openRealm(types: [Dog.self])
            try realm.write(withDescription: description) { realm.add(Dog(value: ["id": 1, "name": "Rex"])) }
        }
        let log = try strata(["log", fileURL().path, "--limit", "1"], environment: ["COLUMNS": "100"])
        let line = try XCTUnwrap(log.lines.first, log.transcript)
        XCTAssertEqual(line.count, 100, line)
        XCTAssertTrue(line.contains("  Dog +1  \"a long description"), line)
        XCTAssertTrue(line.hasSuffix("…"), line)
        let show = try strata(["show", fileURL().path, "2"])
        XCTAssertTrue(show.lines.contains("description  " + description), "show prints it whole: \(show.transcript)")
    }

    func testLogFiltersBySinceLimitClassAndProcess() throws {
        let file = try makeFile()
        func versions(_ extra: [String]) throws -> [Int] {
            let entries = try XCTUnwrap(try json(["log", file] + extra) as? [[String: Any]])
            return entries.compactMap { $0["version"] as? Int }
        }
        XCTAssertEqual(try versions(["--since", "3"]), [5, 4])
        XCTAssertEqual(try versions(["--limit", "2"]), [5, 4])
        XCTAssertEqual(try versions(["--class", "Dog"]), [5, 3, 2])
        XCTAssertEqual(try versions(["--class", "Dog", "--limit", "1", "--since", "1"]), [5])
        XCTAssertEqual(try versions(["--process", me]), [5, 4, 3, 2, 1])
        XCTAssertEqual(try versions(["--process", String(getpid())]).count, 5)
        XCTAssertEqual(try versions(["--process", "someone-else"]), [])
    }

    func testLogJSONHasTheDocumentedShape() throws {
        let file = try makeFile()
        let entries = try XCTUnwrap(try json(["log", file, "--limit", "3"]) as? [[String: Any]])
        XCTAssertEqual(Set(entries[0].keys), ["version", "time", "timestamp", "pid", "process", "description", "bytesInUseBefore", "classes"])
        XCTAssertEqual((entries[0]["bytesInUseBefore"] as? Int).map { $0 > 0 && $0 % 4_096 == 0 }, true, "\(entries[0])")
        XCTAssertEqual(entries[0]["description"] as? String, "clear")
        XCTAssertTrue(entries[2]["description"] is NSNull)
        XCTAssertEqual(entries[0]["pid"] as? Int, Int(getpid()))
        XCTAssertEqual(entries[0]["process"] as? String, me)
        XCTAssertTrue((entries[0]["time"] as? String)?.hasSuffix("Z") ?? false)
        let dog = try XCTUnwrap((entries[2]["classes"] as? [[String: Any]])?.first)
        XCTAssertEqual(dog["name"] as? String, "Dog")
        XCTAssertEqual(dog["cleared"] as? Bool, false)
        XCTAssertEqual(dog["inserted"] as? Int, 0)
        XCTAssertEqual(dog["deleted"] as? Int, 1)
        XCTAssertEqual(dog["modified"] as? Int, 1)
        XCTAssertEqual(dog["properties"] as? [String], ["name", "age"])
    }

    // MARK: show

    func testShowPrintsOneChangeSetInFull() throws {
        let file = try makeFile()
        let show = try strata(["show", file, "3"])
        XCTAssertEqual(show.process.terminationStatus, 0, show.transcript)
        XCTAssertEqual(show.lines[0], "version      3")
        XCTAssertTrue(show.lines[1].hasPrefix("time         20"), show.transcript)
        XCTAssertEqual(show.lines[2], "process      \(me) (pid \(getpid()))")
        XCTAssertEqual(show.lines[3], "changes      Dog -1 ~1(name,age)")
        XCTAssertEqual(Array(show.lines.dropFirst(4).prefix(2)), ["", "Dog: 1 deleted, 1 modified"], show.transcript)
        XCTAssertTrue(show.lines[6].hasPrefix("  - 3  name=\"d3\", age=0, born=20"), "the values it had: \(show.transcript)")
        XCTAssertEqual(show.lines[7], "  ~ 2  name=\"d2\" -> \"Rex\", age=0 -> 4", show.transcript)
        let tags = try strata(["show", file, "4"])
        XCTAssertTrue(tags.lines.contains("description  tags"), tags.transcript)
        XCTAssertTrue(tags.lines.contains("  + swift  uses=0"), "no later commit changed it: \(tags.transcript)")
    }

    func testShowJSONListsObjectsByKeyAndPrimaryKey() throws {
        let file = try makeFile()
        let entry = try XCTUnwrap(try json(["show", file, "5"]) as? [String: Any])
        XCTAssertEqual(entry["version"] as? Int, 5)
        let dog = try XCTUnwrap((entry["classes"] as? [[String: Any]])?.first)
        XCTAssertEqual(dog["cleared"] as? Bool, true)
        let inserted = try XCTUnwrap(dog["inserted"] as? [[String: Any]])
        XCTAssertEqual(inserted.count, 1)
        XCTAssertEqual(inserted[0]["primaryKey"] as? Int, 7)
        XCTAssertNotNil(inserted[0]["key"])
        XCTAssertEqual((dog["deleted"] as? [Any])?.count, 0)
        let three = try XCTUnwrap(try json(["show", file, "3"]) as? [String: Any])
        let modified = try XCTUnwrap(((three["classes"] as? [[String: Any]])?.first?["modified"]) as? [[String: Any]])
        XCTAssertEqual(modified.first?["primaryKey"] as? Int, 2)
        XCTAssertEqual(modified.first?["properties"] as? [String], ["name", "age"])
    }

    // MARK: diff

    func testDiffNetsTheChangesBetweenTwoVersions() throws {
        let file = try makeFile()
        let diff = try strata(["diff", file, "1", "3"])
        XCTAssertEqual(diff.process.terminationStatus, 0, diff.transcript)
        XCTAssertEqual(diff.lines[0], "from version 1 to version 3 (2 commits): Dog +2", "3 was inserted and deleted in between")
        XCTAssertEqual(diff.lines[2], "Dog: 2 inserted")
        XCTAssertTrue(diff.lines[3].hasPrefix("  + 1  name=\"d1\", age=0, born="), diff.transcript)
        XCTAssertTrue(diff.lines[4].hasPrefix("  + 2  name=\"Rex\", age=4, born="), "as at version 3: \(diff.transcript)")
        let document = try XCTUnwrap(try json(["diff", file, "2", "5"]) as? [String: Any])
        XCTAssertEqual(document["from"] as? Int, 2)
        XCTAssertEqual(document["to"] as? Int, 5)
        let classes = try XCTUnwrap(document["classes"] as? [[String: Any]])
        XCTAssertEqual(classes.compactMap { $0["name"] as? String }, ["Dog", "Tag"])
        XCTAssertEqual(classes[0]["cleared"] as? Bool, true)
        XCTAssertEqual((classes[0]["inserted"] as? [[String: Any]])?.compactMap { $0["primaryKey"] as? Int }, [7])
        XCTAssertEqual((classes[1]["inserted"] as? [[String: Any]])?.first?["primaryKey"] as? String, "swift")
    }

    func testVersionsOutsideTheRetainedHistoryAreErrors() throws {
        try closingRealms {
            var configuration = configuration(types: [Dog.self])
            configuration.historyRetention = .count(3)
            let realm = try Realm(configuration: configuration)
            for i in 1...5 { try realm.write { realm.add(Dog(value: ["id": i])) } }
        }
        let file = fileURL().path
        let log = try strata(["log", file])
        XCTAssertEqual(log.lines.map { $0.split(separator: " ").first.map(String.init) }, ["6", "5", "4"])
        let diff = try strata(["diff", file, "2", "6"])
        XCTAssertEqual(diff.process.terminationStatus, 1)
        XCTAssertTrue(diff.lines.isEmpty)
        XCTAssertTrue(diff.errorOutput.contains("version 2 is not in the retained history"), diff.transcript)
        XCTAssertTrue(diff.errorOutput.contains("(retained: 4 to 6)"), diff.transcript)
        let show = try strata(["show", file, "3"])
        XCTAssertEqual(show.process.terminationStatus, 1)
        XCTAssertTrue(show.errorOutput.contains("version 3 is not in the retained history"), show.transcript)
    }

    // MARK: Values

    /// Versions 2 (Dog 1 Rex age 3, Dog 2 Fido age 5), 3 (Dog 1 age 4), 4 (Dog 1 named
    /// Max, Dog 2 deleted).
    private func makeFileWithLaterChanges(oldValues: Bool = true) throws -> String {
        try closingRealms {
            var configuration = configuration(types: [Dog.self])
            configuration.historyRecordsOldValues = oldValues
            let realm = try Realm(configuration: configuration)
            try realm.write {
                realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 3, "born": Date(timeIntervalSince1970: 0)]))
                realm.add(Dog(value: ["id": 2, "name": "Fido", "age": 5]))
            }
            try realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 1)!.age = 4 }
            try realm.write {
                realm.object(ofType: Dog.self, forPrimaryKey: 1)!.name = "Max"
                realm.delete(realm.object(ofType: Dog.self, forPrimaryKey: 2)!)
            }
        }
        return fileURL().path
    }

    func testShowAndDiffPrintOldAndNewValues() throws {
        let file = try makeFileWithLaterChanges()
        let three = try strata(["show", file, "3"])
        XCTAssertEqual(three.lines.last, "  ~ 1  age=3 -> 4", three.transcript)
        let two = try strata(["show", file, "2"])
        XCTAssertEqual(two.lines.suffix(2).first, "  + 1  name=\"Rex\", age=3, born=1970-01-01T00:00:00.000Z, photo=nil", two.transcript)
        XCTAssertTrue(two.lines.last?.hasPrefix("  + 2  name=\"Fido\", age=5, born=20") ?? false, "deleted later: \(two.transcript)")
        let diff = try strata(["diff", file, "2", "4"])
        XCTAssertEqual(diff.lines.suffix(3).first, "Dog: 1 deleted, 1 modified", diff.transcript)
        XCTAssertTrue(diff.lines.suffix(2).first?.hasPrefix("  - 2  name=\"Fido\", age=5, born=20") ?? false, diff.transcript)
        XCTAssertEqual(diff.lines.last, "  ~ 1  name=\"Rex\" -> \"Max\", age=3 -> 4", diff.transcript)

        let entry = try XCTUnwrap(try json(["show", file, "4"]) as? [String: Any])
        let dog = try XCTUnwrap((entry["classes"] as? [[String: Any]])?.first)
        let modified = try XCTUnwrap((dog["modified"] as? [[String: Any]])?.first)
        XCTAssertEqual(modified["values"] as? [String: String], ["name": "Max"])
        XCTAssertEqual(modified["oldValues"] as? [String: String], ["name": "Rex"])
        let deleted = try XCTUnwrap((dog["deleted"] as? [[String: Any]])?.first)
        XCTAssertEqual(deleted["oldValues"].flatMap { $0 as? [String: Any] }?["age"] as? Int, 5)
    }

    func testWithoutOldValuesShowAndDiffPrintTheValuesNoLaterCommitChanged() throws {
        let file = try makeFileWithLaterChanges(oldValues: false)
        let three = try strata(["show", file, "3"])
        XCTAssertEqual(three.lines.last, "  ~ 1  age=4", three.transcript)
        let two = try strata(["show", file, "2"])
        XCTAssertEqual(Array(two.lines.suffix(2)), ["  + 1  born=1970-01-01T00:00:00.000Z, photo=nil", "  + 2"],
                       "name and age of 1 changed later, 2 was deleted: \(two.transcript)")
        let diff = try strata(["diff", file, "2", "4"])
        XCTAssertEqual(Array(diff.lines.suffix(3)), ["Dog: 1 deleted, 1 modified", "  - 2", "  ~ 1  name=\"Max\", age=4"], diff.transcript)
        let fromStart = try strata(["diff", file, "1", "3"])
        XCTAssertEqual(Array(fromStart.lines.suffix(2)), ["  + 1  age=4, born=1970-01-01T00:00:00.000Z, photo=nil", "  + 2"],
                       "renamed after 3, so no name: \(fromStart.transcript)")

        let entry = try XCTUnwrap(try json(["show", file, "3"]) as? [String: Any])
        let modified = try XCTUnwrap(((entry["classes"] as? [[String: Any]])?.first?["modified"]) as? [[String: Any]])
        XCTAssertEqual(modified.first?["values"] as? [String: Int], ["age": 4])
        let range = try XCTUnwrap(try json(["diff", file, "1", "2"]) as? [String: Any])
        let inserted = try XCTUnwrap(((range["classes"] as? [[String: Any]])?.first?["inserted"]) as? [[String: Any]])
        XCTAssertEqual(inserted.count, 2)
        let values = try XCTUnwrap(inserted[0]["values"] as? [String: Any])
        XCTAssertEqual(Set(values.keys), ["id", "born", "photo"], "name and age changed later")
        XCTAssertTrue(values["photo"] is NSNull)
        XCTAssertNil(inserted[1]["values"], "deleted later: nothing known")
    }

    // MARK: Usage

    func testHelpBadArgumentsAndMissingFiles() throws {
        for command in ["log", "show", "diff"] {
            let help = try strata([command, "--help"])
            XCTAssertEqual(help.process.terminationStatus, 0)
            XCTAssertTrue(help.lines.first?.hasPrefix("usage: strata \(command) FILE") ?? false, help.transcript)
            XCTAssertTrue(help.lines.contains { $0.hasPrefix("exit status:") }, help.transcript)
        }
        let listed = try strata(["help"])
        for command in ["log", "show", "diff"] {
            XCTAssertTrue(listed.lines.contains { $0.hasPrefix("  \(command) ") }, listed.transcript)
        }
        let file = try makeFile()
        for (arguments, message) in [(["show", file, "x"], "'x' is not a version number"),
                                     (["show", file], "show takes a FILE and a VERSION"),
                                     (["diff", file, "4", "2"], "give the older version first"),
                                     (["log", file, "--limit"], "--limit needs a value"),
                                     (["log", file, "--frobnicate"], "unknown option '--frobnicate'")] {
            let run = try strata(arguments)
            XCTAssertEqual(run.process.terminationStatus, 2, run.transcript)
            XCTAssertTrue(run.errorOutput.contains(message), run.transcript)
            XCTAssertTrue(run.errorOutput.contains("usage: strata \(arguments[0])"), run.transcript)
            XCTAssertTrue(run.errorOutput.contains("hint: 'strata \(arguments[0]) --help'"), run.transcript)
        }
        let missing = try strata(["log", directory.appendingPathComponent("none.strata").path])
        XCTAssertEqual(missing.process.terminationStatus, 1)
        XCTAssertTrue(missing.errorOutput.contains("No such file or directory"), missing.transcript)
        XCTAssertTrue(missing.errorOutput.contains("\nhint: check the path"), missing.transcript)
    }

    // MARK: A file another process writes

    func testLogShowAndDiffWorkWhileAnotherProcessWrites() throws {
        let file = fileURL("busy.strata").path
        let writer = try WorkerProcess.stress(["worker", "insert", "--file", file, "--from", "1", "--count", "1000"])
        try writer.expectLine(startingWith: "COMMIT")
        var seen: [Int] = []
        for _ in 0..<3 {
            let entries = try XCTUnwrap(try json(["log", file, "--limit", "5"]) as? [[String: Any]])
            let versions = entries.compactMap { $0["version"] as? Int }
            XCTAssertFalse(versions.isEmpty)
            XCTAssertEqual(versions, versions.sorted(by: >), "newest first")
            XCTAssertEqual(versions, Array((versions.last!...versions.first!).reversed()), "consecutive")
            if let newest = versions.first { seen.append(newest) }
            let show = try XCTUnwrap(try json(["show", file, String(versions[0])]) as? [String: Any])
            XCTAssertEqual(show["process"] as? String, "strata-stress")
        }
        XCTAssertEqual(seen, seen.sorted(), "later runs see later versions")
        try writer.waitForSuccess()

        let items = try XCTUnwrap(try json(["log", file, "--class", "StressItem"]) as? [[String: Any]])
        XCTAssertEqual(items.count, 1000)
        XCTAssertTrue(items.allSatisfy { $0["pid"] as? Int == Int(writer.pid) })
        let newest = try XCTUnwrap(items.first?["version"] as? Int)
        let diff = try XCTUnwrap(try json(["diff", file, "1", String(newest)]) as? [String: Any])
        let inserted = try XCTUnwrap((diff["classes"] as? [[String: Any]])?.first?["inserted"] as? [[String: Any]])
        XCTAssertEqual(inserted.compactMap { $0["primaryKey"] as? Int }, Array(1...1000))
        let check = try strata(["check", file])
        XCTAssertEqual(check.process.terminationStatus, 0, check.transcript)
    }
}
