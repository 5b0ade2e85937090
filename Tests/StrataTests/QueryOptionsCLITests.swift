import Foundation
import StrataTestSupport
import XCTest
import Strata

final class QOKeeper: Object {
    @Persisted(primaryKey: true) var name = ""
}

final class QOLabel: Object {
    @Persisted var text = ""
}

final class QOCage: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var size = 0
    @Persisted var keepers: List<QOKeeper>
    @Persisted var labels: List<QOLabel>
    @Persisted var sizes: MutableSet<Int>
    @Persisted var food: Map<String, Int>
}

/// `strata query --columns`, `--count`, the members of lists, sets and maps in `--json`,
/// objects named by primary key or `"#N"`, and the `--option=value` and `-n N` forms every
/// valued option takes.
final class QueryOptionsCLITests: StrataTestCase {
    /// Three cages; cage 1 has two keepers (by primary key), one label (no primary key), a set
    /// and a map.
    private func makeFile() throws -> String {
        try closingRealms {
            let realm = try openRealm(types: [QOKeeper.self, QOLabel.self, QOCage.self])
            try realm.write {
                let ann = realm.create(QOKeeper.self, value: ["name": "Ann"])
                let bob = realm.create(QOKeeper.self, value: ["name": "Bob"])
                let label = realm.create(QOLabel.self, value: ["text": "north"])
                let cage = realm.create(QOCage.self, value: ["id": 1, "size": 30])
                cage.keepers.append(objectsIn: [bob, ann])
                cage.labels.append(label)
                cage.sizes.insert(objectsIn: [3, 1])
                cage.food["seeds"] = 2
                cage.food["apples"] = 5
                realm.create(QOCage.self, value: ["id": 2, "size": 10])
                realm.create(QOCage.self, value: ["id": 3, "size": 20])
            }
        }
        return fileURL().path
    }

    private func object(_ line: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
    }

    func testJSONListsTheMembersOfListsSetsAndMapsByPrimaryKey() throws {
        let file = try makeFile()
        let run = try strata(["query", file, "QOCage", "id == 1", "--json"])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        XCTAssertEqual(run.lines.count, 1, run.transcript)
        let cage = try object(run.lines[0])
        XCTAssertEqual(cage["keepers"] as? [String], ["Bob", "Ann"], "in list order, by primary key")
        let labels = try XCTUnwrap(cage["labels"] as? [String], run.transcript)
        XCTAssertEqual(labels.count, 1)
        let label = try strata(["query", file, "QOLabel", "TRUEPREDICATE", "--json"])
        XCTAssertEqual(try object(label.lines[0])["#key"] as? String, labels[0],
                       "an object without a primary key is named the same way in its own line and in a link")
        XCTAssertEqual(Set(try XCTUnwrap(cage["sizes"] as? [Int])), [1, 3])
        XCTAssertEqual(cage["food"] as? [String: Int], ["apples": 5, "seeds": 2])
        XCTAssertTrue(run.lines[0].contains("\"food\":{\"apples\":5,\"seeds\":2}"), "map entries in key order: \(run.lines[0])")

        let empty = try object(try strata(["query", file, "QOCage", "id == 2", "--json"]).lines[0])
        XCTAssertEqual(empty["keepers"] as? [String], [])
        XCTAssertEqual(empty["food"] as? [String: Int], [:])

        let table = try strata(["query", file, "QOCage", "id == 1"])
        XCTAssertTrue(table.lines[2].contains("[2]"), "the table keeps counts: \(table.transcript)")
    }

    func testColumnsChooseAndOrderThePropertiesInTablesAndJSON() throws {
        let file = try makeFile()
        let table = try strata(["query", file, "QOCage", "TRUEPREDICATE", "--columns", "size,id", "--sort", "size"])
        XCTAssertEqual(table.process.terminationStatus, 0, table.transcript)
        XCTAssertEqual(table.lines, ["  size  id", "  ----  --", "    10   2", "    20   3", "    30   1", "(3 objects of QOCage)"])

        let json = try strata(["query", file, "QOCage", "id == 1", "--columns=keepers,id", "--json"])
        XCTAssertEqual(json.lines, ["{\"keepers\":[\"Bob\",\"Ann\"],\"id\":1}"], json.transcript)

        let keys = try strata(["query", file, "QOLabel", "TRUEPREDICATE", "--columns", "text", "--json"])
        XCTAssertEqual(keys.lines, ["{\"text\":\"north\"}"], "#key only when asked for: \(keys.transcript)")
        let withKey = try object(try strata(["query", file, "QOLabel", "TRUEPREDICATE", "--columns", "text,#key", "--json"]).lines[0])
        XCTAssertEqual(Set(withKey.keys), ["#key", "text"])
    }

    func testUnknownOrMalformedColumnsAreErrorsWithStatusTwo() throws {
        let file = try makeFile()
        let unknown = try strata(["query", file, "QOCage", "TRUEPREDICATE", "--columns", "id,colour"])
        XCTAssertEqual(unknown.process.terminationStatus, 2, unknown.transcript)
        XCTAssertTrue(unknown.errorOutput.contains("unknown column 'colour' of QOCage; its columns: id, size, keepers"), unknown.transcript)
        XCTAssertEqual(unknown.lines, [], "nothing on stdout")
        let typo = try strata(["query", file, "QOCage", "TRUEPREDICATE", "--columns", "id,sizes,szie"])
        XCTAssertEqual(typo.process.terminationStatus, 2, typo.transcript)
        XCTAssertTrue(typo.errorOutput.contains("unknown column 'szie' of QOCage; did you mean 'size'?"), typo.transcript)
        for (columns, message) in [("id,,size", "empty column name"), ("id,id", "names 'id' twice"), ("", "--columns needs a value")] {
            let run = try strata(["query", file, "QOCage", "TRUEPREDICATE", "--columns=" + columns])
            XCTAssertEqual(run.process.terminationStatus, 2, run.transcript)
            XCTAssertTrue(run.errorOutput.contains(message), "\(columns): \(run.transcript)")
        }
    }

