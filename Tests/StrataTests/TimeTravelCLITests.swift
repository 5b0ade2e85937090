import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// `strata blame`, `query --at` and `revert`, run as the built executable against real files.
final class TimeTravelCLITests: StrataTestCase {
    /// Versions 2 (Dog 1 Rex age 3, Dog 2 Fido age 5), 3 (Dog 2 age 6), 4 (Dog 1 deleted),
    /// 5 (Dog 2 named Bo).
    private func makeFile() throws -> String {
        try closingRealms {
            let realm = try openRealm(types: [Dog.self, Note.self])
            try realm.write(withDescription: "adopt") {
                realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 3, "born": Date(timeIntervalSince1970: 0)]))
                realm.add(Dog(value: ["id": 2, "name": "Fido", "age": 5, "born": Date(timeIntervalSince1970: 0)]))
            }
            try realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 2)!.age = 6 }
            try realm.write { realm.delete(realm.object(ofType: Dog.self, forPrimaryKey: 1)!) }
            try realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 2)!.name = "Bo" }
        }
        return fileURL().path
    }

    func testBlameListsEveryCommitThatTouchedAnObjectWithOldAndNewValues() throws {
        let file = try makeFile()
        let two = try strata(["blame", file, "Dog", "2"], environment: ["COLUMNS": "200"])
        XCTAssertEqual(two.process.terminationStatus, 0, two.transcript)
        XCTAssertEqual(two.lines.first, "Dog 2: touched by 3 retained versions", two.transcript)
        XCTAssertEqual(two.lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) }, ["5", "3", "2"])
        XCTAssertTrue(two.lines[1].contains("~ name=\"Fido\" -> \"Bo\""), two.transcript)
        XCTAssertTrue(two.lines[2].contains("~ age=5 -> 6"), two.transcript)
        XCTAssertTrue(two.lines[3].contains("+ name=\"Fido\", age=5"), two.transcript)
        let one = try XCTUnwrap(try strataJSON(["blame", file, "Dog", "1", "--json"]) as? [[String: Any]])
        XCTAssertEqual(one.compactMap { $0["version"] as? Int }, [4, 2], "found by its old values once deleted")
        XCTAssertEqual(one[0]["change"] as? String, "deleted")
        XCTAssertEqual((one[0]["oldValues"] as? [String: Any])?["name"] as? String, "Rex")
        XCTAssertNil(one[0]["values"])
        XCTAssertEqual(one[1]["change"] as? String, "inserted")
        XCTAssertEqual((one[1]["values"] as? [String: Any])?["age"] as? Int, 3)
        XCTAssertEqual(one[1]["process"] as? String, ProcessInfo.processInfo.processName)

        let missing = try strata(["blame", file, "Dog", "9"])
        XCTAssertEqual(missing.process.terminationStatus, 1)
        XCTAssertTrue(missing.errorOutput.contains("no 'Dog' object with primary key 9"), missing.transcript)
        let noKey = try strata(["blame", file, "Note", "1"])
        XCTAssertEqual(noKey.process.terminationStatus, 2)
        XCTAssertTrue(noKey.errorOutput.contains("class 'Note' has no primary key, and '1' is not an object key"), noKey.transcript)
    }

    func testBlameNamesAnObjectWithoutAPrimaryKeyByItsObjectKey() throws {
        try closingRealms {
            let realm = try openRealm(types: [Dog.self, Note.self])
            try realm.write { realm.add([Note(value: ["text": "draft", "rank": 1]), Note(value: ["text": "gone", "rank": 2])]) }
            try realm.write { realm.objects(Note.self).filter("rank == 1").first!.text = "final" }
            try realm.write { realm.delete(realm.objects(Note.self).filter("rank == 2")) }
        }
        let file = fileURL().path
        let listed = try strataObject(["query", file, "Note", "TRUEPREDICATE", "--json"])
        let key = try XCTUnwrap(listed["#key"] as? String, "\(listed)")
        XCTAssertTrue(key.hasPrefix("#"), "\(listed)")
        let kept = try strata(["blame", file, "Note", key], environment: ["COLUMNS": "200"])
        XCTAssertEqual(kept.process.terminationStatus, 0, kept.transcript)
        XCTAssertEqual(kept.lines.first, "Note \(key): touched by 2 retained versions", kept.transcript)
        XCTAssertTrue(kept.lines[1].contains("~ text=\"draft\" -> \"final\""), kept.transcript)
        let deletedKey = "#\(try XCTUnwrap(UInt64(key.dropFirst())) + 1)"
        let deleted = try XCTUnwrap(try strataJSON(["blame", file, "Note", deletedKey, "--json"]) as? [[String: Any]])
        XCTAssertEqual(deleted.compactMap { $0["change"] as? String }, ["deleted", "inserted"], "a deleted object is found too")
        XCTAssertEqual((deleted[0]["oldValues"] as? [String: Any])?["text"] as? String, "gone")

        let never = try strata(["blame", file, "Note", "#999"])
        XCTAssertEqual(never.process.terminationStatus, 1, never.transcript)
        XCTAssertTrue(never.errorOutput.contains("no 'Note' object #999 in the retained history"), never.transcript)
    }

    func testQueryAtAVersionReadsTheFileAsItWasThen() throws {
        let file = try makeFile()
        let atTwo = try strataJSON(["query", file, "Dog", "age >= 5", "--at", "2", "--json"])
        XCTAssertEqual((atTwo as? [String: Any])?["name"] as? String ?? (atTwo as? [[String: Any]])?.first?["name"] as? String, "Fido")
        let atThree = try strata(["query", file, "Dog", "name == 'Rex' OR age == 6", "--at", "3"])
        XCTAssertEqual(atThree.process.terminationStatus, 0, atThree.transcript)
        XCTAssertEqual(atThree.lines.last, "(2 objects of Dog)", atThree.transcript)
        let now = try strata(["query", file, "Dog", "name == 'Rex' OR age == 6"])
        XCTAssertEqual(now.lines.last, "(1 object of Dog)", now.transcript)
        let future = try strata(["query", file, "Dog", "TRUEPREDICATE", "--at", "9"])
        XCTAssertEqual(future.process.terminationStatus, 1)
        XCTAssertTrue(future.errorOutput.contains("does not exist yet: the newest is 5"), future.transcript)
    }

    func testRevertUndoesOneCommitAndRefusesWhenLaterCommitsChangedTheSameProperties() throws {
        let file = try makeFile()
        let deletion = try strata(["revert", file, "4"])
        XCTAssertEqual(deletion.process.terminationStatus, 0, deletion.transcript)
        XCTAssertEqual(deletion.lines, ["reverted version 4 in version 6"])
        let age = try XCTUnwrap(try strataJSON(["revert", file, "3", "--json"]) as? [String: Int])
        XCTAssertEqual(age, ["reverted": 3, "version": 7], "the name changed later, the age did not")
        try closingRealms {
            let realm = try openRealm(types: [Dog.self, Note.self])
            XCTAssertEqual(realm.objects(Dog.self).sorted(byKeyPath: "id").map { "\($0.id) \($0.name) \($0.age)" }, ["1 Rex 3", "2 Bo 5"])
            XCTAssertEqual(try realm.historyEntry(version: 6)?.description, "Revert version 4")
            XCTAssertEqual(realm.objects(Dog.self).filter("name == 'Rex'").count, 1, "through the index")
        }
        let conflict = try strata(["revert", file, "5"])
        XCTAssertEqual(conflict.process.terminationStatus, 0, "nothing later changed the name: \(conflict.transcript)")
        let inserted = try strata(["revert", file, "2"])
        XCTAssertEqual(inserted.process.terminationStatus, 1)
        XCTAssertTrue(inserted.errorOutput.contains("version 2 cannot be reverted"), inserted.transcript)
        XCTAssertTrue(inserted.errorOutput.contains("Dog 1 (id, name, age, born, photo) by version 4"), inserted.transcript)
        XCTAssertTrue(inserted.errorOutput.contains("Dog 2 (age) by version 3"), inserted.transcript)
        assertConsistent()
    }

    func testRevertingADeleteBringsBackLinksListsAndTheLinksToTheObject() throws {
        let types: [ObjectBase.Type] = [HistoryNode.self, HistoryNote.self]
        var deleted: UInt64 = 0
        try closingRealms {
            let realm = try openRealm(types: types)
            try realm.write {
                let nodes = (1...3).map { realm.create(HistoryNode.self, value: ["id": $0, "group": "a", "score": $0 * 10]) }
                nodes[0].next = nodes[1]
                nodes[0].children.append(objectsIn: [nodes[1], nodes[2], nodes[1]])
                nodes[0].labels.insert("x")
                nodes[0].counts["k"] = 4
                nodes[2].next = nodes[0]
                realm.add(HistoryNote(value: ["text": "about 1", "node": nodes[0]]))
            }
            try realm.write { realm.delete(realm.object(ofType: HistoryNode.self, forPrimaryKey: 1)!) }
            deleted = realm.version
        }
        let revert = try strata(["revert", fileURL().path, String(deleted)])
        XCTAssertEqual(revert.process.terminationStatus, 0, revert.transcript)
        try closingRealms {
            let realm = try openRealm(types: types)
            let one = try XCTUnwrap(realm.object(ofType: HistoryNode.self, forPrimaryKey: 1))
            XCTAssertEqual(one.next?.id, 2)
            XCTAssertEqual(one.children.map(\.id), [2, 3, 2])
            XCTAssertEqual(Array(one.labels), ["x"])
            XCTAssertEqual(one.counts["k"], 4)
            XCTAssertEqual(one.previous.map(\.id), [3], "the link from 3 is back")
            XCTAssertEqual(realm.objects(HistoryNote.self).first?.node?.id, 1)
            XCTAssertEqual(realm.objects(HistoryNode.self).filter("ANY children.id == 3").count, 1)
        }
        assertConsistent()
    }
}
