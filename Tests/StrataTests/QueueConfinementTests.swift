import Foundation
import StrataTestSupport
import Synchronization
import XCTest
import Strata

/// Realms confined to a serial `DispatchQueue`, and notifications delivered on a queue.
///
/// Waits here only stop a hung test; nothing is timed.
final class QueueConfinementTests: StrataTestCase {
    private var path: String { fileURL().path }

    private func open() throws -> Realm { try openRealm(types: [StressItem.self]) }

    /// Waits for `semaphore`, failing after a minute.
    private func wait(_ semaphore: DispatchSemaphore, _ what: String) {
        XCTAssertEqual(semaphore.wait(timeout: .now() + 60), .success, "timed out waiting for \(what)")
    }

    func testAQueueConfinedRealmIsOneInstanceUsableFromEveryBlockOnItsQueue() throws {
        let configuration = try open().configuration
        let queue = DispatchQueue(label: "strata.test.confined")
        let first = try queue.sync { try Realm(configuration: configuration, queue: queue) }
        try queue.sync {
            let again = try Realm(configuration: configuration, queue: queue)
            XCTAssertEqual(again, first, "one instance per queue and configuration")
            try first.write { first.add(StressItem(value: ["id": 1, "tag": "queued"])) }
        }
        let tag = queue.sync { first.objects(StressItem.self).first?.tag }
        XCTAssertEqual(tag, "queued")
        let other = DispatchQueue(label: "strata.test.other")
        let elsewhere = try other.sync { try Realm(configuration: configuration, queue: other) }
        XCTAssertNotEqual(elsewhere, first, "another queue has its own instance")
    }

    func testResultsObservedOnAQueueAreDeliveredThereWithThatQueuesRealm() throws {
        let realm = try open()
        let queue = DispatchQueue(label: "strata.test.delivery")
        let initial = DispatchSemaphore(value: 0), updated = DispatchSemaphore(value: 0)
        var insertions: [Int] = []
        let token = realm.objects(StressItem.self).sorted(byKeyPath: "id").observe(on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            switch change {
            case .initial(let items):
                XCTAssertEqual(items.count, 0)
                initial.signal()
            case let .update(items, _, inserted, _):
                XCTAssertEqual(items.map(\.id), [1, 2])  // read on the queue, from its Realm
                insertions = inserted
                updated.signal()
            case .error(let error):
                XCTFail("\(error)")
            }
        }
        defer { token.invalidate() }
        wait(initial, "the initial delivery")
        try realm.write {
            realm.add(StressItem(value: ["id": 2]))
            realm.add(StressItem(value: ["id": 1]))
        }
        wait(updated, "the update")
        XCTAssertEqual(queue.sync { insertions }, [0, 1])
    }

    func testAnObjectObservedOnAQueueHearsItsPropertyChanges() throws {
        let realm = try open()
        let item = try realm.write { realm.create(StressItem.self, value: ["id": 5, "value": 1]) }
        let queue = DispatchQueue(label: "strata.test.object")
        let changed = DispatchSemaphore(value: 0)
        var seen: [String] = []
        let token = item.observe(keyPaths: ["value"], on: queue) { change in
            if case let .change(object, properties) = change {
                XCTAssertEqual(object.value, 2)
                seen = properties.map(\.name)
                changed.signal()
            }
        }
        defer { token.invalidate() }
        try realm.write { item.tag = "not observed" }
        try realm.write { item.value = 2 }
        wait(changed, "the change")
        XCTAssertEqual(queue.sync { seen }, ["value"])
    }

    /// As RealmSwift's: registering on a busy queue returns at once, registers when the
    /// queue gets to it (reporting a change made meanwhile), and a token invalidated before
    /// then is never called.
    func testObservingOnABusyQueueReturnsAtOnce() throws {
        let realm = try open()
        let item = try realm.write { realm.create(StressItem.self, value: ["id": 5, "value": 1]) }
        let queue = DispatchQueue(label: "strata.test.busy")
        let release = DispatchSemaphore(value: 0), changed = DispatchSemaphore(value: 0)
        queue.async { release.wait() }
        let calls = Mutex(0)
        let cancelled = item.observe(on: queue) { _ in calls.withLock { $0 += 1 } }
        cancelled.invalidate()
        let token = item.observe(keyPaths: ["value"], on: queue) { change in
            if case .change(_, let properties) = change, properties.map(\.name) == ["value"] { changed.signal() }
        }
        defer { token.invalidate() }
        try realm.write { item.value = 2 }  // before the queue registers the observer
        release.signal()
        wait(changed, "the change made before the registration")
        queue.sync {}
        XCTAssertEqual(calls.withLock { $0 }, 0, "invalidated before its registration")
    }