    func testCountPrintsOnlyTheNumberOfMatchingObjects() throws {
        let file = try makeFile()
        XCTAssertEqual(try strata(["query", file, "QOCage", "size > 15", "--count"]).lines, ["2"])
        XCTAssertEqual(try strata(["query", file, "QOCage", "size > 100", "--count"]).lines, ["0"])
        XCTAssertEqual(try strata(["query", file, "QOCage", "TRUEPREDICATE", "--count", "--limit=2"]).lines, ["2"])
        XCTAssertEqual(try strataObject(["query", file, "QOCage", "size > 15", "--count", "--json"]) as? [String: Int], ["count": 2])
        for conflict in [["--count", "--explain"], ["--count", "--columns", "id"]] {
            let run = try strata(["query", file, "QOCage", "TRUEPREDICATE"] + conflict)
            XCTAssertEqual(run.process.terminationStatus, 2, run.transcript)
        }
    }

    func testValuedOptionsTakeTheEqualsAndShortForms() throws {
        let file = try makeFile()
        let spaced = try strata(["query", file, "QOCage", "TRUEPREDICATE", "--sort", "size", "--limit", "2", "--json"])
        XCTAssertEqual(spaced.lines.count, 2, spaced.transcript)
        for form in [["--limit=2"], ["-n", "2"], ["-n2"]] {
            let run = try strata(["query", file, "QOCage", "TRUEPREDICATE", "--sort=size"] + form + ["--json"])
            XCTAssertEqual(run.lines, spaced.lines, "\(form): \(run.transcript)")
        }
        let log = try strata(["log", file, "--limit", "1"])
        XCTAssertEqual(log.lines.count, 1, log.transcript)
        XCTAssertEqual(try strata(["log", file, "-n", "1"]).lines, log.lines)
        XCTAssertEqual(try strata(["log", file, "--limit=1", "--class=QOCage"]).lines, log.lines)
        XCTAssertEqual(try strata(["query", file, "QOCage", "size > %@", "-5", "--count"]).lines, ["3"],
                       "a negative number is an argument, not a short option")
    }

    func testBadOptionValuesAreUsageErrors() throws {
        let file = try makeFile()
        let cases: [([String], String)] = [
            (["query", file, "QOCage", "TRUEPREDICATE", "--limit=abc"], "--limit needs a number (0 or more), not 'abc'"),
            (["query", file, "QOCage", "TRUEPREDICATE", "--limit="], "--limit needs a value"),
            (["query", file, "QOCage", "TRUEPREDICATE", "-n"], "--limit needs a value"),
            (["query", file, "QOCage", "TRUEPREDICATE", "-n", "-1"], "--limit needs a number (0 or more), not '-1'"),
            (["query", file, "QOCage", "TRUEPREDICATE", "--limit", "99999999999999999999"], "not '99999999999999999999'"),
            (["log", file, "--limit=x"], "--limit needs a number (0 or more), not 'x'"),
            (["log", file, "--since="], "--since needs a value"),
            (["log", file, "--json=yes"], "--json takes no value"),
            (["watch", file, "-n", "many"], "--count needs a number (0 or more), not 'many'"),
            (["log", file, "--colour=red"], "unknown option '--colour=red'"),
        ]
        for (arguments, message) in cases {
            let run = try strata(arguments)
            XCTAssertEqual(run.process.terminationStatus, 2, run.transcript)
            XCTAssertTrue(run.errorOutput.contains(message), "\(arguments): \(run.transcript)")
            XCTAssertTrue(run.errorOutput.contains("usage: strata \(arguments[0])"), run.transcript)
        }
    }

    func testImportStillReadsObjectKeysAndDatesAsNumbers() throws {
        let file = try makeFile()
        let older = [#"{"class":"QOLabel","key":7,"values":{"text":"old"}}"#,
                     #"{"class":"QOCage","values":{"id":9,"size":1,"keepers":["Ann"],"labels":[7],"sizes":[],"food":{}}}"#]
        let run = try strataImport(older, into: "test.strata")
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        let cage = try object(try strata(["query", file, "QOCage", "id == 9", "--json"]).lines[0])
        let label = try XCTUnwrap((cage["labels"] as? [String])?.first, "\(cage)")
        let labels = try strata(["query", file, "QOLabel", "text == 'old'", "--json", "--columns", "#key"])
        XCTAssertEqual(labels.lines, ["{\"#key\":\"\(label)\"}"], "the link by the number 7 found the line with key 7")
        let bad = try strataImport([#"{"class":"QOLabel","key":"7","values":{"text":"x"}}"#], into: "test.strata")
        XCTAssertEqual(bad.process.terminationStatus, 1, bad.transcript)
        XCTAssertTrue(bad.errorOutput.contains(##""key" must be an object key ("#N" or N"##), bad.transcript)
    }

    func testVersionPrintsTheFileFormat() throws {
        for arguments in [["--version"], ["version"]] {
            let run = try strata(arguments)
            XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
            XCTAssertEqual(run.lines, ["strata, Strata file format 4 (reads and writes formats 1 to 4)"])
        }
        XCTAssertEqual(try strataObject(["--version", "--json"]) as NSDictionary, ["program": "strata", "fileFormat": 4])
        let extra = try strata(["version", "app.strata"])
        XCTAssertEqual(extra.process.terminationStatus, 2, extra.transcript)
    }
}
