import Foundation
import StrataStorage
import StrataTestSupport
import XCTest
import Strata

/// The lock files beside a database (`FILE-lock`, `FILE.lock`): never followed through a
/// symbolic link, refused (naming them) when not regular files, and not left behind by a
/// look at a file that is not a database.
final class LockFileTests: StrataTestCase {
    private var path: String { fileURL().path }

    private func assertOpenRefused(naming lockFile: String, _ reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Realm(configuration: configuration(types: [StressItem.self])), file: file, line: line) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .incompatibleLockFile, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains("'\(lockFile)': \(reason)"), "\(error)", file: file, line: line)
        }
    }

    func testASymlinkedLockFileIsRefusedAndItsTargetIsUntouched() throws {
        let victim = fileURL("victim.txt")
        try Data("precious".utf8).write(to: victim)
        for lockFile in [path + "-lock", path + ".lock"] {
            try closingRealms { _ = try openRealm(types: [StressItem.self]) }
            try FileManager.default.removeItem(atPath: lockFile)
            try FileManager.default.createSymbolicLink(atPath: lockFile, withDestinationPath: victim.path)
            assertOpenRefused(naming: lockFile, "it is a symbolic link")
            XCTAssertEqual(try Data(contentsOf: victim), Data("precious".utf8), "\(lockFile) was not written through")
            try FileManager.default.removeItem(atPath: lockFile)
        }
    }

    func testALockFileThatIsNotARegularFileIsRefusedByName() throws {
        try closingRealms { _ = try openRealm(types: [StressItem.self]) }
        for lockFile in [path + "-lock", path + ".lock"] {
            try FileManager.default.removeItem(atPath: lockFile)
            XCTAssertEqual(mkfifo(lockFile, 0o644), 0)
            assertOpenRefused(naming: lockFile, "it is not a regular file")
            try FileManager.default.removeItem(atPath: lockFile)
            try closingRealms { _ = try openRealm(types: [StressItem.self]) }
        }
    }

    func testInfoOnAFileThatIsNotADatabaseLeavesNoLockFile() throws {
        try Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }).write(to: fileURL())
        let run = try strata(["info", path])
        XCTAssertEqual(run.process.terminationStatus, 1, run.transcript)
        XCTAssertTrue(run.errorOutput.contains("not a Strata database"), run.transcript)
        for lockFile in [path + "-lock", path + ".lock"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: lockFile), "\(lockFile) left behind")
        }
    }

    /// Whether another process uses a file is read from LMDB's lock file: when that cannot be
    /// read, deleting the file is refused rather than taken as "nobody".
    func testDeletingIsRefusedWhenTheLockFileCannotBeRead() throws {
        try closingRealms { _ = try openRealm(types: [StressItem.self]) }
        try FileManager.default.removeItem(atPath: path + "-lock")
        try FileManager.default.createSymbolicLink(atPath: path + "-lock", withDestinationPath: fileURL("elsewhere").path)
        XCTAssertThrowsError(try Realm.deleteFiles(for: configuration())) { error in
            XCTAssertTrue("\(error)".contains("Cannot tell whether another process has '\(path)' open"), "\(error)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "nothing was deleted")
        try FileManager.default.removeItem(atPath: path + "-lock")
    }

    /// The size of a file that cannot be read is an error, not the bytes in use.
    func testTheSizeOfAFileThatVanishedIsAnError() throws {
        let file = try StorageFile.open(path: path, options: .init())
        try FileManager.default.removeItem(atPath: path)
        XCTAssertThrowsError(try file.sizes()) { error in
            XCTAssertTrue("\(error)".contains("Cannot read the size of '\(path)'"), "\(error)")
        }
    }
}
