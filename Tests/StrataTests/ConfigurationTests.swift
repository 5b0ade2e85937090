import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// Configuration and file functions: read-only directories, in-memory Realms, compacted
/// copies, compaction on launch, `strata compact`.
final class ConfigurationTests: StrataTestCase {
    private func fill(_ realm: Realm, count: Int) throws {
        try realm.write {
            for i in 0..<count { realm.add(Note(value: ["text": String(repeating: "x", count: 2000), "rank": i])) }
        }
    }

    func testWriteCopyMakesACompactedCopyAndRefusesAnExistingFile() throws {
        let realm = try openRealm(types: [Note.self])
        try fill(realm, count: 300)
        try realm.write { realm.delete(realm.objects(Note.self).filter("rank >= 10")) }
        let copy = fileURL("copy.strata")
        try realm.writeCopy(toFile: copy)
        let original = try FileManager.default.attributesOfItem(atPath: fileURL().path)[.size] as! Int
        let compacted = try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as! Int
        XCTAssertLessThan(compacted, original)
        XCTAssertThrowsError(try realm.writeCopy(toFile: copy)) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .fileExists)
        }
        let copied = try Realm(configuration: Realm.Configuration(fileURL: copy, objectTypes: [Note.self]))
        XCTAssertEqual(copied.objects(Note.self).count, 10)
    }

    func testASeedFileIsCopiedOnlyWhenTheFileDoesNotExist() throws {
        let seed = fileURL("seed.strata")
        try closingRealms {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: seed, objectTypes: [Note.self]))
            try fill(realm, count: 3)
        }
        let target = fileURL("seeded.strata")
        var configuration = Realm.Configuration(fileURL: target, objectTypes: [Note.self], seedFilePath: seed)
        try closingRealms {
            let seeded = try Realm(configuration: configuration)
            XCTAssertEqual(seeded.objects(Note.self).count, 3)
            try seeded.write { seeded.add(Note(value: ["text": "mine", "rank": 99])) }
        }
        try closingRealms {
            XCTAssertEqual(try Realm(configuration: configuration).objects(Note.self).count, 4, "an existing file is not seeded again")
        }
        configuration.fileURL = fileURL("other.strata")
        configuration.seedFilePath = fileURL("missing.strata")
        XCTAssertThrowsError(try Realm(configuration: configuration)) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .fileNotFound, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL("other.strata").path))
    }

    func testACopyOfAFileNothingWasWrittenToOpens() throws {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: fileURL(), objectTypes: []))
        let copy = fileURL("copy.strata")
        try realm.writeCopy(toFile: copy)
        let copied = try Realm(configuration: Realm.Configuration(fileURL: copy, objectTypes: [Note.self]))
        XCTAssertEqual(copied.objects(Note.self).count, 0)
        try copied.write { copied.add(Note(value: ["text": "first"])) }
        XCTAssertEqual(copied.objects(Note.self).count, 1)
    }

    func testShouldCompactOnLaunchCompactsWhenNoOneHasTheFileOpen() throws {
        try closingRealms {
            let realm = try openRealm(types: [Note.self])
            try fill(realm, count: 300)
            try realm.write { realm.deleteAll() }
        }
        let before = try FileManager.default.attributesOfItem(atPath: fileURL().path)[.size] as! Int
        let asked = Counter()
        var settings = configuration(types: [Note.self])
        settings.shouldCompactOnLaunch = { total, used in
            asked.add()
            return used < total / 2
        }
        let config = settings
        let realm = try Realm(configuration: config)
        XCTAssertEqual(asked.value, 1)
        let after = try FileManager.default.attributesOfItem(atPath: fileURL().path)[.size] as! Int
        XCTAssertLessThan(after, before)
        try fill(realm, count: 2)
        XCTAssertEqual(realm.objects(Note.self).count, 2)
        let done = DispatchSemaphore(value: 0)
        Thread {   // open in this process: not asked again
            _ = try? Realm(configuration: config)
            done.signal()
        }.start()
        done.wait()
        XCTAssertEqual(asked.value, 1)
    }

    func testDeleteFilesRefusesWhileOpenInThisProcess() throws {
        let realm = try openRealm(types: [Note.self])
        XCTAssertThrowsError(try Realm.deleteFiles(for: configuration())) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .alreadyOpen)
        }
        _ = realm
    }

    func testInMemoryRealmsAreSharedByIdentifierAndGoneWhenClosed() throws {
        let config = Realm.Configuration(inMemoryIdentifier: "test-\(UUID().uuidString)", objectTypes: [Note.self])
        var path = ""
        try closingRealms {
            let realm = try Realm(configuration: config)
            path = realm.core.path
            XCTAssertTrue(FileManager.default.fileExists(atPath: path))
            XCTAssertFalse(path.hasPrefix(directory.path))
            try realm.write { realm.add(Note(value: ["text": "in memory"])) }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "gone with the last instance")
        XCTAssertFalse(Realm.fileExists(for: config))
        let fresh = try Realm(configuration: config)
        XCTAssertEqual(fresh.objects(Note.self).count, 0)
    }

    func testAnInMemoryRealmIsSharedByEveryInstanceWithItsIdentifier() throws {
        let config = Realm.Configuration(inMemoryIdentifier: "shared-\(UUID().uuidString)", objectTypes: [Note.self])
        let realm = try Realm(configuration: config)
        try realm.write { realm.add(Note(value: ["text": "in memory"])) }
        let seen = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            if let other = try? Realm(configuration: config) { seen.old = other.objects(Note.self).map(\.text) }
            done.signal()
        }.start()
        done.wait()
        XCTAssertEqual(seen.old, ["in memory"])
        let elsewhere = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "other-\(UUID().uuidString)", objectTypes: [Note.self]))
        XCTAssertEqual(elsewhere.objects(Note.self).count, 0)
    }

    func testReadOnlyRealmOpensInAReadOnlyDirectory() throws {
        if getuid() == 0 { throw XCTSkip("root ignores directory permissions") }
        try closingRealms {
            let realm = try openRealm(types: [Note.self])
            try realm.write { realm.add(Note(value: ["text": "kept"])) }
        }
        try? FileManager.default.removeItem(atPath: fileURL().path + "-lock")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path) }
        var config = configuration(types: [Note.self])
        config.readOnly = true
        let realm = try Realm(configuration: config)
        XCTAssertEqual(realm.objects(Note.self).first?.text, "kept")
        XCTAssertThrowsError(try realm.write { realm.add(Note()) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .fileAccess)
        }
    }

    func testReadOnlyRealmCannotMigrate() throws {
        try closingRealms { _ = try openRealm(types: [Note.self]) }
        var config = configuration(types: [Note.self])
        config.readOnly = true
        config.schemaVersion = 1
        XCTAssertThrowsError(try Realm(configuration: config)) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("read-only"), "\(error)")
        }
    }

    /// RealmConfigurationTests.swift's mutually exclusive settings.
    func testDeleteIfMigrationNeededWithReadOnlyIsRefused() throws {
        try closingRealms { _ = try openRealm(types: [Note.self]) }
        var configuration = configuration(types: [Note.self])
        configuration.readOnly = true
        configuration.deleteRealmIfMigrationNeeded = true
        XCTAssertThrowsError(try Realm(configuration: configuration)) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("Cannot set `deleteRealmIfMigrationNeeded` when `readOnly` is set."), "\(error)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: fileURL().path), "nothing was deleted")
    }

    /// RealmTests.swift's `testOpeningInvalidPathThrows`.
    func testAPathUnderAFileThatIsNotADirectoryFails() throws {
        XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: "/dev/null/foo")))) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .fileOperationFailed)
            XCTAssertEqual((error as? Realm.Error)?.localizedDescription,
                           "Failed to open file at path '/dev/null/foo.lock': parent path is not a directory", "RealmSwift's words")
            XCTAssertEqual((error as? Realm.Error)?.fileURL?.path, "/dev/null/foo.lock")
        }
        XCTAssertThrowsError(try Realm(fileURL: directory.appendingPathComponent("missing/test.strata"))) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .fileNotFound, "a missing directory is still not found")
        }
    }

    func testSchemaVersionAtURL() throws {
        XCTAssertThrowsError(try schemaVersionAtURL(fileURL())) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidDatabase, "as RealmSwift: not initialized")
            XCTAssertEqual((error as? Realm.Error)?.localizedDescription, "Realm at path '\(self.fileURL().path)' has not been initialized.")
        }
        XCTAssertThrowsError(try schemaVersionAtURL(URL(fileURLWithPath: "/dev/null"))) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .fileAccess, "\(error)")
        }
        try closingRealms {
            _ = try Realm(configuration: Realm.Configuration(fileURL: fileURL(), schemaVersion: 7, objectTypes: [Note.self]))
        }
        XCTAssertEqual(try schemaVersionAtURL(fileURL()), 7)
    }

    func testCompactCommandWritesACopy() throws {
        try closingRealms {
            let realm = try openRealm(types: [Note.self])
            try fill(realm, count: 50)
        }
        let out = fileURL("out.strata")
        let run = try WorkerProcess(BuiltProducts.executable("strata"), ["compact", fileURL().path, out.path])
        try run.waitForSuccess()
        XCTAssertTrue(run.lines.first?.contains("bytes") ?? false, run.transcript)
        let copy = try Realm(configuration: Realm.Configuration(fileURL: out, objectTypes: [Note.self]))
        XCTAssertEqual(copy.objects(Note.self).count, 50)
        let again = try WorkerProcess(BuiltProducts.executable("strata"), ["compact", fileURL().path, out.path])
        try again.waitForExit()
        XCTAssertEqual(again.process.terminationStatus, 1)
        XCTAssertTrue(again.errorOutput.contains("exists"), again.transcript)
    }
}
