import Foundation
import Strata
import StrataTestSupport
import XCTest

/// An actor that owns a Realm isolated to it: its methods run on any thread of the pool.
private actor Store {
    private var realm: Realm?
    /// The items sorted by id, kept across calls (and so across threads).
    private var items: Results<StressItem>?
    /// The observer registered by `watch`.
    private var token: NotificationToken?

    func open(_ configuration: Realm.Configuration) async throws {
        let realm = try await Realm(configuration: configuration, actor: self)
        self.realm = realm
        items = realm.objects(StressItem.self).sorted(byKeyPath: "id")
    }

    /// Adds item `id` in a synchronous write.
    func add(_ id: Int) throws {
        let realm = try XCTUnwrap(realm)
        try realm.write { realm.add(StressItem(value: ["id": id, "tag": "write", "value": id])) }
    }

    /// Adds item `id` in an asynchronous write, which suspends until it is committed.
    func addAsynchronously(_ id: Int) async throws {
        let realm = try XCTUnwrap(realm)
        try await realm.asyncWrite { realm.add(StressItem(value: ["id": id, "tag": "asyncWrite", "value": id])) }
    }

    /// Adds item `id` in an asynchronous write whose block reads the actor's property without
    /// `self.`: it compiles because the block does not escape, as RealmSwift's.
    func addThroughTheProperty(_ id: Int) async throws {
        try await XCTUnwrap(realm).asyncWrite { realm!.add(StressItem(value: ["id": id, "tag": "property", "value": id])) }
    }

    /// An asynchronous write whose block adds item `id` then cancels its write: what it returns.
    func addThenCancel(_ id: Int) async throws -> String {
        let realm = try XCTUnwrap(realm)
        return try await realm.asyncWrite {
            realm.add(StressItem(value: ["id": id, "tag": "cancelled", "value": id]))
            realm.cancelWrite()
            XCTAssertFalse(realm.isInWriteTransaction)
            return "returned"
        }
    }

    /// An asynchronous write whose block adds `cancelled`, cancels, begins again and adds
    /// `kept`.
    func addAgainAfterCancelling(_ cancelled: Int, _ kept: Int) async throws {
        let realm = try XCTUnwrap(realm)
        try await realm.asyncWrite {
            realm.add(StressItem(value: ["id": cancelled, "tag": "cancelled", "value": cancelled]))
            realm.cancelWrite()
            realm.beginWrite()
            realm.add(StressItem(value: ["id": kept, "tag": "kept", "value": kept]))
        }
    }

    /// An asynchronous write asked for by a task already cancelled: whether its block ran.
    func writeWhenCancelled() async -> (ran: Bool, error: Swift.Error?) {
        var ran = false
        do {
            try await XCTUnwrap(realm).asyncWrite { ran = true }
            return (ran, nil)
        } catch {
            return (ran, error)
        }
    }

    /// The ids of the items, as the actor's Realm sees them now.
    func ids() throws -> [Int] {
        try XCTUnwrap(realm).refresh()
        return try XCTUnwrap(items).map(\.id)
    }

    /// Turns autorefresh off: the Realm moves only when asked.
    func stopAutorefresh() throws { try XCTUnwrap(realm).autorefresh = false }

    /// `asyncRefresh()` on the actor's Realm: whether it moved, and the ids it then sees.
    func refreshAsynchronously() async throws -> (moved: Bool, ids: [Int]) {
        let moved = try await XCTUnwrap(realm).asyncRefresh()
        return (moved, try XCTUnwrap(items).map(\.id))
    }

    /// Observes the items on this actor (`observe(on:)`), recording each change there, until
    /// `stopWatching`.
    func watch(into observed: Observed) async throws {
        token = try await XCTUnwrap(items).observe(on: self) { _, change in observed.note(change) }
    }

    func stopWatching() {
        token?.invalidate()
        token = nil
    }

    /// Records the changes of the items sorted by id, on the actor, until the calling task is
    /// cancelled; the actor serves other calls meanwhile.
    func recordChanges(into observed: Observed) async throws {
        await observed.record(try XCTUnwrap(items).changes)
    }
}

/// A write transaction another thread holds open, adding item `id`, until `finish()` commits it.
private final class HeldWrite: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    init(_ configuration: Realm.Configuration, adding id: Int) {
        let begun = DispatchSemaphore(value: 0)
        Thread { [release, ended] in
            let realm = try! Realm(configuration: configuration)
            realm.beginWrite()
            realm.add(StressItem(value: ["id": id, "tag": "held", "value": id]))
            begun.signal()
            release.wait()
            try! realm.commitWrite()
            ended.signal()
        }.start()
        begun.wait()
    }

    /// Commits the write and waits until it is committed.
    func finish() {
        release.signal()
        ended.wait()
    }
}

final class ActorRealmTests: ConcurrencyTestCase {
    func testAnAsyncWriteWaitingForAnotherThreadsWriteLeavesTheActorFreeAndEndsWhenCancelled() async throws {
        let store = Store()
        try await store.open(configuration())
        let held = HeldWrite(configuration(), adding: 1)
        let task = Task { await store.writeWhenCancelled() }
        try await Task.sleep(for: .milliseconds(100))
        // The waiting write does not hold the actor: it answers other calls meanwhile.
        let idsWhileWaiting = try await store.ids()
        XCTAssertEqual(idsWhileWaiting, [])
        task.cancel()
        let (ran, error) = await task.value
        XCTAssertFalse(ran)
        XCTAssertTrue(error is CancellationError, "\(String(describing: error))")
        held.finish()
        let ids = try await store.ids()
        XCTAssertEqual(ids, [1])
    }

