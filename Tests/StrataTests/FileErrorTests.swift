import Foundation
import XCTest
@testable import Strata

final class FileErrorTests: StrataTestCase {
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

    func testAnOpenErrorNamesTheFileAsTheConfigurationSpellsIt() throws {
        let spelled = URL(fileURLWithPath: directory.path + "//sub/../tiny.strata")
        XCTAssertTrue(FileManager.default.createFile(atPath: fileURL("tiny.strata").path, contents: Data([1])))
        do {
            _ = try Realm(configuration: Realm.Configuration(fileURL: spelled, readOnly: true))
            XCTFail("a 1-byte file opened")
        } catch let error as Realm.Error {
            XCTAssertEqual(error.code, .invalidDatabase)
            XCTAssertEqual(error.fileURL?.path, spelled.path)
            XCTAssertTrue(error.localizedDescription.contains("'\(spelled.path)'"), error.localizedDescription)
        }
    }

    func testZeroLengthFileOpensAsANewDatabase() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: fileURL().path, contents: Data()))
        let realm = try openRealm(types: [Dog.self])
        try realm.write { realm.add(Dog(value: ["id": 1])) }
        XCTAssertEqual(realm.objects(Dog.self).count, 1)
    }

    func testZeroLengthFileCannotBeOpenedReadOnly() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: fileURL().path, contents: Data()))
        var config = configuration()
        config.readOnly = true
        assertOpenFails(config, .invalidDatabase, mentioning: "empty")
    }

    func testMissingFileCannotBeOpenedReadOnly() {
        var config = configuration()
        config.readOnly = true
        assertOpenFails(config, .fileNotFound, mentioning: "Failed to open Realm file at path '\(fileURL().path)': No such file or directory")
    }

    func testAFileTooSmallToHoldItsMetaPagesIsRefused() throws {
        try Data([0x2a]).write(to: fileURL())
        assertOpenFails(configuration(types: [Dog.self]), .invalidDatabase,
                        mentioning: "Failed to open Realm file at path '\(fileURL().path)': file is non-empty but too small (1 bytes) to be a valid Realm.")
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

    /// Writes one note to `test.strata`, closes it, and changes the file's bytes with `damage`.
    private func writeOneNoteThenDamage(_ damage: (inout Data) -> Void) throws {
        try closingRealms {
            let realm = try openRealm(types: [Note.self])
            try realm.write { realm.add(Note(value: ["text": "kept", "rank": 1])) }
        }
        var bytes = try Data(contentsOf: fileURL())
        damage(&bytes)
        try bytes.write(to: fileURL())
    }

    /// A bit flipped high in a meta page's last page number names a file larger than any:
    /// the open says it is truncated rather than overflowing its arithmetic.
    func testAMetaPageNamingALastPagePastAnyFileIsRefused() throws {
        try writeOneNoteThenDamage { bytes in
            for meta in 0..<2 {
                // LMDB's meta page keeps its last page number at byte 136.
                let lastPage = UInt64(0x0100_0000_0000_003A).littleEndian
                withUnsafeBytes(of: lastPage) { bytes.replaceSubrange((meta * 4096 + 136)..<(meta * 4096 + 144), with: $0) }
            }
        }
        assertOpenFails(configuration("test.strata"), .invalidDatabase, mentioning: "truncated")
    }

    /// A bit flipped at the top of the newer meta page's transaction id names a transaction
    /// past any LMDB counts (and makes that page the newest): refused at open.
    func testAMetaPageNamingATransactionPastAnyCountIsRefused() throws {
        // LMDB's meta page keeps its transaction id at byte 144; the top byte is byte 151.
        try writeOneNoteThenDamage { $0[151] ^= 0x80 }
        assertOpenFails(configuration("test.strata"), .invalidDatabase, mentioning: "the file is damaged: its newest meta page names transaction")
    }

    /// A meta page whose page size a flipped bit zeroed (LMDB keeps it at byte 40, in the
    /// free database's record) is refused before LMDB divides by it.
    func testAMetaPageNamingAPageSizeOfZeroIsRefused() throws {
        try writeOneNoteThenDamage { $0[41] = 0 }
        assertOpenFails(configuration("test.strata"), .invalidDatabase, mentioning: "its meta page 0 names a page size of 0 bytes")
    }

    /// A write into a page whose free space is damaged ends the process with the damage's
    /// message, not LMDB's abort: the page's check finds it when the write's lookups read the
    /// page, before LMDB's own assertion inside the write would (which stops the process the
    /// same way: the write transaction cannot be ended safely).
    func testAWriteIntoADamagedPageStopsSayingTheFileIsDamaged() throws {
        try assertProbeTraps("testWriteIntoAPageWhoseFreeSpaceIsDamaged", saying: "the file is damaged (MDB_CORRUPTED")
    }

    /// A write checks the pages of the file it will change before LMDB copies them: a branch
    /// page whose header claims more bytes than a page holds (which reads never look at)
    /// stops the write saying the file is damaged, where LMDB would copy past the end of the
    /// page it allocated and corrupt the process's memory.
    func testAWriteThroughABranchPageWhoseHeaderIsDamagedStopsBeforeLMDBCopiesIt() throws {
        try assertProbeTraps("testWriteThroughABranchPageWhoseHeaderClaimsMoreThanAPage", saying: "the file is damaged (MDB_CORRUPTED")
    }

    func testAReadOfADamagedRowTrapsWithTheStorageErrorRatherThanAnsweringDeleted() throws {
        try assertProbeTraps("testAskIfAnObjectWithADamagedRowIsInvalidated", saying: "is damaged: the row of 'Ship' object")
    }

    /// A link read from a row names an object that exists in the same snapshot, or the file is
    /// damaged: deleting an object clears the links to it.
    func testALinkToAMissingRowFollowedInTheSameSnapshotIsDamageEvenWithNoBacklink() throws {
        try assertProbeTraps("testFollowALinkToAnObjectWhoseRowAndBacklinksAreGone", saying: "is damaged: the row of 'Ship' object")
    }

    /// A backlink names an object that links here; deleting removes an object's backlinks in
    /// the same write, so one naming a missing row is damage.
    func testDeletingAnObjectWhoseBacklinkNamesAMissingRowIsDamage() throws {
        try assertProbeTraps("testDeleteAnObjectWhoseBacklinkNamesAMissingRow", saying: "is damaged: a backlink names 'Sailor' object")
    }

    /// An object deleted after its accessor was handed out still reads as deleted.
    func testAnObjectDeletedAfterItWasReachedReadsAsDeleted() throws {
        try assertProbeTraps("testReadAShipDeletedAfterItsSailorLedToIt", saying: "Object has been deleted or invalidated")
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

final class SharedFileTests: StrataTestCase {
    func testAReadOnlyRealmSharesTheFileWithAReadWriteOneInTheSameProcess() throws {
        let writer = try openRealm(types: [Dog.self])
        try writer.write { writer.add(Dog(value: ["id": 1])) }
        var config = configuration()
        config.readOnly = true
        let reader = try Realm(configuration: config)
        XCTAssertEqual(reader.objects(Dog.self).count, 1)
        XCTAssertThrowsError(try reader.write { reader.add(Dog(value: ["id": 2])) })
        try writer.write { writer.add(Dog(value: ["id": 3])) }
        reader.refresh()
        XCTAssertEqual(reader.objects(Dog.self).count, 2)
    }

    func testAFileOpenedReadOnlyFirstCannotBeWrittenInTheSameProcess() throws {
        try closingRealms { _ = try openRealm(types: [Dog.self]) }
        var config = configuration()
        config.readOnly = true
        let reader = try Realm(configuration: config)
        XCTAssertThrowsError(try openRealm(types: [Dog.self])) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .fileAccess)
            XCTAssertTrue("\(error)".contains("already open read-only"), "\(error)")
        }
        _ = reader
    }

    func testASymbolicLinkOpensTheSameDatabase() throws {
        let realm = try openRealm(types: [Dog.self])
        try realm.write { realm.add(Dog(value: ["id": 1])) }
        try FileManager.default.createSymbolicLink(at: fileURL("link.strata"), withDestinationURL: fileURL())
        let linked = try openRealm("link.strata", types: [Dog.self])
        try linked.write { linked.add(Dog(value: ["id": 2])) }
        realm.refresh()
        XCTAssertEqual(realm.objects(Dog.self).count, 2)
    }

    func testOverlongStringPrimaryKeysAreRefused() throws {
        let realm = try openRealm(types: [Tag.self])
        let long = String(repeating: "k", count: 600)
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Tag.self, value: ["name": long]) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
        }
        try realm.write { realm.create(Tag.self, value: ["name": String(repeating: "k", count: 500)]) }
        XCTAssertEqual(realm.objects(Tag.self).count, 1)
    }
}
