import Foundation
import StrataTestSupport
import XCTest
import Strata

final class QCOwner: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var city = ""
}

final class QCPet: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 0
    @Persisted var weight = 0.0
    @Persisted var born = Date(timeIntervalSince1970: 0)
    @Persisted var photo: Data?
    @Persisted var owner: QCOwner?
    @Persisted var tags: List<String>
}

final class QCNote: Object {
    @Persisted var text = ""
}

/// `strata query`, run as the built executable on files made here.
final class QueryCLITests: StrataTestCase {
    /// Five pets, two owners, one note.
    private func makeFile() throws -> String {
        try closingRealms {
            let realm = try openRealm(types: [QCOwner.self, QCPet.self, QCNote.self])
            try realm.write {
                let ann = realm.create(QCOwner.self, value: ["name": "Ann", "city": "Oslo"])
                let bob = realm.create(QCOwner.self, value: ["name": "Bob", "city": "Rome"])
                let pets: [(Int, String, Int, Double, QCOwner?, [String])] = [
                    (1, "Rex", 9, 30.5, ann, ["big", "old"]), (2, "Bella", 3, 8.25, bob, []),
                    (3, "Rocky", 5, 22.0, nil, ["big"]), (4, "Max", 12, 12.0, ann, []),
                    (5, "Ruby \"the quick\"", 1, 4.5, bob, ["small", "young", "fast"]),
                ]
                for (id, name, age, weight, owner, tags) in pets {
                    let pet = QCPet()
                    pet.id = id
                    pet.name = name
                    pet.age = age
                    pet.weight = weight
                    pet.born = Date(timeIntervalSince1970: 1_600_000_000 + Double(id) * 86_400)
                    pet.photo = id == 1 ? Data([1, 2, 3]) : nil
                    pet.owner = owner
                    pet.tags.append(objectsIn: tags)
                    realm.add(pet)
                }
                realm.add(QCNote(value: ["text": "line one\nline two"]))
            }
        }
        return fileURL().path
    }

