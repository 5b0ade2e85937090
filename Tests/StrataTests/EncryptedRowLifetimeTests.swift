import Foundation
import XCTest
@testable import Strata

/// How long decrypted rows live on an encrypted file (docs/ENCRYPTION.md, "Decrypted memory"):
/// a loop's cursor decrypts each batch into a block it reuses unless an object it handed out
/// still holds it, and rows read otherwise live as long as their transaction. Each test reads
/// back what it wrote after the memory a wrong lifetime would reuse has been written again.
final class EncryptedRowLifetimeTests: StrataTestCase {
    private func encryptedRealm(_ types: [ObjectBase.Type]) throws -> Realm {
        var config = configuration(types: types)
        config.encryptionKey = EncryptionTests.key
        return try Realm(configuration: config)
    }

    /// A note of `i`, long enough that a batch of rows fills most of a cursor's block.
    private func note(_ i: Int) -> String { "note \(i) " + String(repeating: Character(UnicodeScalar(UInt8(97 + i % 26))), count: 300 + i % 50) }

    /// 3,000 notes, one of them larger than a cursor's block (64 KiB).
    private func fill(_ realm: Realm) throws {
        try realm.write {
            for i in 0..<3_000 {
                let text = i == 1_500 ? String(repeating: "z", count: 100_000) : note(i)
                realm.add(Note(value: ["text": text, "rank": i]))
            }
        }
    }

    func testObjectsKeptFromALoopReadTheirOwnRowsAfterLaterBatches() throws {
        let realm = try encryptedRealm([Note.self])
        try fill(realm)
        var kept: [Note] = []
        var seen = 0
        for note in realm.objects(Note.self) {
            let expected = note.rank == 1_500 ? String(repeating: "z", count: 100_000) : self.note(note.rank)
            XCTAssertEqual(note.text, expected)
            if note.rank % 97 == 0 { kept.append(note) }
            seen += 1
        }
        XCTAssertEqual(seen, 3_000)
        // Every batch after a kept object's was decrypted into other memory: the kept objects
        // still read their own rows.
        XCTAssertEqual(kept.count, 31)
        for note in kept { XCTAssertEqual(note.text, self.note(note.rank)) }
        // A second loop in the same snapshot reuses blocks no object holds, and reads the same.
        XCTAssertEqual(realm.objects(Note.self).reduce(0) { $0 + $1.text.utf8.count },
                       (0..<3_000).reduce(0) { $0 + ($1 == 1_500 ? 100_000 : note($1).utf8.count) })
        for note in kept { XCTAssertEqual(note.text, self.note(note.rank)) }
    }

    func testRowsReadOneByOneStayValidForTheSnapshot() throws {
        let realm = try encryptedRealm([Note.self])
        try fill(realm)
        let notes = realm.objects(Note.self)
        // Subscripting reads each row by key into the snapshot's memory; the first objects'
        // rows are read again after thousands of others were decrypted.
        let objects = (0..<3_000).map { notes[$0] }
        for object in objects { _ = object.rank }
        for object in objects.prefix(200) {
            XCTAssertEqual(object.text, object.rank == 1_500 ? String(repeating: "z", count: 100_000) : note(object.rank))
        }
    }

    /// A query's scan decrypts each row into one buffer it reuses (the row is read only while
    /// it is tested); a scan that keeps the first rows of a sort keeps them in memory of
    /// their own.
    func testScansReuseOneBufferAndASortedScanKeepsTheRowsItRanks() throws {
        let realm = try encryptedRealm([Note.self])
        try fill(realm)
        let notes = realm.objects(Note.self)
        let texts = (0..<3_000).map { $0 == 1_500 ? String(repeating: "z", count: 100_000) : note($0) }
        XCTAssertEqual(notes.filter("text CONTAINS 'qqq'").count, texts.filter { $0.contains("qqq") }.count)
        XCTAssertEqual(notes.filter("text BEGINSWITH 'note 1'").count, texts.filter { $0.hasPrefix("note 1") }.count)
        let ranked = notes.filter("rank >= 10").sorted(byKeyPath: "text")
        let expected = (10..<3_000).sorted { texts[$0] < texts[$1] }
        XCTAssertEqual((0..<40).map { ranked[$0].rank }, Array(expected.prefix(40)))
        let some = notes.filter("text BEGINSWITH 'note 2'")
        XCTAssertEqual(some.sum(ofProperty: "rank") as Int, (0..<3_000).filter { texts[$0].hasPrefix("note 2") }.reduce(0, +))
    }

    func testSortingThroughALinkReadsEveryRowItSorts() throws {
        let realm = try encryptedRealm([Hound.self])
        try realm.write {
            let owners = (0..<500).map { Owner(value: ["id": $0, "name": String(format: "owner %03d ", (7 * $0) % 500) + String(repeating: "o", count: 200)]) }
            for i in 0..<2_000 {
                realm.add(Hound(value: ["name": "hound \(i) " + String(repeating: "h", count: 200), "owner": owners[i % 500]]))
            }
        }
        let sorted = realm.objects(Hound.self).sorted(byKeyPath: "owner.name")
        XCTAssertEqual(sorted.count, 2_000)
        let names = sorted.map { $0.owner!.name }
        XCTAssertEqual(names, names.sorted())
        XCTAssertEqual(Set(sorted.map(\.name)).count, 2_000)
    }
}
