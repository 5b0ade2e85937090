import Foundation
import StrataStorage
import XCTest
@testable import Strata

/// The history API (`Realm.history`, `historyEntry`, `changes(from:to:)`) and retention.
final class HistoryTests: StrataTestCase {
    private func realm(_ retention: HistoryRetention = .default, name: String = "test.strata",
                       types: [ObjectBase.Type] = [Dog.self, Tag.self, Note.self]) throws -> Realm {
        var configuration = configuration(name, types: types)
        configuration.syncOnCommit = false
        configuration.historyRetention = retention
        return try Realm(configuration: configuration)
    }

    private func int(_ keys: [Realm.HistoryEntry.ObjectID]) -> [Int] {
        keys.compactMap { if case .int(let v)? = $0.primaryKey { v } else { nil } }
    }

    // MARK: Entries

    func testInsertsUpdatesAndDeletesAreRecordedWithPrimaryKeysAndPropertyNames() throws {
        let realm = try realm()
        try realm.write(withDescription: "add two") {
            realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 3]))
            realm.add(Dog(value: ["id": -2, "name": "Fido"]))
        }
        try realm.write {
            let rex = realm.object(ofType: Dog.self, forPrimaryKey: 1)!
            rex.name = "Rex II"
            rex.age = 4
            realm.delete(realm.object(ofType: Dog.self, forPrimaryKey: -2)!)
        }
        let entries = try realm.history()
        XCTAssertEqual(entries.map(\.version), [3, 2, 1], "newest first; version 1 stored the classes")
        let update = entries[0], insert = entries[1]
        XCTAssertEqual(insert.description, "add two")
        XCTAssertNil(update.description)
        XCTAssertEqual(insert.pid, getpid())
        XCTAssertEqual(insert.processName, ProcessInfo.processInfo.processName)
        XCTAssertEqual(insert.classes.map(\.className), ["Dog"])
        XCTAssertEqual(int(insert["Dog"]!.inserted), [-2, 1], "in object-key order: signed order")
        XCTAssertEqual(int(update["Dog"]!.deleted), [-2])
        XCTAssertEqual(update["Dog"]!.modified.map(\.properties), [["name", "age"]])
        XCTAssertEqual(int(update["Dog"]!.modified.map(\.object)), [1])
        XCTAssertEqual(update["Dog"]!.modifiedProperties, ["name", "age"])
        XCTAssertFalse(update["Dog"]!.cleared)
        XCTAssertNil(update["Tag"])
        XCTAssertTrue(entries[2].classes.isEmpty)
        XCTAssertLessThanOrEqual(insert.date, update.date)
        XCTAssertEqual(try realm.historyEntry(version: 2), insert)
        XCTAssertNil(try realm.historyEntry(version: 4))
        XCTAssertEqual(realm.retainedHistory, 1...3)
    }

    func testAnObjectInsertedAndModifiedInOneWriteIsOnlyInserted() throws {
        let realm = try realm()
        try realm.write {
            let dog = realm.create(Dog.self, value: ["id": 7])
            dog.name = "Late"
            let gone = realm.create(Dog.self, value: ["id": 8])
            realm.delete(gone)
        }
        let dog = try XCTUnwrap(try realm.history(limit: 1).first?["Dog"])
        XCTAssertEqual(int(dog.inserted), [7])
        XCTAssertTrue(dog.modified.isEmpty)
        XCTAssertTrue(dog.deleted.isEmpty)
    }

    func testDeleteAllIsRecordedAsClearedWithTheObjectsAddedAfterIt() throws {
        let realm = try realm()
        try realm.write { for i in 1...5 { realm.add(Dog(value: ["id": i])) } }
        try realm.write {
            realm.deleteAll()
            realm.add(Dog(value: ["id": 9]))
        }
        try realm.write { realm.delete(realm.objects(Dog.self)) }
        let entries = try realm.history(limit: 2)
        XCTAssertTrue(entries[1]["Dog"]!.cleared)
        XCTAssertEqual(int(entries[1]["Dog"]!.inserted), [9])
        XCTAssertTrue(entries[0]["Dog"]!.cleared, "deleting all results of a class is one clear")
        XCTAssertTrue(entries[0]["Dog"]!.inserted.isEmpty)
    }

    func testStringPrimaryKeysAreKnownWhileTheObjectExistsAndObjectKeysOtherwise() throws {
        let realm = try realm()
        try realm.write {
            realm.add(Tag(value: ["name": "swift"]))
            realm.add(Tag(value: ["name": "lmdb"]))
            realm.add(Note(value: ["text": "hello"]))
        }
        try realm.write {
            realm.object(ofType: Tag.self, forPrimaryKey: "swift")!.uses = 2
            realm.delete(realm.object(ofType: Tag.self, forPrimaryKey: "lmdb")!)
            realm.objects(Note.self).first!.rank = 5
        }
        let entries = try realm.history(limit: 2)
        let inserted = entries[1]["Tag"]!.inserted
        XCTAssertEqual(inserted.count, 2)
        XCTAssertEqual(inserted[0].primaryKey, .string("swift"))
        XCTAssertNil(inserted[1].primaryKey, "deleted since: its string key is not recorded")
        XCTAssertEqual(inserted[1].description, "#\(inserted[1].objectKey)")
        XCTAssertEqual(entries[0]["Tag"]!.modified.first?.object.primaryKey, .string("swift"))
        XCTAssertEqual(entries[0]["Tag"]!.modified.first?.properties, ["uses"])
        XCTAssertEqual(entries[0]["Tag"]!.deleted.map(\.objectKey), [inserted[1].objectKey])
        let note = entries[0]["Note"]!.modified.first!
        XCTAssertNil(note.object.primaryKey, "a class without a primary key is named by object keys")
        XCTAssertEqual(note.object.objectKey, entries[1]["Note"]!.inserted.first!.objectKey)
        XCTAssertEqual(note.properties, ["rank"])
    }

    func testAWriteWithADescriptionButNoChangesIsRecorded() throws {
        let realm = try realm()
        try realm.write(withDescription: "checkpoint") {}
        let entry = try XCTUnwrap(try realm.history(limit: 1).first)
        XCTAssertEqual(entry.description, "checkpoint")
        XCTAssertTrue(entry.classes.isEmpty)
    }

    func testSinceAndLimitSelectNewerEntriesNewestFirst() throws {
        let realm = try realm()
        for i in 1...10 { try realm.write { realm.add(Dog(value: ["id": i])) } }
        XCTAssertEqual(realm.version, 11)
        XCTAssertEqual(try realm.history(since: 8).map(\.version), [11, 10, 9])
        XCTAssertEqual(try realm.history(limit: 2).map(\.version), [11, 10])
        XCTAssertEqual(try realm.history(since: 5, limit: 3).map(\.version), [11, 10, 9])
        XCTAssertEqual(try realm.history(since: 11), [])
        XCTAssertEqual(try realm.history(limit: 0), [])
        XCTAssertEqual(try realm.history().count, 11)
    }

    func testHistoryReadsTheRealmsSnapshot() throws {
        let realm = try realm()
        try realm.write { realm.add(Dog(value: ["id": 1])) }
        XCTAssertEqual(try realm.history(limit: 1).first?.version, 2)
        let other = try StorageFile.open(path: fileURL().path, options: .init()).beginWrite()
        other.commitDescription = "elsewhere"
        try other.commit(processName: "other", pid: 1)
        XCTAssertEqual(try realm.history(limit: 1).first?.version, 2, "the snapshot is held")
        realm.refresh()
        XCTAssertEqual(try realm.history(limit: 1).first?.processName, "other")
    }

    func testPropertyMaskBitsMapThroughTheStoredSchema() {
        let schema = ClassSchema(name: "Wide", properties: [
            PropertySchema(name: "a", type: .int, id: 0), PropertySchema(name: "b", type: .int, id: 2),
            PropertySchema(name: "x", type: .int, id: 63), PropertySchema(name: "y", type: .int, id: 70),
        ])
        XCTAssertEqual(HistoryResolver.names(0b101, schema), ["a", "b"])
        XCTAssertEqual(HistoryResolver.names(0b10, schema), ["#1"], "a removed property shows its id")
        XCTAssertEqual(HistoryResolver.names(1 << 63, schema), ["x", "y"], "bit 63 stands for every id ≥ 63")
        XCTAssertEqual(HistoryResolver.names(1 << 63, nil), ["#63+"])
    }

    func testTheExtensionAreaRoundTripsAndUnknownSectionsAreKept() {
        var changes = ChangeSet()
        changes.classes["Dog"] = ClassChanges(inserted: [1], deleted: [], modified: [2: 1], cleared: false)
        let entry = StrataStorage.HistoryEntry(
            version: 3, time: 1, pid: 2, processName: "p", description: nil, changes: changes,
            extensions: [.init(tag: StrataStorage.HistoryEntry.Extension.oldValuesTag, bytes: [1, 2, 3]), .init(tag: 200, bytes: [])])
        let bytes = entry.encoded()
        XCTAssertEqual(bytes.withUnsafeBytes { StrataStorage.HistoryEntry(decoding: $0) }, entry)
        let plain = StrataStorage.HistoryEntry(version: 3, time: 1, pid: 2, processName: "p", description: nil, changes: changes)
        XCTAssertEqual(Array(bytes.prefix(plain.encoded().count)), plain.encoded(), "sections only append")
        XCTAssertNil(Array(bytes.dropLast()).withUnsafeBytes { StrataStorage.HistoryEntry(decoding: $0) }, "a cut section is damage")
    }

    func testEachEntryRecordsTheSizeInUseOfTheVersionBeforeIt() throws {
        let realm = try realm()
        try realm.write { realm.add(Note(value: ["text": "small"])) }
        try realm.write {
            for n in 0..<400 { realm.add(Note(value: ["text": String(repeating: "x", count: 4_000), "rank": n])) }
        }
        try realm.write { realm.add(Note(value: ["text": "after"])) }
        let sizes = try realm.history().reversed().map(\.bytesInUseBefore)
        XCTAssertEqual(sizes.count, 4, "version 1 stored the classes")
        let bytes = try sizes.map { try XCTUnwrap($0) }
        XCTAssertTrue(bytes.allSatisfy { $0 > 0 && $0 % 4_096 == 0 }, "whole pages: \(bytes)")
        XCTAssertGreaterThan(bytes[3] - bytes[2], 1_600_000, "entry 4 records version 3, which added 1.6 MB: \(bytes)")
        XCTAssertLessThan(bytes[2] - bytes[1], 100_000, "one small note: \(bytes)")
        let stripped = StrataStorage.HistoryEntry(version: 2, time: 0, pid: 1, processName: "p", description: nil, changes: ChangeSet())
        XCTAssertNil(stripped.pagesInUseBefore, "an entry written without the section records no size")
    }

    // MARK: Changes between versions

    func testChangesBetweenVersionsAreNettedPerObject() throws {
        let realm = try realm()
        try realm.write { for i in 1...3 { realm.add(Dog(value: ["id": i, "name": "d\(i)"])) } }  // version 2
        try realm.write {
            realm.add(Dog(value: ["id": 10]))                                    // inserted…
            realm.object(ofType: Dog.self, forPrimaryKey: 1)!.name = "one"       // modified
        }
        try realm.write {
            realm.object(ofType: Dog.self, forPrimaryKey: 10)!.age = 1           // …then modified: inserted
            realm.object(ofType: Dog.self, forPrimaryKey: 1)!.age = 5            // modified twice
            realm.delete(realm.object(ofType: Dog.self, forPrimaryKey: 2)!)      // deleted
            realm.add(Dog(value: ["id": 11]))
        }
        try realm.write {
            realm.delete(realm.object(ofType: Dog.self, forPrimaryKey: 11)!)     // inserted then deleted: gone
            realm.add(Dog(value: ["id": 2, "name": "again"]))                   // deleted then inserted: modified
        }
        let dog = try XCTUnwrap(try realm.changes(from: 2, to: 5).first)
        XCTAssertEqual(dog.className, "Dog")
        XCTAssertEqual(int(dog.inserted), [10])
        XCTAssertEqual(int(dog.deleted), [])
        XCTAssertEqual(int(dog.modified.map(\.object)), [1, 2])
        XCTAssertEqual(dog.modified[0].properties, ["name", "age"])
        XCTAssertEqual(dog.modified[1].properties, ["id", "name", "age", "born", "photo"])
        XCTAssertEqual(try realm.changes(from: 3, to: 3), [])
        XCTAssertEqual(int(try realm.changes(from: 3, to: 4).first!.deleted), [2])
    }

    func testChangesOutsideTheRetainedHistoryThrow() throws {
        let realm = try realm(.count(3))
        for i in 1...6 { try realm.write { realm.add(Dog(value: ["id": i])) } }
        XCTAssertEqual(realm.retainedHistory, 5...7)
        XCTAssertNoThrow(try realm.changes(from: 5, to: 7))
        XCTAssertThrowsError(try realm.changes(from: 4, to: 7)) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("retained history is 5 to 7"), "\(error)")
        }
        XCTAssertThrowsError(try realm.changes(from: 6, to: 8))
        XCTAssertThrowsError(try realm.changes(from: 7, to: 6))
    }

    // MARK: Retention

    private func fileSize() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: fileURL().path))?[.size] as? Int) ?? 0
    }

    func testACountPolicyKeepsTheNewestEntriesAndTheFileStopsGrowing() throws {
        let realm = try realm(.count(50))
        let note = "x".padding(toLength: 200, withPad: "y", startingAt: 0)
        for i in 1...400 { try realm.write(withDescription: note) { realm.add(Dog(value: ["id": i])) } }
        let warmedUp = fileSize()
        for i in 401...2000 {
            try realm.write(withDescription: note) { realm.object(ofType: Dog.self, forPrimaryKey: i % 400 + 1)!.age = i }
        }
        XCTAssertEqual(realm.version, 2001, "versions keep counting")
        XCTAssertEqual(realm.retainedHistory, 1952...2001)
        XCTAssertEqual(try realm.history().count, 50)
        XCTAssertEqual(try realm.history().map(\.version), Array((1952...2001).reversed()))
        XCTAssertLessThanOrEqual(fileSize(), warmedUp + 8 * 4096, "1,600 more commits and 320 KB of descriptions do not grow the file")
    }

    func testAllKeepsEveryEntry() throws {
        let realm = try realm(.all)
        for i in 1...60 { try realm.write { realm.add(Dog(value: ["id": i])) } }
        XCTAssertEqual(realm.retainedHistory, 1...61)
    }

    func testTighteningThePolicyRemovesABoundedNumberPerCommit() throws {
        try closingRealms {
            let first = try self.realm(.all)
            for i in 1...99 { try first.write { first.add(Dog(value: ["id": i])) } }
            XCTAssertEqual(first.retainedHistory, 1...100)
        }
        let realm = try self.realm(.count(10))
        try realm.write { realm.add(Dog(value: ["id": 100])) }
        XCTAssertEqual(try realm.history().count, 101 - 32, "one commit removes at most 32 entries")
        for i in 101...103 { try realm.write { realm.add(Dog(value: ["id": i])) } }
        XCTAssertEqual(realm.retainedHistory, 95...104)
    }

    /// Makes the entries of `versions` look `age` seconds old (rewriting their commit times).
    private func backdate(_ versions: ClosedRange<UInt64>, by age: Double) throws {
        let txn = try StorageFile.open(path: fileURL().path, options: .init()).beginWrite()
        defer { txn.abort() }
        let db = try XCTUnwrap(txn.history.database)
        for version in versions {
            var entry = try XCTUnwrap(try txn.history.entry(version))
            entry.time -= age
            var key = version.bigEndian
            try withUnsafeBytes(of: &key) { k in try entry.encoded(sealedFor: k).withUnsafeBytes { try txn.lmdb.put(db, key: k, value: $0) } }
        }
        try txn.lmdb.commit()
    }

    func testAnAgePolicyRemovesOlderEntriesAndKeepsNewerOnes() throws {
        let realm = try realm(.age(3600))
        for i in 1...19 { try realm.write { realm.add(Dog(value: ["id": i])) } }
        XCTAssertEqual(realm.retainedHistory, 1...20, "nothing is an hour old yet")
        try backdate(1...12, by: 7200)
        realm.refresh()
        try realm.write { realm.add(Dog(value: ["id": 20])) }
        XCTAssertEqual(realm.retainedHistory, 13...21)
        XCTAssertEqual(realm.version, 21)
    }

    func testCountOrAgeKeepsWhicheverIsMoreAndTheCapLimitsBoth() throws {
        let realm = try realm(HistoryRetention(keepCount: 5, keepAge: 3600))
        for i in 1...19 { try realm.write { realm.add(Dog(value: ["id": i])) } }
        XCTAssertEqual(realm.retainedHistory, 1...20, "young entries are kept beyond the count")
        try backdate(1...18, by: 7200)
        realm.refresh()
        try realm.write { realm.add(Dog(value: ["id": 20])) }
        XCTAssertEqual(realm.retainedHistory, 17...21, "old entries beyond the newest 5 go")

        let capped = try self.realm(HistoryRetention(keepAge: 3600, maximumCount: 4), name: "capped.strata")
        for i in 1...9 { try capped.write { capped.add(Dog(value: ["id": i])) } }
        XCTAssertEqual(capped.retainedHistory, 7...10, "the cap removes young entries too")
    }

    func testTheDefaultPolicy() {
        XCTAssertEqual(Realm.Configuration().historyRetention, .default)
        XCTAssertEqual(HistoryRetention.default, HistoryRetention(keepCount: 10_000, keepAge: 30 * 86_400, maximumCount: 1_000_000))
        XCTAssertEqual(HistoryRetention.all.description, "all")
        XCTAssertEqual(HistoryRetention.count(5).description, "newest 5")
    }
}
