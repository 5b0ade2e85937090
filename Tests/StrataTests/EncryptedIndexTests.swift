import Foundation
import StrataStorage
import XCTest
@testable import Strata

final class EmberCard: Object {
    @Persisted(primaryKey: true) var code = ""
    @Persisted(indexed: true) var tag = ""
    @Persisted(indexed: true) var rank = 0
    @Persisted var weight = 0.0
}

/// Indexes of an encrypted file: equality, IN and primary keys through keyed hashes; ranges,
/// prefixes and sorts by scanning, with the same answers as on a plain file.
final class EncryptedIndexTests: StrataTestCase {
    private func open(_ name: String, encrypted: Bool) throws -> Realm {
        var config = configuration(name, types: [EmberCard.self])
        config.encryptionKey = encrypted ? EncryptionTests.key : nil
        let realm = try Realm(configuration: config)
        try realm.write {
            for i in 0..<60 {
                realm.add(EmberCard(value: ["code": "card-amethyst-\(i)", "tag": "tag-\(["garnet", "beryl", "topaz"][i % 3])",
                                            "rank": (i * 7) % 25, "weight": Double(i) / 4]))
            }
        }
        return realm
    }

    private func codes(_ results: Results<EmberCard>) -> [String] { results.map(\.code) }

    func testEqualityInAndPrimaryKeysUseTheIndexAndMatchThePlainFile() throws {
        let plain = try open("plain.strata", encrypted: false), encrypted = try open("encrypted.strata", encrypted: true)
        for (query, uses) in [("tag == 'tag-beryl'", "index lookup on EmberCard.tag"), ("rank IN {3, 10, 24}", "index lookup on EmberCard.rank"),
                              ("code == 'card-amethyst-17'", "primary key lookup on EmberCard.code")] {
            let found = encrypted.objects(EmberCard.self).filter(query)
            XCTAssertTrue(found.explain().hasPrefix(uses), "\(query): \(found.explain())")
            XCTAssertEqual(Set(codes(found)), Set(codes(plain.objects(EmberCard.self).filter(query))), query)
            XCTAssertFalse(found.isEmpty, query)
        }
        XCTAssertEqual(encrypted.object(ofType: EmberCard.self, forPrimaryKey: "card-amethyst-42")?.rank, (42 * 7) % 25)
        XCTAssertNil(encrypted.object(ofType: EmberCard.self, forPrimaryKey: "card-amethyst-60"))
        XCTAssertThrowsError(try encrypted.write { try encrypted.throwingCreate(EmberCard.self, value: ["code": "card-amethyst-5"]) }) { error in
            XCTAssertTrue("\(error)".contains("existing primary key"), "\(error)")
        }
    }

    func testRangesPrefixesAndSortsScanAndGiveThePlainFilesAnswers() throws {
        let plain = try open("plain.strata", encrypted: false), encrypted = try open("encrypted.strata", encrypted: true)
        for query in ["rank > 10", "rank BETWEEN {5, 12}", "tag BEGINSWITH 'tag-t'", "tag CONTAINS[c] 'ERY'", "rank >= 20 AND tag == 'tag-topaz'",
                      "rank < 4 SORT(weight DESC)", "TRUEPREDICATE SORT(tag ASC, rank DESC) LIMIT(7)"] {
            let found = encrypted.objects(EmberCard.self).filter(query)
            XCTAssertEqual(codes(found), codes(plain.objects(EmberCard.self).filter(query)), query)
            XCTAssertFalse(found.explain().contains("index range") || found.explain().contains("index prefix")
                           || found.explain().contains("index scan"), "\(query): \(found.explain())")
        }
        XCTAssertTrue(encrypted.objects(EmberCard.self).filter("tag BEGINSWITH 'tag-t'").explain()
            .hasPrefix("scan EmberCard (the file is encrypted: its indexes answer only == and IN)"))
        XCTAssertTrue(plain.objects(EmberCard.self).filter("tag BEGINSWITH 'tag-t'").explain().hasPrefix("index prefix on EmberCard.tag"))
        XCTAssertEqual(codes(encrypted.objects(EmberCard.self).sorted(byKeyPath: "rank")), codes(plain.objects(EmberCard.self).sorted(byKeyPath: "rank")))
    }

    func testIndexedValuesAndPrimaryKeysAreNotInTheFileInPlain() throws {
        _ = try open("encrypted.strata", encrypted: true)
        let bytes = try Data(contentsOf: fileURL("encrypted.strata"))
        for text in ["card-amethyst-17", "tag-garnet", "tag-topaz"] {
            XCTAssertNil(bytes.firstRange(of: Data(text.utf8)), text)
        }
        _ = try open("plain.strata", encrypted: false)
        XCTAssertNotNil(try Data(contentsOf: fileURL("plain.strata")).firstRange(of: Data("card-amethyst-17".utf8)), "the plain file holds it")
    }

    func testUpdatesAndDeletesKeepTheHashedIndexesConsistent() throws {
        let realm = try open("encrypted.strata", encrypted: true)
        try realm.write {
            for card in Array(realm.objects(EmberCard.self).filter("tag == 'tag-garnet'")) { card.tag = "tag-onyx" }
            realm.delete(realm.objects(EmberCard.self).filter("rank == 0"))
        }
        XCTAssertEqual(realm.objects(EmberCard.self).filter("tag == 'tag-garnet'").count, 0)
        XCTAssertEqual(realm.objects(EmberCard.self).filter("tag == 'tag-onyx'").count,
                       realm.objects(EmberCard.self).filter("tag ENDSWITH 'onyx'").count)
        XCTAssertEqual(realm.objects(EmberCard.self).filter("rank == 0").count, 0)
        assertConsistent("encrypted.strata", encryptionKey: EncryptionTests.key)
    }
}
