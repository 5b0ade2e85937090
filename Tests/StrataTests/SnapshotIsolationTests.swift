import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// RealmSwift's snapshot rules after a write: a Realm stays at the version it committed until
/// it refreshes, and its `Realm.observe` blocks run inside the commit (RealmTests.swift's
/// `testRefresh`, `testAutorefresh` and `testNotificationBlocksAreCalledSynchronouslyOnCommit`).
final class SnapshotIsolationTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Pet.self]) }

    /// Adds a pet from another thread's instance of `realm`'s file.
    private func addFromAnotherThread(_ realm: Realm, id: Int) throws {
        let configuration = realm.configuration
        try onNewThread {
            let other = try Realm(configuration: configuration)
            try other.write { other.add(Pet(value: ["id": id])) }
        }
    }

    func testAWriteLeavesTheRealmAtTheVersionItCommitted() throws {
        let realm = try open()
        realm.autorefresh = false
        try realm.write { realm.add(Pet(value: ["id": 1])) }
        let committed = realm.version
        let pets = realm.objects(Pet.self)
        try addFromAnotherThread(realm, id: 2)
        XCTAssertEqual(realm.version, committed)
        XCTAssertEqual(pets.count, 1, "the other thread's commit is not visible before refresh()")
        XCTAssertEqual(realm.objects(Pet.self).count, 1)
        XCTAssertNil(realm.object(ofType: Pet.self, forPrimaryKey: 2))
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(pets.count, 2)
        XCTAssertEqual(realm.version, committed + 1)
        XCTAssertFalse(realm.refresh(), "nothing newer: refresh() does not move")
    }

    func testCommitWriteAlsoStaysAtItsVersion() throws {
        let realm = try open()
        realm.autorefresh = false
        realm.beginWrite()
        realm.add(Pet(value: ["id": 1]))
        try realm.commitWrite()
        try addFromAnotherThread(realm, id: 2)
        XCTAssertEqual(realm.objects(Pet.self).count, 1)
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(realm.objects(Pet.self).count, 2)
    }

    func testRefreshAfterOwnWriteOnlyDoesNotMove() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1])) }
        XCTAssertFalse(realm.refresh(), "the Realm already reads the version it committed")
    }

    func testWithoutAutorefreshOwnCommitsDoNotAskForARefresh() throws {
        let realm = try open()
        realm.autorefresh = false
        var notifications: [Realm.Notification] = []
        let token = realm.observe { notification, _ in notifications.append(notification) }
        defer { token.invalidate() }
        try realm.write { realm.add(Pet(value: ["id": 1])) }
        for _ in 0..<5 { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) }
        XCTAssertEqual(notifications, [.didChange])
        try addFromAnotherThread(realm, id: 2)
        runRunLoop { notifications.count == 2 }
        XCTAssertEqual(notifications, [.didChange, .refreshRequired])
        XCTAssertEqual(realm.objects(Pet.self).count, 1)
    }

    func testRealmNotificationBlocksRunInsideTheWrite() throws {
        let realm = try open()
        var calls = 0
        let token = realm.observe { notification, observed in
            XCTAssertEqual(notification, .didChange)
            XCTAssertFalse(observed.isInWriteTransaction)
            XCTAssertEqual(observed.objects(Pet.self).count, 1, "the block sees the commit")
            calls += 1
        }
        defer { token.invalidate() }
        try realm.write { realm.add(Pet(value: ["id": 1])) }
        XCTAssertEqual(calls, 1, "called before write returns")
        for _ in 0..<5 { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) }
        XCTAssertEqual(calls, 1, "and not again on a later turn")
    }

    func testRealmNotificationBlocksRunInsideCommitWrite() throws {
        let realm = try open()
        var calls = 0
        let token = realm.observe { _, _ in calls += 1 }
        defer { token.invalidate() }
        realm.beginWrite()
        realm.add(Pet(value: ["id": 1]))
        XCTAssertEqual(calls, 0)
        try realm.commitWrite()
        XCTAssertEqual(calls, 1)
    }

    func testAnEmptyWriteIsToldToRealmObserversOnly() throws {
        let realm = try open()
        var calls = 0, resultsCalls = 0
        let token = realm.observe { _, _ in calls += 1 }
        let resultsToken = realm.objects(Pet.self).observe { _ in resultsCalls += 1 }
        defer { token.invalidate(); resultsToken.invalidate() }
        spin { resultsCalls == 1 }
        try realm.write {}
        XCTAssertEqual(calls, 1, "a local commit is told, as in RealmSwift, even one that changed nothing")
        drain()
        XCTAssertEqual(resultsCalls, 1, "nothing changed for the results")
    }

    func testSkippedRealmTokenIsNotCalledByTheCommit() throws {
        let realm = try open()
        var skipped = 0, other = 0
        let skippedToken = realm.observe { _, _ in skipped += 1 }
        let otherToken = realm.observe { _, _ in other += 1 }
        defer { skippedToken.invalidate(); otherToken.invalidate() }
        try realm.write(withoutNotifying: [skippedToken]) { realm.add(Pet(value: ["id": 1])) }
        XCTAssertEqual(skipped, 0)
        XCTAssertEqual(other, 1)
        try realm.write { realm.add(Pet(value: ["id": 2])) }
        XCTAssertEqual(skipped, 1)
        XCTAssertEqual(other, 2)
    }
}
