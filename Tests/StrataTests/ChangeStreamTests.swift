import Foundation
import XCTest
@testable import Strata

/// `changes`: notifications as `AsyncStream`s consumed by a task on another thread. The
/// Realm lives on a run-loop thread; the stream observes on a queue of its own; the
/// consuming task reads the frozen values in each change and records what it saw.
final class ChangeStreamTests: StrataTestCase {
    /// What the consuming task saw, one line per change, and whether the stream ended.
    private final class Seen: @unchecked Sendable {
        // Sendable invariant: every access holds `lock`.
        private let lock = NSLock()
        private var lines: [String] = []
        private var ended = false

        func append(_ line: String) { lock.withLock { lines.append(line) } }
        func finish() { lock.withLock { ended = true } }
        var all: [String] { lock.withLock { lines } }
        var hasEnded: Bool { lock.withLock { ended } }
    }

    /// Consumes `stream` in a task, describing each change with `describe` (run in the task).
    private func consume<Change>(_ stream: AsyncStream<Change>, _ seen: Seen,
                                 _ describe: @escaping (Change) -> String) -> Task<Void, Never> {
        Task.detached {
            for await change in stream { seen.append(describe(change)) }
            seen.finish()
        }
    }

    private func describe<C: RealmCollection>(_ change: RealmCollectionChange<C>, _ show: (C) -> String) -> String {
        switch change {
        case .initial(let c): "initial \(c.isFrozen ? "frozen" : "live") \(show(c))"
        case let .update(c, d, i, m): "update \(c.isFrozen ? "frozen" : "live") \(show(c)) d\(d) i\(i) m\(m)"
        case .error(let error): "error \(error)"
        }
    }

    private func openOn(_ owner: RunLoopThread) throws -> (Realm, Ship) {
        let config = configuration(types: shipTypes)
        return try owner.sync {
            let realm = try Realm(configuration: config)
            return (realm, try seedShip(realm))
        }
    }

    func testResultsChangesCarryFrozenResultsToTheConsumingTask() throws {
        let owner = RunLoopThread()
        defer { owner.stop() }
        let (realm, _) = try openOn(owner)
        let seen = Seen()
        let stream = try owner.sync { realm.objects(Sailor.self).sorted(byKeyPath: "rank").changes }
        let task = consume(stream, seen) { self.describe($0) { $0.map(\.id).description } }
        waitUntil { seen.all.count == 1 }
        try owner.sync { try realm.write { _ = realm.create(Sailor.self, value: ["id": 4, "rank": 0]) } }
        waitUntil { seen.all.count == 2 }
        try owner.sync { try realm.write { realm.object(ofType: Sailor.self, forPrimaryKey: 2)!.name = "two" } }
        waitUntil { seen.all.count == 3 }
        XCTAssertEqual(seen.all, ["initial frozen [1, 2, 3]",
                                  "update frozen [4, 1, 2, 3] d[] i[0] m[]",
                                  "update frozen [4, 1, 2, 3] d[] i[] m[2]"])
        task.cancel()
        waitUntil { seen.hasEnded }
    }

    func testListChangesCarryFrozenLists() throws {
        let owner = RunLoopThread()
        defer { owner.stop() }
        let (realm, ship) = try openOn(owner)
        let seen = Seen()
        let stream = try owner.sync { ship.logbook.changes }
        let task = consume(stream, seen) { self.describe($0) { Array($0).description } }
        waitUntil { seen.all.count == 1 }
        try owner.sync { try realm.write { ship.logbook.append("storm") } }
        waitUntil { seen.all.count == 2 }
        XCTAssertEqual(seen.all, ["initial frozen [\"cast off\"]", "update frozen [\"cast off\", \"storm\"] d[] i[1] m[]"])
        task.cancel()
        waitUntil { seen.hasEnded }
    }

    func testObjectChangesEndAfterTheObjectIsDeleted() throws {
        let owner = RunLoopThread()
        defer { owner.stop() }
        let (realm, ship) = try openOn(owner)
        let seen = Seen()
        let stream = try owner.sync { ship.changes(keyPaths: ["name"]) }
        _ = consume(stream, seen) { change in
            switch change {
            case let .change(ship, properties):
                "change \(ship.isFrozen ? "frozen" : "live") \(ship.name) \(properties.map { "\($0.name)=\($0.newValue ?? "nil")" })"
            case .deleted: "deleted"
            case .error(let error): "error \(error)"
            }
        }
        try owner.sync { try realm.write { ship.logbook.append("not observed") } }
        try owner.sync { try realm.write { ship.name = "Pelican" } }
        waitUntil { seen.all.count == 1 }
        try owner.sync { try realm.write { realm.delete(ship) } }
        waitUntil { seen.hasEnded }
        XCTAssertEqual(seen.all, ["change frozen Pelican [\"name=Pelican\"]", "deleted"])
    }

    /// Cancelling the consuming task ends the stream and invalidates its observer, which
    /// observes in a Realm of the stream's own queue: that Realm, and the snapshots it and
    /// its frozen changes held, go.
    func testCancellingTheConsumerEndsTheStreamAndItsObserver() throws {
        let owner = RunLoopThread()
        defer { owner.stop() }
        let (realm, ship) = try openOn(owner)
        let snapshots = { try owner.sync { _ = realm.version; return realm.core.file.openProcesses().first { $0.pid == getpid() }?.snapshots ?? 0 } }
        let before = try snapshots()
        let seen = Seen()
        let task = try owner.sync { self.consume(ship.aboard.changes, seen) { self.describe($0) { "\($0.count)" } } }
        waitUntil { seen.all.count == 1 }
        XCTAssertTrue(try owner.sync { realm.core.notifications.isEmpty }, "the stream observes in its own queue's Realm")
        XCTAssertGreaterThan(try snapshots(), before, "the stream's observer holds its Realm's snapshot")
        task.cancel()
        waitUntil { seen.hasEnded }
        waitUntil { (try? snapshots()) == before }
        try owner.sync { try realm.write { realm.object(ofType: Sailor.self, forPrimaryKey: 1)!.ship = nil } }
        try owner.sync { }
        XCTAssertEqual(seen.all, ["initial frozen 3"])
    }
}
