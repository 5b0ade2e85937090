import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

final class ICOwner: Object {
    @Persisted var name = ""
    @Persisted var age: Int?
}

final class ICItem: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var bool = false
    @Persisted(indexed: true) var int = 0
    @Persisted var int8: Int8 = 0
    @Persisted var int32: Int32 = 0
    @Persisted var float: Float = 0
    @Persisted var double = 0.0
    @Persisted var string = ""
    @Persisted var data = Data()
    @Persisted var date = Date(timeIntervalSince1970: 0)
    @Persisted var uuid = UUID()
    @Persisted var optInt: Int?
    @Persisted var optFloat: Float?
    @Persisted var optDouble: Double?
    @Persisted var optString: String?
    @Persisted var optData: Data?
    @Persisted var optDate: Date?
    @Persisted var optUUID: UUID?
    @Persisted var owner: ICOwner?
    @Persisted var next: ICItem?
    @Persisted var tags: List<String>
    @Persisted var scores: List<Double>
    @Persisted var stamps: List<Date>
    @Persisted var blobs: List<Data>
    @Persisted var friends: List<ICItem>
    @Persisted var owners: List<ICOwner>
}

/// `strata info`, `export` and `import`, run as the built executable against real files.
final class InspectorCLITests: StrataTestCase {
    /// `strata export` to a file next to the database; returns its path and lines.
    private func export(_ file: String, to name: String, _ extra: [String] = []) throws -> (path: String, lines: [String]) {
        let run = try strata(["export", file] + extra)
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        let path = fileURL(name).path
        try (run.lines.map { $0 + "\n" }.joined()).write(toFile: path, atomically: true, encoding: .utf8)
        return (path, run.lines)
    }

    private static let types: [ObjectBase.Type] = [ICItem.self, ICOwner.self]