    func testAQueueConfinedRealmHearsAnotherProcessCommit() throws {
        let configuration = try open().configuration
        let queue = DispatchQueue(label: "strata.test.process")
        let updated = DispatchSemaphore(value: 0)
        let token = try queue.sync { () -> NotificationToken in
            let realm = try Realm(configuration: configuration, queue: queue)
            return realm.objects(StressItem.self).observe { change in
                if case let .update(items, _, _, _) = change, items.count == 3 { updated.signal() }
            }
        }
        defer { token.invalidate() }
        let worker = try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "10", "--count", "3"])
        try worker.waitForSuccess()
        wait(updated, "the other process's commits")
    }

    func testAsynchronousWritesOnAQueueCompleteOnTheQueue() throws {
        let configuration = try open().configuration
        let queue = DispatchQueue(label: "strata.test.async")
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<Error?>(nil)
        queue.async {
            let realm = try! Realm(configuration: configuration, queue: queue)
            realm.writeAsync({ realm.add(StressItem(value: ["id": 77])) }, onComplete: { error in
                dispatchPrecondition(condition: .onQueue(queue))
                failure.withLock { $0 = error }
                done.signal()
            })
        }
        wait(done, "the completion")
        XCTAssertNil(failure.withLock { $0 })
        XCTAssertNotNil(try open().object(ofType: StressItem.self, forPrimaryKey: 77))
    }

    /// RealmSwift's write(withoutNotifying:) for a token of `observe(on: queue)`: the queue's
    /// observer does not hear of the skipped write, and its next update describes only what
    /// came after it; an observer on the same queue that was not skipped hears both.
    func testWriteWithoutNotifyingSkipsAnObserverOnAnotherQueue() throws {
        let realm = try open()
        let queue = DispatchQueue(label: "strata.test.skipped")
        let ready = DispatchSemaphore(value: 0), heard = DispatchSemaphore(value: 0)
        var skippedUpdates: [[Int]] = [], otherIds: [Int] = []
        let items = realm.objects(StressItem.self).sorted(byKeyPath: "id")
        let skipped = items.observe(on: queue) { change in
            switch change {
            case .initial: ready.signal()
            case let .update(items, _, insertions, _):
                XCTAssertEqual(items.map(\.id), [1, 2], "only the write after the skipped one is reported")
                skippedUpdates.append(insertions)
                heard.signal()
            case .error(let error): XCTFail("\(error)")
            }
        }
        let other = items.observe(on: queue) { change in
            switch change {
            case .initial: ready.signal()
            case .update(let items, _, _, _): otherIds = items.map(\.id)
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { skipped.invalidate(); other.invalidate() }
        wait(ready, "the skipped observer's initial delivery")
        wait(ready, "the other observer's initial delivery")
        try realm.write(withoutNotifying: [skipped]) { realm.add(StressItem(value: ["id": 1])) }
        try realm.write { realm.add(StressItem(value: ["id": 2])) }
        wait(heard, "the update after the skipped write")
        queue.sync {
            XCTAssertEqual(skippedUpdates, [[1]], "indices relative to the skipped write's state")
            XCTAssertEqual(otherIds, [1, 2])
        }
    }

    /// A skipped write that commits nothing leaves the queue's observer as it was: the next
    /// write is reported whole.
    func testAnEmptySkippedWriteHoldsNothingBackOnAnotherQueue() throws {
        let realm = try open()
        let queue = DispatchQueue(label: "strata.test.empty-skip")
        let ready = DispatchSemaphore(value: 0), heard = DispatchSemaphore(value: 0)
        var insertions: [Int] = []
        let token = realm.objects(StressItem.self).observe(on: queue) { change in
            switch change {
            case .initial: ready.signal()
            case .update(_, _, let inserted, _): insertions = inserted; heard.signal()
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { token.invalidate() }
        wait(ready, "the initial delivery")
        try realm.write(withoutNotifying: [token]) {}
        try realm.write { realm.add(StressItem(value: ["id": 7])) }
        wait(heard, "the update")
        XCTAssertEqual(queue.sync { insertions }, [0])
    }
}
