import Foundation
import StrataTestSupport
import XCTest
import Strata

/// Files shared with other Unix users: their permissions, and what a user who may only read
/// them can and cannot do to the processes that write them. Each test creates a second user
/// (so they run as root only, as in CI) and runs `strata-stress` workers as that user.
final class OtherUserTests: StrataTestCase {
    private var path: String { fileURL().path }
    private var lockFiles: [String] { [path, path + "-lock", path + ".lock"] }

    private func insert(_ realm: Realm, _ ids: ClosedRange<Int>, tag: String = "test") throws {
        for id in ids {
            try realm.write { realm.add(StressItem(value: ["id": id, "tag": tag, "value": id * 10])) }
        }
    }

    private func permissions(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// The three files are created 0666 masked by the umask, as SQLite and LMDB create theirs.
    func testFilesAreCreatedWithTheModeTheUmaskAllows() throws {
        for (mask, expected) in [(0o002, 0o664), (0o022, 0o644), (0o077, 0o600)] {
            let old = umask(mode_t(mask))
            defer { umask(old) }
            let name = "mode-\(String(mask, radix: 8)).strata"
            try closingRealms {
                let realm = try openRealm(name, types: [StressItem.self])
                try insert(realm, 1...1)
            }
            for file in [fileURL(name).path, fileURL(name).path + "-lock", fileURL(name).path + ".lock"] {
                XCTAssertEqual(try permissions(file), expected, "\(file) under umask \(String(mask, radix: 8))")
            }
        }
    }

    /// A user who may read `FILE.lock` can lock it shared; that no longer stalls anyone: a
    /// running writer keeps committing, and a new opener gives up after a bounded wait with
    /// `.incompatibleLockFile` naming the holder.
    func testAReaderLockingTheCoordinationFileStallsNoWriterAndNoOpenerForever() throws {
        let other = try OtherUser()
        let realm = try openRealm(types: [StressItem.self])
        try insert(realm, 1...3)
        let holder = try other.stress(["worker", "lock-byte", "--path", path + ".lock", "--byte", "0"])
        let pid = try XCTUnwrap(field("pid", in: holder.expectLine(startingWith: "LOCKED")))
        // Each write may try to free the slots of dead processes (at most once a second):
        // with the registry lock taken by the reader, it skips that instead of waiting.
        for round in 0..<3 {
            try insert(realm, (10 + round)...(10 + round))
            Thread.sleep(forTimeInterval: 0.6)
        }
        XCTAssertEqual(realm.objects(StressItem.self).count, 6)
        let opener = try WorkerProcess.stress(["worker", "read", "--file", path])
        try opener.waitForExit()
        XCTAssertNotEqual(opener.process.terminationStatus, 0, opener.transcript)
        XCTAssertTrue(opener.errorOutput.contains("is locked by process \(pid)"), opener.transcript)
        XCTAssertTrue(opener.errorOutput.contains(path + ".lock"), opener.transcript)
        holder.kill()
        try holder.waitForExit()
        let reader = try WorkerProcess.stress(["worker", "read", "--file", path])
        XCTAssertEqual(field("count", in: try reader.expectLine(startingWith: "STATE")), "6")
    }

    /// LMDB's own lock file, locked shared by a user who may read it, stalls no opener either.
    func testAReaderLockingLMDBsLockFileStallsNoOpener() throws {
        let other = try OtherUser()
        try closingRealms { try insert(try openRealm(types: [StressItem.self]), 1...2) }
        let holder = try other.stress(["worker", "lock-byte", "--path", path + "-lock", "--byte", "0"])
        _ = try holder.expectLine(startingWith: "LOCKED")
        let writer = try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "3", "--count", "2"])
        _ = try writer.expectLine(startingWith: "COMMIT id=3")
        _ = try writer.expectLine(startingWith: "COMMIT id=4")
        XCTAssertEqual(field("count", in: try writer.expectLine(startingWith: "DONE")), "2")
        try writer.waitForSuccess()
    }

    /// A user who may only read the files cannot register its snapshots in LMDB's lock file,
    /// so writers could reuse the pages it reads: a read-only open says so instead of reading
    /// without it.
    func testAUserWhoMayOnlyReadIsToldWhyAReadOnlyOpenNeedsTheLockFile() throws {
        let other = try OtherUser()
        let old = umask(0o022)
        defer { umask(old) }
        let realm = try openRealm(types: [StressItem.self])
        try insert(realm, 1...5)
        let reader = try other.stress(["worker", "hold-read", "--file", path])
        try reader.waitForExit()
        XCTAssertEqual(reader.process.terminationStatus, 1, reader.transcript)
        XCTAssertTrue(reader.errorOutput.contains("may not write its lock file '\(path)-lock'"), reader.transcript)
    }

    /// Starts a read-only reader as `other`, rewrites every object 20 times from this process
    /// (a writer reuses the pages of old versions no snapshot holds), and checks the reader's
    /// snapshot still reads as it did, then moves to the newest.
    private func assertReadOnlySnapshotHolds(_ realm: Realm, as other: OtherUser, file: StaticString = #filePath, line: UInt = #line) throws {
        let reader = try other.stress(["worker", "hold-read", "--file", path])
        let opened = try reader.expectLine(startingWith: "OPEN")
        XCTAssertEqual(field("count", in: opened), "50", reader.transcript, file: file, line: line)
        for round in 0..<20 {
            try realm.write {
                realm.delete(realm.objects(StressItem.self))
                for id in 1...50 { realm.add(StressItem(value: ["id": id + round * 100, "tag": "round\(round)", "value": id])) }
            }
        }
        reader.send("check")
        let held = try reader.expectLine(startingWith: "STATE")
        XCTAssertEqual(held, String(opened.dropFirst("OPEN ".count)), "the held snapshot reads as it did", file: file, line: line)
        reader.send("refresh")
        let newest = try reader.expectLine(startingWith: "STATE")
        XCTAssertEqual(field("tags", in: newest), "round19:50", reader.transcript, file: file, line: line)
    }

    /// A user of the files' group (umask 002) opens them read-only while this process writes,
    /// and its snapshot stays what it was while the writer deletes and rewrites every object.
    func testAGroupReaderKeepsACorrectSnapshotWhileTheOwnerRewritesTheFile() throws {
        let other = try OtherUser()
        let old = umask(0o002)
        defer { umask(old) }
        let realm = try openRealm(types: [StressItem.self])
        try insert(realm, 1...50, tag: "first")
        other.shareGroup(of: lockFiles)
        try assertReadOnlySnapshotHolds(realm, as: other)
    }

    /// With `lockFilePermissions` 0o666, a database created 0644 is read, read-only, by a user
    /// who may only read it, with snapshots as exact as the owner's.
    func testAUserWhoMayOnlyReadTheDatabaseReadsItWhenTheLockFilesAreShared() throws {
        let other = try OtherUser()
        let old = umask(0o022)
        defer { umask(old) }
        var configuration = configuration(types: [StressItem.self])
        configuration.lockFilePermissions = 0o666
        let realm = try Realm(configuration: configuration)
        try insert(realm, 1...50, tag: "first")
        XCTAssertEqual(try permissions(path), 0o644)
        XCTAssertEqual(try permissions(path + "-lock"), 0o666)
        XCTAssertEqual(try permissions(path + ".lock"), 0o666)
        try assertReadOnlySnapshotHolds(realm, as: other)
    }
}