    /// Three items with awkward values of every type, two owners (no primary key), links
    /// both ways and lists of values and of objects.
    private func makeFile(_ name: String = "test.strata") throws -> String {
        try closingRealms {
            let realm = try openRealm(name, types: Self.types)
            try realm.write(withDescription: "fill") {
                let ann = realm.create(ICOwner.self, value: ["name": "Ann", "age": 41])
                let bob = realm.create(ICOwner.self, value: ["name": "Bob \"the\" builder\n✓"])
                let a = ICItem(), b = ICItem(), c = ICItem()
                a.id = "a"; b.id = "b 🐕"; c.id = "c"
                a.bool = true
                a.int = Int.min; b.int = Int.max; c.int = 42
                a.int8 = -128; a.int32 = Int32.max
                a.float = 0.1; b.float = .infinity; c.float = -Float.greatestFiniteMagnitude
                a.double = 1.0 / 3; b.double = .nan; c.double = .leastNonzeroMagnitude
                a.string = "tab\there \\ \u{1}"; b.string = "日本語"
                a.data = Data([0, 1, 2, 255]); b.data = Data(repeating: 7, count: 1000)
                a.date = Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789)
                b.date = Date(timeIntervalSince1970: -1e9 + 0.000_001)
                a.uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
                a.optInt = 7; a.optFloat = 2.5; a.optDouble = -0.0; a.optString = ""
                a.optData = Data(); a.optDate = Date(timeIntervalSinceReferenceDate: 0.1); a.optUUID = UUID()
                a.owner = ann; b.owner = bob; a.next = b; b.next = c; c.next = a
                a.tags.append(objectsIn: ["x", "y", "x"])
                a.scores.append(objectsIn: [0.1, -1e300, .infinity])
                a.stamps.append(Date(timeIntervalSinceReferenceDate: 1.5))
                a.blobs.append(objectsIn: [Data([9]), Data()])
                a.friends.append(objectsIn: [b, c, b])
                c.owners.append(objectsIn: [bob, ann])
                realm.add([a, b, c])
            }
        }
        return fileURL(name).path
    }

    /// A new file holding the classes and no objects.
    private func makeEmptyFile(_ name: String) throws -> String {
        try closingRealms { _ = try openRealm(name, types: Self.types) }
        return fileURL(name).path
    }

    // MARK: info

    func testInfoPrintsSchemaCountsPagesVersionAndHistory() throws {
        let file = try makeFile()
        let run = try strata(["info", file])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        let text = run.lines.joined(separator: "\n")
        XCTAssertEqual(run.lines[0], "file        \(file)")
        XCTAssertTrue(run.lines.contains("version     2"), text)
        XCTAssertTrue(run.lines.contains("schema      version 0, 2 classes, 5 objects"), text)
        XCTAssertTrue(run.lines.contains("history     versions 1–2 retained (2 entries)"), text)
        XCTAssertTrue(run.lines.contains("ICItem: 3 objects"), text)
        XCTAssertTrue(run.lines.contains("ICOwner: 2 objects"), text)
        XCTAssertTrue(run.lines.contains("  id" + String(repeating: " ", count: 9) + "string" + String(repeating: " ", count: 9) + "primary key"), text)
        XCTAssertTrue(run.lines.contains("  int" + String(repeating: " ", count: 8) + "int" + String(repeating: " ", count: 12) + "indexed"), text)
        XCTAssertTrue(run.lines.contains("  int8       int8"), text)
        XCTAssertTrue(run.lines.contains("  optInt     int?"), text)
        XCTAssertTrue(run.lines.contains("  owner      link<ICOwner>"), text)
        XCTAssertTrue(run.lines.contains("  friends    list<ICItem>"), text)
        XCTAssertTrue(run.lines.contains("  tags       list<string>"), text)
        XCTAssertTrue(run.lines.contains { $0.hasPrefix("pages       ") && $0.contains(" in use ") && $0.contains(" free") }, text)
        for line in run.lines { XCTAssertLessThanOrEqual(line.count, 80, line) }
    }

    func testInfoJSONHasTheDocumentedShape() throws {
        let file = try makeFile()
        let run = try strata(["info", file, "--json"])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        XCTAssertEqual(run.lines.count, 1, run.transcript)
        let info = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(Set(info.keys), ["file", "bytes", "pageSize", "pages", "usedBytes", "freeBytes", "version",
                                        "schemaVersion", "history", "objects", "classes", "replication"])
        XCTAssertTrue(info["replication"] is NSNull, "a file that takes no part in replication")
        XCTAssertEqual(info["version"] as? Int, 2)
        XCTAssertEqual(info["schemaVersion"] as? Int, 0)
        XCTAssertEqual(info["objects"] as? Int, 5)
        let bytes = try XCTUnwrap(info["bytes"] as? Int), pageSize = try XCTUnwrap(info["pageSize"] as? Int)
        XCTAssertEqual(bytes, Int(try FileManager.default.attributesOfItem(atPath: file)[.size] as! UInt64))
        let pages = try XCTUnwrap(info["pages"] as? [String: Int])
        XCTAssertGreaterThan(pages["used"] ?? 0, 0)
        XCTAssertEqual(((pages["used"] ?? 0) + (pages["free"] ?? 0) + (pages["unused"] ?? 0)) * pageSize, bytes)
        XCTAssertEqual(info["history"] as? [String: Int], ["count": 2, "oldest": 1, "newest": 2])
        let classes = try XCTUnwrap(info["classes"] as? [[String: Any]])
        XCTAssertEqual(classes.map { $0["name"] as? String }, ["ICItem", "ICOwner"])
        XCTAssertEqual(classes.map { $0["objects"] as? Int }, [3, 2])
        XCTAssertEqual(classes[0]["primaryKey"] as? String, "id")
        XCTAssertTrue(classes[1]["primaryKey"] is NSNull)
        let properties = try XCTUnwrap(classes[0]["properties"] as? [[String: Any]])
        let friends = try XCTUnwrap(properties.first { $0["name"] as? String == "friends" })
        XCTAssertEqual(friends["type"] as? String, "link")
        XCTAssertEqual(friends["list"] as? Bool, true)
        XCTAssertEqual(friends["target"] as? String, "ICItem")
        let optDate = try XCTUnwrap(properties.first { $0["name"] as? String == "optDate" })
        XCTAssertEqual(optDate["type"] as? String, "date")
        XCTAssertEqual(optDate["optional"] as? Bool, true)
        XCTAssertEqual(optDate["indexed"] as? Bool, false)
    }

    func testInfoOfAMissingFileFails() throws {
        let run = try strata(["info", fileURL("missing.strata").path])
        XCTAssertEqual(run.process.terminationStatus, 1, run.transcript)
        XCTAssertFalse(run.errorOutput.isEmpty, run.transcript)
        let usage = try strata(["info"])
        XCTAssertEqual(usage.process.terminationStatus, 2, usage.transcript)
        XCTAssertTrue(usage.errorOutput.contains("usage: strata info FILE"), usage.transcript)
    }

    // MARK: export and import

    func testExportWritesTheSchemaThenOneDocumentedLinePerObject() throws {
        let file = try makeFile()
        let (_, all) = try export(file, to: "out.jsonl")
        XCTAssertEqual(all.count, 6)
        let header = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(all[0].utf8)) as? [String: Any])
        XCTAssertEqual(Set(header.keys), ["schema"])
        let schema = try XCTUnwrap(header["schema"] as? [String: Any])
        XCTAssertEqual(schema["version"] as? Int, 0)
        let classes = try XCTUnwrap(schema["classes"] as? [[String: Any]])
        XCTAssertEqual(classes.map { $0["name"] as? String }, ["ICItem", "ICOwner"])
        let int8 = try XCTUnwrap((classes[0]["properties"] as? [[String: Any]])?.first { $0["name"] as? String == "int8" })
        XCTAssertEqual(int8["bits"] as? Int, 8)
        let lines = Array(all.dropFirst())
        let objects = try lines.map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(objects.map { $0["class"] as? String }, ["ICItem", "ICItem", "ICItem", "ICOwner", "ICOwner"])
        for object in objects { XCTAssertEqual(Set(object.keys), ["class", "key", "values"]) }
        let a = try XCTUnwrap(objects[0]["values"] as? [String: Any])
        XCTAssertEqual(a["id"] as? String, "a")
        XCTAssertEqual(a["data"] as? String, "AAEC/w==")
        XCTAssertEqual(a["uuid"] as? String, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        XCTAssertEqual(a["next"] as? String, "b 🐕", "a link to a class with a primary key is that key")
        let ownerKey = try XCTUnwrap(objects[3]["key"] as? String, "object keys are strings, exact in any JSON reader")
        XCTAssertTrue(ownerKey.hasPrefix("#") && UInt64(ownerKey.dropFirst()) != nil, ownerKey)
        XCTAssertEqual(a["owner"] as? String, ownerKey, "a link to a class without one is its object key")
        XCTAssertEqual(a["tags"] as? [String], ["x", "y", "x"])
        XCTAssertEqual(a["friends"] as? [String], ["b 🐕", "c", "b 🐕"])
        XCTAssertTrue(a["optDouble"] != nil && !(a["optDouble"] is NSNull))
        let b = try XCTUnwrap(objects[1]["values"] as? [String: Any])
        XCTAssertEqual(b["double"] as? String, "nan")
        XCTAssertEqual(b["float"] as? String, "inf")
        XCTAssertTrue(b["optInt"] is NSNull)
        XCTAssertTrue(lines[0].contains("\"date\":\"2004-11-29T21:33:09.12345679Z\""),
                      "ISO 8601 with the digits the date needs to read back exactly: \(lines[0])")
        XCTAssertTrue(lines[0].contains("\"optDate\":\"2001-01-01T00:00:00.100Z\""), lines[0])

        let only = try strata(["export", file, "--class", "ICOwner"])
        XCTAssertEqual(Array(only.lines.dropFirst()), Array(lines.suffix(2)))
        XCTAssertTrue(only.lines[0].contains("\"name\":\"ICOwner\"") && !only.lines[0].contains("ICItem"), only.transcript)
        let items = try strata(["export", file, "--class", "ICItem"])
        XCTAssertTrue(items.lines[0].contains("\"name\":\"ICOwner\""), "the schema line has the classes items link to")
        XCTAssertEqual(items.lines.count, 4)
        let unknown = try strata(["export", file, "--class", "ICOwnr"])
        XCTAssertEqual(unknown.process.terminationStatus, 2, unknown.transcript)
        XCTAssertTrue(unknown.errorOutput.contains("did you mean 'ICOwner'?"), unknown.transcript)
    }

    func testExportThenImportRoundTripsEveryValueLinkAndList() throws {
        let source = try makeFile()
        let (jsonl, lines) = try export(source, to: "out.jsonl")
        let target = try makeEmptyFile("copy.strata")
        let run = try strata(["import", target, jsonl])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        XCTAssertEqual(run.lines, ["\(target): imported 5 objects at version 2"])

        // A second export is the same, line for line.
        XCTAssertEqual(try export(target, to: "again.jsonl").lines, lines)

        // And object by object through the API.
        try closingRealms {
            let a = try openRealm("test.strata", types: Self.types), b = try openRealm("copy.strata", types: Self.types)
            XCTAssertEqual(b.objects(ICItem.self).count, 3)
            XCTAssertEqual(b.objects(ICOwner.self).count, 2)
            for original in a.objects(ICItem.self) {
                let copy = try XCTUnwrap(b.object(ofType: ICItem.self, forPrimaryKey: original.id))
                XCTAssertEqual(copy.bool, original.bool)
                XCTAssertEqual(copy.int, original.int)
                XCTAssertEqual(copy.int8, original.int8)
                XCTAssertEqual(copy.int32, original.int32)
                XCTAssertEqual(copy.float.bitPattern, original.float.bitPattern)
                XCTAssertEqual(copy.double.bitPattern, original.double.bitPattern)
                XCTAssertEqual(copy.string, original.string)
                XCTAssertEqual(copy.data, original.data)
                XCTAssertEqual(copy.date.timeIntervalSinceReferenceDate.bitPattern, original.date.timeIntervalSinceReferenceDate.bitPattern)
                XCTAssertEqual(copy.uuid, original.uuid)
                XCTAssertEqual(copy.optInt, original.optInt)
                XCTAssertEqual(copy.optFloat, original.optFloat)
                XCTAssertEqual(copy.optDouble?.bitPattern, original.optDouble?.bitPattern)
                XCTAssertEqual(copy.optString, original.optString)
                XCTAssertEqual(copy.optData, original.optData)
                XCTAssertEqual(copy.optDate, original.optDate)
                XCTAssertEqual(copy.optUUID, original.optUUID)
                XCTAssertEqual(copy.owner?.name, original.owner?.name)
                XCTAssertEqual(copy.next?.id, original.next?.id)
                XCTAssertEqual(Array(copy.tags), Array(original.tags))
                XCTAssertEqual(copy.scores.map(\.bitPattern), original.scores.map(\.bitPattern))
                XCTAssertEqual(Array(copy.stamps), Array(original.stamps))
                XCTAssertEqual(Array(copy.blobs), Array(original.blobs))
                XCTAssertEqual(copy.friends.map(\.id), original.friends.map(\.id))
                XCTAssertEqual(copy.owners.map(\.name), original.owners.map(\.name))
            }
            XCTAssertEqual(Set(b.objects(ICOwner.self).map { "\($0.name) \($0.age ?? -1)" }),
                           Set(a.objects(ICOwner.self).map { "\($0.name) \($0.age ?? -1)" }))
        }

        let check = try strata(["check", target])
        XCTAssertEqual(check.process.terminationStatus, 0, check.transcript)
        let log = try strataJSON(["log", target, "--limit", "1", "--json"]) as? [[String: Any]]
        XCTAssertEqual(log?.first?["description"] as? String, "import out.jsonl")
    }

    func testImportOfABadLineNamesItAndWritesNothing() throws {
        let source = try makeFile()
        let (_, all) = try export(source, to: "out.jsonl")
        let schema = all[0], lines = Array(all.dropFirst())
        let target = try makeEmptyFile("copy.strata")
        let before = try strata(["info", target, "--json"]).lines

        /// Imports `schema` and `lines` (so line n of the input is `lines[n - 2]`).
        func importFails(_ lines: [String], line: Int, saying text: String) throws {
            let path = fileURL("bad.jsonl").path
            try (([schema] + lines).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let run = try strata(["import", target, path])
            XCTAssertEqual(run.process.terminationStatus, 1, run.transcript)
            XCTAssertTrue(run.errorOutput.contains("bad.jsonl line \(line): "), run.transcript)
            XCTAssertTrue(run.errorOutput.contains(text), run.transcript)
            XCTAssertTrue(run.errorOutput.contains("nothing was imported"), run.transcript)
            XCTAssertTrue(run.errorOutput.contains("hint: correct line \(line) and run the import again"), run.transcript)
            XCTAssertTrue(run.lines.isEmpty, run.transcript)
            XCTAssertEqual(try strata(["info", target, "--json"]).lines, before, "the file is unchanged")
        }
        var wrongType = lines
        wrongType[2] = wrongType[2].replacingOccurrences(of: "\"int\":42", with: "\"int\":\"42\"")
        try importFails(wrongType, line: 4, saying: "ICItem.int: expected an integer, got a string")
        try importFails(Array(lines.prefix(1)) + ["{\"class\":\"ICItem\",\"values\":{"] + Array(lines.dropFirst()), line: 3, saying: "invalid JSON")
        try importFails(lines + ["{\"class\":\"Nope\",\"values\":{}}"], line: 7, saying: "class 'Nope' is in neither the file's schema")
        // Found only in the second pass, after every object was added: still nothing written.
        try importFails(Array(lines.prefix(3)), line: 2, saying: "no ICOwner line with key")
        var dangling = lines
        dangling[1] = dangling[1].replacingOccurrences(of: "\"next\":\"c\"", with: "\"next\":\"zz\"")
        try importFails(dangling, line: 3, saying: "ICItem.next: no ICItem with primary key")
        // A second import of the same objects: duplicate primary keys.
        XCTAssertEqual(try strata(["import", target, fileURL("out.jsonl").path]).process.terminationStatus, 0)
        let again = try strata(["import", target, fileURL("out.jsonl").path])
        XCTAssertEqual(again.process.terminationStatus, 1, again.transcript)
        XCTAssertTrue(again.errorOutput.contains("out.jsonl line 2: "), again.transcript)
    }

    // MARK: import creating files and classes

    func testImportCreatesANewFileWithTheClassesTheAppThenOpens() throws {
        let (jsonl, lines) = try export(try makeFile(), to: "out.jsonl")
        let target = fileURL("new.strata").path
        let result = try strataObject(["import", target, jsonl, "--json"])
        XCTAssertEqual(result["createdFile"] as? Bool, true)
        XCTAssertEqual(result["createdClasses"] as? [String], ["ICItem", "ICOwner"])
        XCTAssertEqual(result["objects"] as? Int, 5)
        XCTAssertEqual(result["version"] as? Int, 1, "classes and objects in one commit")
        XCTAssertEqual(try export(target, to: "again.jsonl").lines, lines, "the same schema and objects")
        // The app opens it with its models: the stored schema is the one they declare.
        try closingRealms {
            let realm = try openRealm("new.strata", types: Self.types)
            XCTAssertEqual(realm.objects(ICItem.self).count, 3)
            XCTAssertEqual(realm.object(ofType: ICItem.self, forPrimaryKey: "a")?.friends.map(\.id), ["b 🐕", "c", "b 🐕"])
        }
        XCTAssertEqual(try strata(["check", target]).process.terminationStatus, 0)
    }

    func testImportAddsTheClassesAFileLacks() throws {
        let (jsonl, _) = try export(try makeFile(), to: "out.jsonl")
        try closingRealms {
            let realm = try openRealm("dogs.strata", types: [Dog.self])
            try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex"])) }
        }
        let target = fileURL("dogs.strata").path
        let run = try strata(["import", target, jsonl])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        XCTAssertEqual(run.lines, ["\(target): imported 5 objects at version 3; created ICItem, ICOwner"], run.transcript)
        let info = try strataObject(["info", target, "--json"])
        XCTAssertEqual((info["classes"] as? [[String: Any]])?.map { $0["objects"] as? Int }, [1, 3, 2], "Dog, ICItem, ICOwner")
        try closingRealms {
            let realm = try openRealm("dogs.strata", types: [Dog.self] + Self.types)
            XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 1)?.name, "Rex")
            XCTAssertEqual(realm.object(ofType: ICItem.self, forPrimaryKey: "c")?.next?.id, "a")
        }
    }

    func testImportThatFailsLeavesNoNewFileBehind() throws {
        let (_, all) = try export(try makeFile(), to: "out.jsonl")
        let target = fileURL("new.strata").path
        let bad = fileURL("bad.jsonl").path
        var lines = all
        lines[5] = "{\"class\":\"ICOwner\",\"values\":{\"name\":7}}"
        try (lines.joined(separator: "\n") + "\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let run = try strata(["import", target, bad])
        XCTAssertEqual(run.process.terminationStatus, 1, run.transcript)
        XCTAssertTrue(run.errorOutput.contains("bad.jsonl line 6: ICOwner.name: expected a string, got the number 7"), run.transcript)
        XCTAssertTrue(run.errorOutput.contains("'\(target)' was not created"), run.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertFalse(FileManager.default.fileExists(atPath: target + "-lock"))

        // Without the schema line, a new file has no classes for the objects.
        try (all.dropFirst().joined(separator: "\n") + "\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let bare = try strata(["import", target, bad])
        XCTAssertEqual(bare.process.terminationStatus, 1, bare.transcript)
        XCTAssertTrue(bare.errorOutput.contains("bad.jsonl line 1: class 'ICItem' is in neither the file's schema (no classes) nor a schema line"), bare.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
    }

    func testImportRefusesASchemaLineThatDisagreesWithTheFile() throws {
        let (_, all) = try export(try makeFile(), to: "out.jsonl")
        let target = try makeEmptyFile("copy.strata")
        let bad = fileURL("bad.jsonl").path
        let retyped = all[0].replacingOccurrences(of: "\"name\":\"int8\",\"optional\":false,\"primaryKey\":false,\"target\":null,\"type\":\"int\"",
                                                  with: "\"name\":\"int8\",\"optional\":false,\"primaryKey\":false,\"target\":null,\"type\":\"string\"")
        XCTAssertNotEqual(retyped, all[0], "the test changes the type of int8")
        try ([retyped] + all.dropFirst()).joined(separator: "\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let run = try strata(["import", target, bad])
        XCTAssertEqual(run.process.terminationStatus, 1, run.transcript)
        XCTAssertTrue(run.errorOutput.contains("bad.jsonl line 1: ICItem.int8 is string in the input but int8 in the file"), run.transcript)
    }

    func testImportTakesConcatenatedExports() throws {
        let source = try makeFile()
        let owners = try export(source, to: "owners.jsonl", ["--class", "ICOwner"]).lines
        let items = try export(source, to: "items.jsonl", ["--class", "ICItem"]).lines
        let both = fileURL("both.jsonl").path
        try ((owners + items).joined(separator: "\n") + "\n").write(toFile: both, atomically: true, encoding: .utf8)
        let result = try strataObject(["import", fileURL("new.strata").path, both, "--json"])
        XCTAssertEqual(result["createdClasses"] as? [String], ["ICOwner", "ICItem"], "one schema line per export")
        XCTAssertEqual(result["objects"] as? Int, 5)
        try closingRealms {
            let realm = try openRealm("new.strata", types: Self.types)
            XCTAssertEqual(realm.object(ofType: ICItem.self, forPrimaryKey: "a")?.owner?.name, "Ann")
        }
    }

    func testImportReadsStandardInput() throws {
        let (jsonl, _) = try export(try makeFile(), to: "out.jsonl", ["--class", "ICOwner"])
        let target = fileURL("owners.strata").path
        let strataPath = try BuiltProducts.executable("strata").path
        let shell = try WorkerProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" import \"$1\" - < \"$2\"", strataPath, target, jsonl])
        try shell.waitForSuccess()
        XCTAssertEqual(shell.lines, ["\(target): imported 2 objects at version 1; created ICOwner"], shell.transcript)
        XCTAssertTrue(try strata(["log", target]).lines.first?.contains("\"import stdin\"") ?? false)
    }

    func testExportReadsOneSnapshotWhileAnotherProcessWrites() throws {
        let file = fileURL().path
        let writer = try WorkerProcess.stress(["worker", "insert", "--file", file, "--from", "1", "--count", "300"])
        _ = try writer.expectLine(startingWith: "COMMIT")
        for _ in 0..<3 {
            let run = try strata(["export", file])
            XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
            XCTAssertTrue(run.lines.first?.hasPrefix("{\"schema\":") ?? false, run.transcript)
            let values = try run.lines.dropFirst().map { line -> [String: Any] in
                let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                XCTAssertEqual(object["class"] as? String, "StressItem")
                return try XCTUnwrap(object["values"] as? [String: Any])
            }
            let ids = values.compactMap { $0["id"] as? Int }
            XCTAssertEqual(ids, Array(1..<(ids.count + 1)), "one snapshot: the first n items, in order")
            XCTAssertEqual(values.compactMap { $0["value"] as? Int }, ids.map { $0 * 10 })
        }
        try writer.waitForSuccess()
        XCTAssertEqual(try strata(["export", file]).lines.count, 301)
    }
}