    func testAnAsyncWriteWaitingForAnotherThreadsWriteCommitsAfterIt() async throws {
        let store = Store()
        try await store.open(configuration())
        let held = HeldWrite(configuration(), adding: 1)
        let task = Task { try await store.addAsynchronously(2) }
        try await Task.sleep(for: .milliseconds(100))
        held.finish()
        try await task.value
        let ids = try await store.ids()
        XCTAssertEqual(ids, [1, 2])
    }

    func testAnAsyncWriteWhoseBlockCancelsReturnsItsValueAndKeepsNothing() async throws {
        let store = Store()
        try await store.open(configuration())
        let value = try await store.addThenCancel(7)
        XCTAssertEqual(value, "returned")
        try await store.addAsynchronously(8)
        try await store.addThroughTheProperty(9)
        try await store.addAgainAfterCancelling(10, 11)
        let ids = try await store.ids()
        XCTAssertEqual(ids, [8, 9, 11])
    }

    func testAnAsyncWriteOfACancelledTaskRunsNothing() async throws {
        let store = Store()
        try await store.open(configuration())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await store.writeWhenCancelled()
        }
        let (ran, error) = await task.value
        XCTAssertFalse(ran)
        XCTAssertTrue(error is CancellationError, "\(String(describing: error))")
    }

    func testAnActorUsesItsRealmFromManyConcurrentCalls() async throws {
        let store = Store()
        try await store.open(configuration())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...100 {
                group.addTask { id.isMultiple(of: 4) ? try await store.addAsynchronously(id) : try await store.add(id) }
                group.addTask { _ = try await store.ids() }
            }
            try await group.waitForAll()
        }
        let ids = try await store.ids()
        XCTAssertEqual(ids, Array(1...100))
        let realm = try Realm(configuration: configuration())
        XCTAssertEqual(realm.objects(StressItem.self).filter("tag == 'asyncWrite'").count, 25)
    }

    func testTheActorsRealmSeesCommitsOfOtherThreads() async throws {
        let store = Store()
        try await store.open(configuration())
        try await store.add(1)
        let configuration = configuration()
        try await Task.detached { try ConcurrencyTestCase.insert(2...3, configuration) }.value
        let ids = try await store.ids()
        XCTAssertEqual(ids, [1, 2, 3])
    }

    func testAStreamOfTheActorsRealmDeliversOnTheActor() async throws {
        let store = Store()
        try await store.open(configuration())
        let observed = Observed()
        let consumer = Task.detached { try await store.recordChanges(into: observed) }
        await eventually("the initial results") { observed.all.count == 1 }
        for id in 1...5 { try await store.add(id) }
        await eventually("the five commits") { observed.all.last?.ids.count == 5 }
        assertInOrder(observed.all, all: Array(1...5))
        consumer.cancel()
        try await consumer.value
    }

    func testObservingOnTheActorDeliversTheInitialResultsAndEveryCommitThere() async throws {
        let store = Store()
        try await store.open(configuration())
        let observed = Observed()
        try await store.watch(into: observed)
        await eventually("the initial results") { observed.all.count == 1 }
        for id in 1...3 { try await store.add(id) }
        let configuration = configuration()
        try await Task.detached { try ConcurrencyTestCase.insert(4...6, configuration) }.value
        await eventually("the six commits") { observed.all.last?.ids.count == 6 }
        assertInOrder(observed.all, all: Array(1...6))
        await store.stopWatching()
    }

    func testAsyncRefreshMovesTheActorsRealmAndNotifiesBeforeReturning() async throws {
        let store = Store()
        try await store.open(configuration())
        try await store.stopAutorefresh()
        let observed = Observed()
        try await store.watch(into: observed)
        await eventually("the initial results") { observed.all.count == 1 }
        let configuration = configuration()
        try await Task.detached { try ConcurrencyTestCase.insert(1...3, configuration) }.value

        let refreshed = try await store.refreshAsynchronously()
        XCTAssertTrue(refreshed.moved)
        XCTAssertEqual(refreshed.ids, [1, 2, 3])
        XCTAssertEqual(observed.all.last?.ids, [1, 2, 3], "the observer heard before asyncRefresh returned")
        let again = try await store.refreshAsynchronously()
        XCTAssertFalse(again.moved, "nothing newer")
        await store.stopWatching()
    }

    func testUsingTheRealmOutsideItsActorTrapsWithAClearMessage() throws {
        let path = configuration().fileURL!.path
        let worker = try WorkerProcess.stress(["worker", "misuse", "--file", path, "--kind", "outside-actor"])
        try worker.expectLine(startingWith: "COMMITTED")
        try worker.waitForExit()
        XCTAssertNotEqual(worker.process.terminationReason, .exit, worker.transcript)
        XCTAssertFalse(worker.lines.contains("NO-TRAP"))
        // The runtime's own check of the actor's executor, naming the actor.
        XCTAssertTrue(worker.errorOutput.contains("Incorrect actor executor assumption"), worker.transcript)
        XCTAssertTrue(worker.errorOutput.contains("RealmOwner"), worker.transcript)
    }

    func testUsingAMainActorRealmOffTheMainThreadTrapsWithStratasMessage() throws {
        let path = configuration().fileURL!.path
        let worker = try WorkerProcess.stress(["worker", "misuse", "--file", path, "--kind", "outside-main-actor"])
        try worker.expectLine(startingWith: "COMMITTED")
        try worker.waitForExit()
        XCTAssertNotEqual(worker.process.terminationReason, .exit, worker.transcript)
        XCTAssertFalse(worker.lines.contains("NO-TRAP"))
        XCTAssertTrue(worker.errorOutput.contains("Realm accessed from outside its actor: this Realm is isolated to the main actor"),
                      worker.transcript)
    }
}
