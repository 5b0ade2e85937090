import Foundation
import StrataStorage
import XCTest
@testable import Strata

/// Whole-file operations on an encrypted file: migration, the schema version, copies and
/// compaction.
final class EncryptedFileTests: StrataTestCase {
    private func config(_ version: UInt64, _ types: [ObjectBase.Type], key: Data? = EncryptionTests.key,
                        block: MigrationBlock? = nil) -> Realm.Configuration {
        var config = Realm.Configuration(fileURL: fileURL(), schemaVersion: version, migrationBlock: block, objectTypes: types)
        config.encryptionKey = key
        return config
    }

    private func seed() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [PersonV0.self]))
            try realm.write {
                realm.add(PersonV0(value: ["firstName": "Augusta", "lastName": "Byronsdottir", "age": 36]))
                realm.add(PersonV0(value: ["firstName": "Alonzo", "lastName": "Churchward", "age": 41]))
            }
        }
    }

    func testAnEncryptedFileMigratesAndStaysEncrypted() throws {
        try seed()
        try closingRealms {
            let realm = try Realm(configuration: config(3, [PersonV3.self], block: MigrationTests.linear))
            XCTAssertEqual(realm.objects(PersonV3.self).sorted(byKeyPath: "fullName").map(\.fullName),
                           ["Alonzo Churchward", "Augusta Byronsdottir"])
            XCTAssertEqual(realm.objects(PersonV3.self).filter("age == '41'").first?.fullName, "Alonzo Churchward")
        }
        XCTAssertEqual(try schemaVersionAtURL(fileURL(), encryptionKey: EncryptionTests.key), 3)
        XCTAssertThrowsError(try schemaVersionAtURL(fileURL())) { error in
            XCTAssertTrue("\(error)".contains("is encrypted"), "\(error)")
        }
        let bytes = try Data(contentsOf: fileURL())
        for text in ["Augusta Byronsdottir", "Churchward", "fullName", "firstName", "Migration from schema version"] {
            XCTAssertNil(bytes.firstRange(of: Data(text.utf8)), text)
        }
        let reopened = try Realm(configuration: config(3, [PersonV3.self]))
        XCTAssertEqual(reopened.objects(PersonV3.self).count, 2)
        XCTAssertEqual(try reopened.history().compactMap(\.description), ["Migration from schema version 0 to 3"])
    }

    /// A past version of an encrypted file is rebuilt in an encrypted copy: it reads with
    /// the key, and the old values it came from are not in the file in plain.
    func testAPastVersionOfAnEncryptedFileReadsAsItWas() throws {
        try seed()
        let realm = try Realm(configuration: config(0, [PersonV0.self]))
        let seeded = realm.version
        try realm.write { realm.objects(PersonV0.self).filter("firstName == 'Alonzo'").first?.age = 42 }
        try realm.write { realm.delete(realm.objects(PersonV0.self).filter("firstName == 'Augusta'")) }
        let past = try realm.freeze(atVersion: seeded)
        XCTAssertEqual(past.objects(PersonV0.self).sorted(byKeyPath: "firstName").map(\.age), [41, 36])
        XCTAssertEqual(past.objects(PersonV0.self).filter("lastName == 'Byronsdottir'").count, 1)
        let bytes = try Data(contentsOf: fileURL())
        XCTAssertNil(bytes.firstRange(of: Data("Byronsdottir".utf8)), "the deleted object's old row is sealed")
    }

    /// A class's first and last objects of an encrypted file, live and frozen, are its ends.
    func testTheFirstAndLastObjectsOfAClassAreItsEnds() throws {
        try seed()
        let realm = try Realm(configuration: config(0, [PersonV0.self]))
        let people = realm.objects(PersonV0.self)
        XCTAssertEqual(people.first?.firstName, "Augusta")
        XCTAssertEqual(people.last?.firstName, "Alonzo")
        let frozen = people.freeze()
        try realm.write { realm.delete(people.first!) }
        XCTAssertEqual(people.first?.firstName, "Alonzo")
        XCTAssertEqual(frozen.first?.lastName, "Byronsdottir")
        XCTAssertEqual(frozen.last?.lastName, "Churchward")
    }

    func testACopyWithTheSameKeyOpensWithIt() throws {
        try seed()
        let realm = try Realm(configuration: config(0, [PersonV0.self]))
        let copy = directory.appendingPathComponent("copy.strata")
        try realm.writeCopy(toFile: copy, encryptionKey: EncryptionTests.key)
        var copyConfig = config(0, [PersonV0.self])
        copyConfig.fileURL = copy
        XCTAssertEqual(try Realm(configuration: copyConfig).objects(PersonV0.self).count, 2)
        XCTAssertNil(try Data(contentsOf: copy).firstRange(of: Data("Churchward".utf8)))
    }

    /// Opens `url` with `key` and checks it holds what `EncryptionTests` writes, its index
    /// lookups and its history; and that its bytes hold the values in plain exactly when
    /// `key` is nil.
    private func assertCopy(_ name: String, key: Data?, file: StaticString = #filePath, line: UInt = #line) throws {
        var copyConfig = Realm.Configuration(fileURL: fileURL(name), objectTypes: [ZirconLedger.self, EmberCard.self])
        copyConfig.encryptionKey = key
        let realm = try Realm(configuration: copyConfig)
        let ledger = try XCTUnwrap(realm.objects(ZirconLedger.self).first, file: file, line: line)
        XCTAssertEqual(ledger.quartzNote, "quartz-harbour-7731", file: file, line: line)
        XCTAssertEqual(Array(ledger.labels), ["label-marigold-5519", "second"], file: file, line: line)
        XCTAssertEqual(ledger.attributes["key-obsidian-2288"], "value-saffron-4406", file: file, line: line)
        XCTAssertEqual(realm.objects(EmberCard.self).filter("tag == 'tag-beryl'").count, 2, file: file, line: line)
        XCTAssertEqual(realm.object(ofType: EmberCard.self, forPrimaryKey: "card-amethyst-4")?.rank, 4, file: file, line: line)
        XCTAssertEqual(try realm.history().compactMap(\.description), ["cards", "commit-juniper-9902"], file: file, line: line)
        let plain = try Data(contentsOf: fileURL(name)).firstRange(of: Data("quartz-harbour-7731".utf8)) != nil
        XCTAssertEqual(plain, key == nil, "values in plain", file: file, line: line)
        let other = key == nil ? EncryptionTests.key : nil
        copyConfig.encryptionKey = other
        XCTAssertThrowsError(try Realm(configuration: copyConfig), file: file, line: line)
    }

    private func writeSource(key: Data?) throws -> Realm {
        var sourceConfig = Realm.Configuration(fileURL: fileURL("source.strata"), objectTypes: [ZirconLedger.self, EmberCard.self])
        sourceConfig.encryptionKey = key
        let realm = try Realm(configuration: sourceConfig)
        try EncryptionTests.fill(realm)
        try realm.write(withDescription: "cards") {
            for i in 0..<5 { realm.add(EmberCard(value: ["code": "card-amethyst-\(i)", "tag": i % 2 == 0 ? "tag-garnet" : "tag-beryl", "rank": i])) }
        }
        return realm
    }

    func testAPlainFileCopiesEncryptedAndBackAndRekeyed() throws {
        let plain = try writeSource(key: nil)
        try plain.writeCopy(toFile: fileURL("encrypted.strata"), encryptionKey: EncryptionTests.key)
        try assertCopy("encrypted.strata", key: EncryptionTests.key)
        assertConsistent("encrypted.strata", encryptionKey: EncryptionTests.key)
        var encryptedConfig = Realm.Configuration(fileURL: fileURL("encrypted.strata"), objectTypes: [ZirconLedger.self, EmberCard.self])
        encryptedConfig.encryptionKey = EncryptionTests.key
        let encrypted = try Realm(configuration: encryptedConfig)
        try encrypted.writeCopy(toFile: fileURL("rekeyed.strata"), encryptionKey: EncryptionTests.otherKey)
        try assertCopy("rekeyed.strata", key: EncryptionTests.otherKey)
        try encrypted.writeCopy(toFile: fileURL("decrypted.strata"), encryptionKey: nil)
        try assertCopy("decrypted.strata", key: nil)
        XCTAssertThrowsError(try encrypted.writeCopy(toFile: fileURL("decrypted.strata"), encryptionKey: nil)) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .fileExists, "\(error)")
        }
    }

    func testAReKeyedCopyKeepsTheHistorySetting() throws {
        var sourceConfig = Realm.Configuration(fileURL: fileURL("source.strata"), objectTypes: [ZirconLedger.self, EmberCard.self])
        sourceConfig.historyRecordsOldValues = false
        let source = try Realm(configuration: sourceConfig)
        try EncryptionTests.fill(source)
        try source.writeCopy(toFile: fileURL("encrypted.strata"), encryptionKey: EncryptionTests.key)
        let copy = try StorageFile.open(path: fileURL("encrypted.strata").path,
                                        options: .init(readOnly: true, encryptionKey: try EncryptionKey([UInt8](EncryptionTests.key))))
        let txn = try copy.beginRead()
        defer { txn.abort() }
        XCTAssertFalse(try txn.meta.recordsOldValues, "the copy records no old values, as its source")
    }

    func testCompactingOnLaunchKeepsTheFileEncrypted() throws {
        try seed()
        try closingRealms {
            let realm = try Realm(configuration: config(0, [PersonV0.self]))
            try realm.write { for i in 0..<2000 { realm.add(PersonV0(value: ["firstName": "filler-\(i)", "age": i])) } }
            try realm.write { realm.delete(realm.objects(PersonV0.self).filter("age >= 100 AND firstName BEGINSWITH 'filler'")) }
        }
        let before = try FileManager.default.attributesOfItem(atPath: fileURL().path)[.size] as! Int
        var settings = config(0, [PersonV0.self])
        settings.shouldCompactOnLaunch = { total, used in used < total / 2 }
        let realm = try Realm(configuration: settings)
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: fileURL().path)[.size] as! Int, before)
        XCTAssertEqual(realm.objects(PersonV0.self).filter("lastName == 'Churchward'").count, 1)
        XCTAssertNil(try Data(contentsOf: fileURL()).firstRange(of: Data("Churchward".utf8)))
    }
}
