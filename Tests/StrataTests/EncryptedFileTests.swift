import Foundation
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

    func testACopyWithTheSameKeyOpensWithItAndACopyWithAnotherIsRefused() throws {
        try seed()
        let realm = try Realm(configuration: config(0, [PersonV0.self]))
        let copy = directory.appendingPathComponent("copy.strata")
        try realm.writeCopy(toFile: copy, encryptionKey: EncryptionTests.key)
        var copyConfig = config(0, [PersonV0.self])
        copyConfig.fileURL = copy
        XCTAssertEqual(try Realm(configuration: copyConfig).objects(PersonV0.self).count, 2)
        for key in [nil, EncryptionTests.otherKey] {
            XCTAssertThrowsError(try realm.writeCopy(toFile: directory.appendingPathComponent("other.strata"), encryptionKey: key)) { error in
                XCTAssertEqual((error as? Realm.Error)?.code, .fail, "\(error)")
                XCTAssertTrue("\(error)".contains("not supported yet"), "\(error)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("other.strata").path))
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