    private func jsonObjects(_ result: WorkerProcess) throws -> [[String: Any]] {
        try result.lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try XCTUnwrap(object, "not a JSON object: \(line)")
        }
    }

    func testTableShowsEveryPropertyWithLinksAsPrimaryKeysAndListsAsCounts() throws {
        let file = try makeFile()
        let result = try strata(["query", file, "QCPet", "name BEGINSWITH 'R' AND age > %@", "2", "--sort", "age DESC"])
        XCTAssertEqual(result.process.terminationStatus, 0, result.transcript)
        let lines = result.lines
        XCTAssertEqual(lines.count, 5, result.transcript)  // header, rule, two objects, count
        for name in ["id", "name", "age", "weight", "born", "photo", "owner", "tags"] {
            XCTAssertTrue(lines[0].contains(name), result.transcript)
        }
        XCTAssertTrue(lines[2].contains("Rex") && lines[2].contains("Ann") && lines[2].contains("[2]")
                      && lines[2].contains("<3 bytes>") && lines[2].contains("30.5"), result.transcript)
        XCTAssertTrue(lines[3].contains("Rocky") && lines[3].contains("nil") && lines[3].contains("[1]"), result.transcript)
        XCTAssertEqual(lines[4], "(2 objects of QCPet)")
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 }, result.transcript)
    }

    func testJSONLinesHoldEveryPropertyInOrderWithSortAndLimit() throws {
        let file = try makeFile()
        let result = try strata(["query", file, "QCPet", "TRUEPREDICATE", "--sort", "age DESC,name", "--limit", "3", "--json"])
        XCTAssertEqual(result.process.terminationStatus, 0, result.transcript)
        let objects = try jsonObjects(result)
        XCTAssertEqual(objects.map { $0["id"] as? Int }, [4, 1, 3])
        let rex = objects[1]
        XCTAssertEqual(rex["name"] as? String, "Rex")
        XCTAssertEqual(rex["age"] as? Int, 9)
        XCTAssertEqual(rex["weight"] as? Double, 30.5)
        XCTAssertEqual(rex["owner"] as? String, "Ann")
        XCTAssertEqual(rex["tags"] as? [String], ["big", "old"], "a list's members, not its count")
        XCTAssertEqual(rex["photo"] as? String, Data([1, 2, 3]).base64EncodedString())
        XCTAssertEqual((rex["born"] as? String).flatMap(Self.parseDate), Date(timeIntervalSince1970: 1_600_086_400))
        XCTAssertTrue(objects[2]["owner"] is NSNull, "\(objects[2])")
        XCTAssertTrue(result.lines[0].hasPrefix("{\"id\":4,\"name\":\"Max\",\"age\":12,"), result.transcript)
    }

    func testArgumentsFillPlaceholdersIncludingArraysAndEscapedStrings() throws {
        let file = try makeFile()
        let result = try strata(["query", file, "QCPet", "id IN %@ OR name == $1", "[2, 4]", "Ruby \"the quick\"", "--json"])
        XCTAssertEqual(result.process.terminationStatus, 0, result.transcript)
        let objects = try jsonObjects(result)
        XCTAssertEqual(objects.map { $0["id"] as? Int }, [2, 4, 5])
        XCTAssertEqual(objects[2]["name"] as? String, "Ruby \"the quick\"")
        XCTAssertEqual(objects[2]["tags"] as? [String], ["small", "young", "fast"])

        let links = try strata(["query", file, "QCPet", "owner.city == 'Rome' AND weight < 5", "--json"])
        XCTAssertEqual(try jsonObjects(links).map { $0["id"] as? Int }, [5], links.transcript)
    }

    func testClassWithoutPrimaryKeyShowsObjectKeys() throws {
        let file = try makeFile()
        let json = try strata(["query", file, "QCNote", "text CONTAINS 'two'", "--json"])
        XCTAssertEqual(json.process.terminationStatus, 0, json.transcript)
        let objects = try jsonObjects(json)
        XCTAssertEqual(objects.count, 1)
        let key = try XCTUnwrap(objects[0]["#key"] as? String, "the object key is a string, exact in any JSON reader: \(objects)")
        XCTAssertTrue(key.hasPrefix("#") && UInt64(key.dropFirst()) != nil, key)
        XCTAssertEqual(objects[0]["text"] as? String, "line one\nline two")
        let table = try strata(["query", file, "QCNote", "TRUEPREDICATE"])
        XCTAssertTrue(table.lines[0].contains("#key"), table.transcript)
        XCTAssertTrue(table.lines[2].hasPrefix("  " + key), "the same name in the table: \(table.transcript)")
        XCTAssertTrue(table.lines[2].contains("line one\\u{a}line two"), table.transcript)
    }

    func testExplainPrintsThePlanInsteadOfObjects() throws {
        let file = try makeFile()
        let prefix = try strata(["query", file, "QCPet", "name BEGINSWITH 'R'", "--explain"])
        XCTAssertEqual(prefix.process.terminationStatus, 0, prefix.transcript)
        XCTAssertEqual(prefix.lines, ["index prefix on QCPet.name 'R'"])
        let sorted = try strata(["query", file, "QCPet", "age > 3", "--sort", "name", "--limit", "2", "--explain"])
        XCTAssertEqual(sorted.lines.count, 1, sorted.transcript)
        XCTAssertTrue(sorted.lines[0].hasPrefix("scan QCPet reading age then filter age > 3"), sorted.transcript)
        XCTAssertTrue(sorted.lines[0].hasSuffix("then SORT(name ASC) then LIMIT(2)"), sorted.transcript)
        let pk = try strata(["query", file, "QCPet", "id BETWEEN {2, 3}", "--explain"])
        XCTAssertTrue(pk.lines.first?.hasPrefix("primary key") ?? false, pk.transcript)
    }

    func testBadQueryExitsWithStatusTwoAndThePosition() throws {
        let file = try makeFile()
        let result = try strata(["query", file, "QCPet", "age > "])
        XCTAssertEqual(result.process.terminationStatus, 2, result.transcript)
        XCTAssertTrue(result.lines.isEmpty, result.transcript)
        XCTAssertTrue(result.errorOutput.contains("Invalid query at position 6"), result.transcript)
        XCTAssertTrue(result.errorOutput.contains("\n  age > \n        ^"), result.transcript)

        let type = try strata(["query", file, "QCPet", "age BEGINSWITH 'x'"])
        XCTAssertEqual(type.process.terminationStatus, 2, type.transcript)
        XCTAssertTrue(type.errorOutput.contains("Invalid query"), type.transcript)

        let property = try strata(["query", file, "QCPet", "nmae == 'Rex'"])
        XCTAssertEqual(property.process.terminationStatus, 2, property.transcript)
        XCTAssertTrue(property.errorOutput.contains("name"), property.transcript)

        let missing = try strata(["query", file, "QCPet", "age > %@"])
        XCTAssertEqual(missing.process.terminationStatus, 2, missing.transcript)
    }

    func testUnknownClassExitsWithStatusTwoAndASuggestion() throws {
        let file = try makeFile()
        let result = try strata(["query", file, "QCPte", "TRUEPREDICATE"])
        XCTAssertEqual(result.process.terminationStatus, 2, result.transcript)
        XCTAssertTrue(result.errorOutput.contains("unknown class 'QCPte'"), result.transcript)
        XCTAssertTrue(result.errorOutput.contains("did you mean 'QCPet'?"), result.transcript)

        let far = try strata(["query", file, "Zebra", "TRUEPREDICATE"])
        XCTAssertEqual(far.process.terminationStatus, 2, far.transcript)
        XCTAssertTrue(far.errorOutput.contains("QCNote, QCOwner, QCPet"), far.transcript)
    }

    func testBadArgumentsExitWithStatusTwoAndTheUsage() throws {
        let file = try makeFile()
        for arguments in [["query", file, "QCPet"], ["query", file, "QCPet", "age > 1", "--limit", "x"],
                          ["query", file, "QCPet", "age > 1", "--frobnicate"]] {
            let result = try strata(arguments)
            XCTAssertEqual(result.process.terminationStatus, 2, result.transcript)
            XCTAssertTrue(result.errorOutput.contains("usage: strata query FILE CLASS"), result.transcript)
        }
    }

    func testQueryReadsOneSnapshotWhileAnotherProcessWrites() throws {
        let file = fileURL().path
        let writer = try WorkerProcess.stress(["worker", "insert", "--file", file, "--from", "1", "--count", "300"])
        _ = try writer.expectLine(startingWith: "COMMIT")
        for _ in 0..<3 {
            let result = try strata(["query", file, "StressItem", "id >= 1 AND value >= 0", "--json"])
            XCTAssertEqual(result.process.terminationStatus, 0, result.transcript)
            let ids = try jsonObjects(result).compactMap { $0["id"] as? Int }
            XCTAssertEqual(ids, Array(1...ids.count), "one snapshot: the first n items, in order")
        }
        try writer.waitForSuccess()
        let after = try strata(["query", file, "StressItem", "id > %@", "250", "--json"])
        XCTAssertEqual(try jsonObjects(after).count, 50, after.transcript)
    }

    private static func parseDate(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }
}
