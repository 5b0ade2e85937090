import Foundation
import LMDB
import StrataStorage
import StrataTestSupport
import XCTest
@testable import Strata

/// Reading past versions (`Realm.freeze(atVersion:)`), rebuilt from the old values that
/// history entries keep.
final class PastVersionTests: StrataTestCase {
    private var path: String { fileURL().path }

    private func open(_ retention: HistoryRetention = .all, oldValues: Bool = true) throws -> Realm {
        var configuration = configuration(types: [HistoryNode.self, HistoryNote.self])
        configuration.syncOnCommit = false
        configuration.historyRetention = retention
        configuration.historyRecordsOldValues = oldValues
        return try Realm(configuration: configuration)
    }

    /// Adds nodes `ids` in one write from this process, each linking to the one before.
    private func addNodes(_ realm: Realm, _ ids: ClosedRange<Int>) throws {
        try realm.write {
            for id in ids {
                let node = realm.create(HistoryNode.self, value: ["id": id, "group": "a", "score": id])
                node.next = realm.object(ofType: HistoryNode.self, forPrimaryKey: id - 1)
            }
        }
    }

    // MARK: The differential test

    /// Two worker processes make seeded random commits (with this process's between them);
    /// after each, a frozen Realm pins the version. Then every version is rebuilt and must
    /// answer as the pinned one does.
    func testEveryVersionReadsAsAFrozenRealmPinnedAtItSawIt() throws {
        let realm = try open()
        let workers = try (0..<2).map { _ in try WorkerProcess.stress(["worker", "history", "--file", path, "--nosync"]) }
        defer { workers.forEach { $0.kill() } }
        for worker in workers { _ = try worker.expectLine(startingWith: "READY") }
        var random = SplitMix64(seed: 2_326)
        var pinned: [UInt64: Realm] = [realm.version: realm.freeze()]
        for step in 0..<150 {
            if step % 15 == 14 {
                try realm.write {
                    for node in Array(realm.objects(HistoryNode.self).filter("score < 20")) { node.score += 1 }
                }
            } else {
                let worker = workers[Int(random.next() % 2)]
                worker.send("step \(random.next())")
                _ = try worker.expectLine(startingWith: "OK")
                realm.refresh()
            }
            pinned[realm.version] = realm.freeze()
        }
        XCTAssertGreaterThan(pinned.count, 100, "most steps committed something")
        XCTAssertEqual(realm.readableVersions?.upperBound, realm.version)
        var sawCleared = false, sawDeletes = false
        for (version, frozen) in pinned.sorted(by: { $0.key < $1.key }) {
            let past = try realm.freeze(atVersion: version)
            XCTAssertEqual(past.version, version)
            XCTAssertTrue(past.isFrozen)
            let expected = HistoryState.lines(frozen), got = HistoryState.lines(past)
            XCTAssertEqual(got, expected, "version \(version)")
            if got != expected { break }
            XCTAssertEqual(try past.history(limit: 1).first?.version, version, "its history ends at the version")
            if let entry = try realm.historyEntry(version: version) {
                sawCleared = sawCleared || entry["HistoryNote"]?.cleared == true
                sawDeletes = sawDeletes || entry["HistoryNode"]?.deleted.isEmpty == false
            }
        }
        XCTAssertTrue(sawCleared, "the sequence cleared the notes")
        XCTAssertTrue(sawDeletes, "the sequence deleted nodes")
    }

    // MARK: Edges

