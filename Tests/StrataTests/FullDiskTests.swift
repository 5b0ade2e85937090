import Foundation
import StrataTestSupport
import XCTest
import Strata

/// A file system that fills up: a small tmpfs mounted for each test (which needs root: the
/// tests skip otherwise, saying so).
final class FullDiskTests: StrataTestCase {
    private var mountPoint: URL!
    private var path: String { mountPoint.appendingPathComponent("test.strata").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard getuid() == 0 else { throw XCTSkip("needs root to mount a small tmpfs (CI runs as root)") }
        mountPoint = directory.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: false)
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint.path])
    }

    override func tearDownWithError() throws {
        if let mountPoint { try? Self.run("/bin/umount", [mountPoint.path]) }
        try super.tearDownWithError()
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        guard try runSystemTool(tool, arguments) == 0 else { throw XCTSkip("\(tool) \(arguments.joined(separator: " ")) failed: cannot mount here") }
    }

    /// Fills the file system with a file `name`, leaving nothing free.
    private func fill(_ name: String) {
        let fd = open(mountPoint.appendingPathComponent(name).path, O_WRONLY | O_CREAT, 0o644)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 1, count: 4096)
        while write(fd, chunk, chunk.count) > 0 {}
    }

    private func configuration() -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [StressItem.self])
    }

    func testACommitThatRunsOutOfSpaceSaysSoAndKeepsEarlierCommits() throws {
        let realm = try Realm(configuration: configuration())
        try realm.write { realm.add(StressItem(value: ["id": 1, "tag": "kept", "value": 10])) }
        fill("filler")
        XCTAssertThrowsError(try realm.write {
            for id in 2...2_000 { realm.add(StressItem(value: ["id": id, "tag": String(repeating: "x", count: 500), "value": id])) }
        }) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .outOfDiskSpace, "\(error)")
            XCTAssertTrue("\(error)".contains("no space left on device"), "\(error)")
        }
        XCTAssertEqual(realm.objects(StressItem.self).map(\.id), [1])
        try FileManager.default.removeItem(at: mountPoint.appendingPathComponent("filler"))
        try realm.write { realm.add(StressItem(value: ["id": 2, "tag": "after", "value": 20])) }
        XCTAssertEqual(realm.objects(StressItem.self).map(\.id).sorted(), [1, 2])
    }

    /// Opening on a full file system where a lock file must be created: `.outOfDiskSpace`
    /// from a process that lives on (before, LMDB's or Strata's writes through the mapping of a
    /// lock file with no blocks behind it killed it with SIGBUS).
    func testOpeningOnAFullFileSystemIsOutOfDiskSpaceNotACrash() throws {
        // Written by another process, so that this one never has the file open.
        try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "1", "--count", "1"]).waitForSuccess()
        for missing in [path + "-lock", path + ".lock"] {
            try FileManager.default.removeItem(atPath: missing)
            fill("filler")
            let opener = try WorkerProcess.stress(["worker", "read", "--file", path])
            try opener.waitForExit()
            XCTAssertEqual(opener.process.terminationReason, .exit, "no signal: \(opener.transcript)")
            XCTAssertEqual(opener.process.terminationStatus, 1, opener.transcript)
            XCTAssertTrue(opener.errorOutput.contains("no space left on device"), opener.transcript)
            XCTAssertTrue(opener.errorOutput.contains(missing), opener.transcript)
            try FileManager.default.removeItem(at: mountPoint.appendingPathComponent("filler"))
            let reader = try WorkerProcess.stress(["worker", "read", "--file", path])
            XCTAssertEqual(field("count", in: try reader.expectLine(startingWith: "STATE")), "1", "opens once space is freed")
            // Gone before the next round, so that the blocks of a lock file removed while it
            // had it open are free before the file system is filled again.
            try reader.waitForSuccess()
        }
    }
}
