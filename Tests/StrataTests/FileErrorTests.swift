import Foundation
import XCTest
@testable import Strata

final class FileErrorTests: StrataTestCase {
    private func assertOpenFails(_ configuration: Realm.Configuration, _ code: Realm.Error.Code, mentioning text: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Realm(configuration: configuration), file: file, line: line) { error in
            guard let error = error as? Realm.Error else { return XCTFail("not a Realm.Error: \(error)", file: file, line: line) }
            XCTAssertEqual(error.code, code, error.localizedDescription, file: file, line: line)
            XCTAssertTrue(error.localizedDescription.contains(text), error.localizedDescription, file: file, line: line)
        }
    }

    func testRandomBytesAreNotAStrataDatabase() throws {
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2654435761 >> 7) }
        try Data(bytes).write(to: fileURL())
        assertOpenFails(configuration(types: [Dog.self]), .invalidDatabase, mentioning: "not a Strata database")
    }

    func testADirectoryIsNotADatabaseFile() throws {
        try FileManager.default.createDirectory(at: fileURL("dir.strata"), withIntermediateDirectories: false)
        assertOpenFails(configuration("dir.strata"), .fileAccess, mentioning: "is a directory")
    }

    func testMissingDirectoryIsFileNotFoundAndIsNotCreated() throws {
        let config = Realm.Configuration(fileURL: directory.appendingPathComponent("missing/x.strata"))
        assertOpenFails(config, .fileNotFound, mentioning: "does not exist")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing").path))
        do {
            _ = try Realm(configuration: config)
        } catch Realm.Error.fileNotFound {
            // `catch Realm.Error.fileNotFound` matches, as in RealmSwift.
        } catch {
            XCTFail("expected fileNotFound, got \(error)")
        }
    }

    func testZeroLengthFileOpensAsANewDatabase() throws {
        FileManager.default.createFile(atPath: fileURL().path, contents: Data())
        let realm = try openRealm(types: [Dog.self])
        try realm.write { realm.add(Dog(value: ["id": 1])) }
        XCTAssertEqual(realm.objects(Dog.self).count, 1)
    }

    func testZeroLengthFileCannotBeOpenedReadOnly() throws {
        FileManager.default.createFile(atPath: fileURL().path, contents: Data())
        var config = configuration()
        config.readOnly = true
        assertOpenFails(config, .invalidDatabase, mentioning: "empty")
    }

    func testMissingFileCannotBeOpenedReadOnly() {
        var config = configuration()
        config.readOnly = true
        assertOpenFails(config, .fileNotFound, mentioning: "does not exist")
    }

    func testTruncatedFileIsRefused() throws {
        try closingRealms {
            let realm = try openRealm(types: [Note.self])
            try realm.write { for i in 0..<3000 { realm.add(Note(value: ["text": String(repeating: "x", count: 200), "rank": i])) } }
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: fileURL().path)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: fileURL())
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        assertOpenFails(configuration("test.strata"), .invalidDatabase, mentioning: "truncated")
    }

    func testReadOnlyFileWithoutPermissionIsRefused() throws {
        try closingRealms { _ = try openRealm(types: [Dog.self]) }
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: fileURL().path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: fileURL().path) }
        if getuid() == 0 { throw XCTSkip("root ignores file permissions") }
        assertOpenFails(configuration(), .filePermissionDenied, mentioning: "permission denied")
    }

    func testWriteOnAReadOnlyRealmThrowsAndChangesNothing() throws {
        try closingRealms {
            let realm = try openRealm(types: [Dog.self])
            try realm.write { realm.add(Dog(value: ["id": 1, "name": "kept"])) }
        }
        var config = configuration()
        config.readOnly = true
        let readOnly = try Realm(configuration: config)
        XCTAssertEqual(readOnly.objects(Dog.self).count, 1)
        XCTAssertThrowsError(try readOnly.write { readOnly.add(Dog(value: ["id": 2])) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .fileAccess)
        }
        XCTAssertEqual(readOnly.objects(Dog.self).count, 1)
    }

    func testNewerFileFormatIsRefused() throws {
        try closingRealms {
            let realm = try openRealm(types: [Dog.self])
            try realm.write { realm.add(Dog(value: ["id": 1])) }
        }
        try StorageFixtures.setFormatVersion(99, path: fileURL().path)
        assertOpenFails(configuration(), .unsupportedFileFormatVersion, mentioning: "format 99")
    }

    func testDeleteFilesRemovesTheDatabaseAndItsLockFile() throws {
        try closingRealms { _ = try openRealm(types: [Dog.self]) }
        XCTAssertTrue(Realm.fileExists(for: configuration()))
        XCTAssertTrue(try Realm.deleteFiles(for: configuration()))
        XCTAssertFalse(Realm.fileExists(for: configuration()))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL().path + "-lock"))
    }
}
