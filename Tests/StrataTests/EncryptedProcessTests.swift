import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// Two processes sharing one encrypted file: each sees the other's commits, and an observer
/// in one is told of the other's writes.
final class EncryptedProcessTests: StrataTestCase {
    private var path: String { fileURL().path }

    private func open() throws -> Realm {
        var config = configuration(types: [StressItem.self])
        config.encryptionKey = EncryptionTests.key
        return try Realm(configuration: config)
    }

    /// Starts a `strata-stress worker` with the test key in its environment (never in its
    /// arguments).
    private func worker(_ arguments: [String], key: Data = EncryptionTests.key) throws -> WorkerProcess {
        setenv("STRATA_KEY", key.map { String(format: "%02x", $0) }.joined(), 1)
        defer { unsetenv("STRATA_KEY") }
        return try WorkerProcess.stress(arguments)
    }

    func testAnObserverInAnotherProcessIsToldOfThisProcessCommits() throws {
        let realm = try open()
        let observer = try worker(["worker", "observe", "--file", path])
        defer { observer.kill() }
        try observer.expectLine(startingWith: "READY")
        try realm.write { realm.add(StressItem(value: ["id": 1, "tag": "tag-cinnabar-7707", "value": 10])) }
        let line = try observer.expectLine(startingWith: "CHANGE")
        XCTAssertEqual(field("insertions", in: line), "1")
        XCTAssertEqual(field("version", in: line), "\(realm.version)")
        try realm.write { realm.objects(StressItem.self).first!.value = 42 }
        XCTAssertEqual(field("modifications", in: try observer.expectLine(startingWith: "CHANGE")), "1")
        XCTAssertNil(try Data(contentsOf: fileURL()).firstRange(of: Data("tag-cinnabar-7707".utf8)))
    }

    func testThisProcessSeesAnotherProcessCommits() throws {
        let realm = try open()
        try realm.write { realm.add(StressItem(value: ["id": 1, "tag": "here", "value": 1])) }
        let writer = try worker(["worker", "serve", "--file", path])
        defer { writer.kill() }
        XCTAssertEqual(field("version", in: try writer.expectLine(startingWith: "READY")), "\(realm.version)")
        writer.send("insert 101 3 tag-vermeil-2201")
        try writer.expectLine(startingWith: "OK")
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(realm.objects(StressItem.self).map(\.id).sorted(), [1, 101, 102, 103])
        XCTAssertEqual(realm.object(ofType: StressItem.self, forPrimaryKey: 102)?.tag, "tag-vermeil-2201")
        XCTAssertNil(try Data(contentsOf: fileURL()).firstRange(of: Data("tag-vermeil-2201".utf8)))
    }

    func testAProcessWithAnotherKeyIsRefused() throws {
        let realm = try open()
        try realm.write { realm.add(StressItem(value: ["id": 1])) }
        let intruder = try worker(["worker", "read", "--file", path], key: EncryptionTests.otherKey)
        defer { intruder.kill() }
        XCTAssertThrowsError(try intruder.waitForSuccess(), "the worker fails")
        XCTAssertTrue(intruder.errorOutput.contains("wrong encryption key"), intruder.errorOutput)
    }
}