    func testAVersionNewerThanTheRealmIsRefused() throws {
        let realm = try open()
        try addNodes(realm, 1...3)
        XCTAssertThrowsError(try realm.freeze(atVersion: realm.version + 1)) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("the newest is \(realm.version)"), "\(error)")
        }
        XCTAssertEqual(try realm.freeze(atVersion: realm.version), realm.freeze(), "the current version is freeze()")
    }

    func testAVersionOlderThanTheRetainedHistoryNamesTheOldestReadableVersion() throws {
        let realm = try open(.count(5))
        for id in 1...40 { try addNodes(realm, id...id) }
        let readable = try XCTUnwrap(realm.readableVersions)
        XCTAssertEqual(readable.upperBound, realm.version)
        XCTAssertEqual(readable.lowerBound, try XCTUnwrap(realm.retainedHistory?.lowerBound))
        XCTAssertThrowsError(try realm.freeze(atVersion: readable.lowerBound - 1)) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("the oldest readable version is \(readable.lowerBound)"), "\(error)")
        }
        let oldest = try realm.freeze(atVersion: readable.lowerBound)
        XCTAssertEqual(oldest.objects(HistoryNode.self).count, realm.objects(HistoryNode.self).count - Int(readable.count - 1))
    }

    func testWithOldValuesOffOnlyVersionsAfterTheSettingAreReadable() throws {
        var realm: Realm? = try open(oldValues: false)
        try addNodes(realm!, 1...3)
        try addNodes(realm!, 4...4)
        XCTAssertEqual(realm!.readableVersions, realm!.version...realm!.version)
        XCTAssertThrowsError(try realm!.freeze(atVersion: realm!.version - 1)) { error in
            XCTAssertTrue("\(error)".contains("the oldest readable version is \(realm!.version)"), "\(error)")
        }
        XCTAssertEqual(try realm!.historyEntry(version: realm!.version)?.classes.first?.inserted.count, 1, "the history itself is kept")
        realm = nil
        let reopened = try open()
        let onAgain = reopened.version
        XCTAssertEqual(try reopened.historyEntry(version: onAgain)?.description, "History old values turned on")
        try addNodes(reopened, 5...6)
        XCTAssertEqual(reopened.readableVersions, onAgain - 1...reopened.version,
                       "the commit that turned them on keeps its (empty) old values")
        XCTAssertEqual(try reopened.freeze(atVersion: onAgain).objects(HistoryNode.self).count, 4)
    }

    func testEntriesWithoutOldValuesEndTheReadableVersions() throws {
        let realm = try open()
        try addNodes(realm, 1...3)
        let stripped = realm.version
        try addNodes(realm, 4...5)
        try realm.write { realm.object(ofType: HistoryNode.self, forPrimaryKey: 1)!.score = 99 }
        // Rewrite one entry as Strata wrote entries before they kept old values.
        let file = try StorageFile.open(path: path, options: .init(syncOnCommit: false))
        let txn = try file.beginWrite()
        var entry = try XCTUnwrap(try txn.history.entry(stripped + 1))
        entry.extensions = []
        var key = entry.version.bigEndian
        try withUnsafeBytes(of: &key) { k in
            try entry.encoded(sealedFor: txn.seals ? k : nil).withUnsafeBytes { try txn.lmdb.put(try XCTUnwrap(txn.history.database), key: k, value: $0) }
        }
        try txn.lmdb.commit()
        realm.refresh()
        XCTAssertEqual(realm.readableVersions?.lowerBound, stripped + 1)
        XCTAssertThrowsError(try realm.freeze(atVersion: stripped))
        let past = try realm.freeze(atVersion: stripped + 1)
        XCTAssertEqual(past.objects(HistoryNode.self).map(\.score).sorted(), [1, 2, 3, 4, 5])
    }

    func testAClearedClassComesBackWithTheLinksThatPointedAtIt() throws {
        let realm = try open()
        try addNodes(realm, 1...4)
        try realm.write {
            let node = realm.object(ofType: HistoryNode.self, forPrimaryKey: 2)!
            node.children.append(objectsIn: realm.objects(HistoryNode.self).sorted(byKeyPath: "id"))
            node.labels.insert("x")
            node.counts["k"] = 3
            realm.add(HistoryNote(value: ["text": "about 3", "node": realm.object(ofType: HistoryNode.self, forPrimaryKey: 3)!]))
        }
        let before = realm.version, expected = HistoryState.lines(realm)
        try realm.write { realm.deleteAll() }
        try addNodes(realm, 7...8)
        XCTAssertTrue(try realm.historyEntry(version: before + 1)?["HistoryNode"]?.cleared == true)
        let past = try realm.freeze(atVersion: before)
        XCTAssertEqual(HistoryState.lines(past), expected)
        XCTAssertEqual(past.objects(HistoryNode.self).filter("group == 'a'").count, 4, "through the index")
        XCTAssertEqual(past.object(ofType: HistoryNode.self, forPrimaryKey: 3)?.previous.first?.id, 4)
    }

    func testAClearOverTheOldValuesLimitEndsTheReadableVersions() throws {
        var configuration = configuration("large.strata", types: [Dog.self])
        configuration.syncOnCommit = false
        let realm = try Realm(configuration: configuration)
        let photo = Data(repeating: 7, count: 15 << 20)
        for id in 1...5 { try realm.write { realm.add(Dog(value: ["id": id, "photo": photo])) } }
        let full = realm.version
        try realm.write { realm.deleteAll() }
        try realm.write { realm.add(Dog(value: ["id": 9])) }
        XCTAssertGreaterThan(5 * photo.count, ObjectImages.maximumBytes)
        XCTAssertEqual(realm.readableVersions, full + 1...realm.version, "the clear kept no old values")
        XCTAssertThrowsError(try realm.freeze(atVersion: full)) { error in
            XCTAssertTrue("\(error)".contains("the oldest readable version is \(full + 1)"), "\(error)")
        }
        XCTAssertEqual(try realm.freeze(atVersion: full + 1).objects(Dog.self).count, 0)
        XCTAssertEqual(try realm.historyEntry(version: full + 1)?["Dog"]?.cleared, true, "the change set is kept")
    }

    func testTheCopyOfAPastVersionIsDeletedWithItsRealm() throws {
        let realm = try open()
        try addNodes(realm, 1...2)
        try addNodes(realm, 3...3)
        var copy = ""
        do {
            let past = try realm.freeze(atVersion: realm.version - 1)
            copy = past.core.path
            XCTAssertNotEqual(copy, path)
            XCTAssertTrue(FileManager.default.fileExists(atPath: copy))
            XCTAssertEqual(past.objects(HistoryNode.self).count, 2)
            let thawed = past.thaw()
            XCTAssertFalse(thawed.isFrozen)
            XCTAssertTrue(thawed.configuration.readOnly, "a live Realm of the copy, which takes no writes")
            XCTAssertEqual(thawed.objects(HistoryNode.self).count, 2)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
    }

    func testEmbeddedObjectsReadAsTheyWere() throws {
        var configuration = configuration("embedded.strata", types: [Tenant.self, Address.self, Coordinates.self, Phone.self])
        configuration.syncOnCommit = false
        let realm = try Realm(configuration: configuration)
        func describe(_ realm: Realm) -> [String] {
            realm.objects(Tenant.self).sorted(byKeyPath: "id").map { t in
                let address = t.address.map { "\($0.street) \($0.city) \($0.location?.latitude ?? -1) \($0.phones.map(\.number))" } ?? "nil"
                return "\(t.id) \(t.name) \(address) \(t.addresses.map(\.city))"
            }
        }
        var pinned: [(UInt64, Realm)] = []
        func pin() { pinned.append((realm.version, realm.freeze())) }
        try realm.write {
            realm.add(Tenant(value: ["id": 1, "name": "Ann", "address": ["street": "Main", "city": "Oslo", "location": ["latitude": 59.9],
                                                                       "phones": [["number": "1"]]],
                                     "addresses": [["city": "Rome"], ["city": "Bern"]]]))
            realm.add(Tenant(value: ["id": 2, "name": "Bob"]))
        }
        pin()
        let ann = realm.object(ofType: Tenant.self, forPrimaryKey: 1)!
        try realm.write { ann.address!.city = "Bergen"; ann.address!.phones.append(Phone(value: ["number": "2"])) }
        pin()
        try realm.write { ann.address = Address(value: ["street": "New", "city": "Lima"]) }
        pin()
        try realm.write { ann.addresses.remove(at: 0); ann.address!.location = Coordinates(value: ["latitude": 1.5]) }
        pin()
        try realm.write { realm.delete(ann) }
        pin()
        for (version, frozen) in pinned {
            XCTAssertEqual(describe(try realm.freeze(atVersion: version)), describe(frozen), "version \(version)")
        }
    }
}
