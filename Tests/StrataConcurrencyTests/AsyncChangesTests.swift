import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `changes` consumed by async code that runs no run loop: a detached task opens a Realm on a
/// thread of the cooperative pool, takes the stream, and awaits it. Commits of other threads
/// and processes reach it through the file's notifier thread.
final class AsyncChangesTests: ConcurrencyTestCase {
    /// Starts a task that opens a Realm of `configuration` and records the changes of its
    /// items sorted by id until it is cancelled.
    private func observe(_ configuration: Realm.Configuration, into observed: Observed) -> Task<Void, any Error> {
        Task.detached {
            let realm = try Realm(configuration: configuration)
            let changes = realm.objects(StressItem.self).sorted(byKeyPath: "id").changes
            await observed.record(changes)
        }
    }

    /// Waits until `observed` holds every id of `all`, checks that they came in order, then
    /// ends the consumer.
    private func finish(_ consumer: Task<Void, any Error>, _ observed: Observed, initial: [Int] = [], all: [Int],
                        file: StaticString = #filePath, line: UInt = #line) async throws {
        await eventually("\(all.count - initial.count) commits", file: file, line: line) { observed.all.last?.ids.count == all.count }
        assertInOrder(observed.all, initial: initial, all: all, file: file, line: line)
        consumer.cancel()
        try await consumer.value
    }

    func testAsyncCodeReceivesTheInitialResultsAndTheCommitsOfAnotherThread() async throws {
        let configuration = configuration()
        try ConcurrencyTestCase.insert(1...2, configuration)
        let observed = Observed()
        let consumer = observe(configuration, into: observed)
        await eventually("the initial results") { observed.all.count == 1 }
        XCTAssertEqual(observed.all.first, Observed.Entry(isInitial: true, ids: [1, 2]))

        try await Task.detached { try ConcurrencyTestCase.insert(3...12, configuration) }.value
        try await finish(consumer, observed, initial: [1, 2], all: Array(1...12))
    }

    func testAsyncCodeReceivesTheCommitsOfAnotherProcess() async throws {
        let configuration = configuration()
        let observed = Observed()
        let consumer = observe(configuration, into: observed)
        await eventually("the initial results") { observed.all.count == 1 }

        let path = try XCTUnwrap(configuration.fileURL).path
        let worker = try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "1", "--count", "20", "--nosync"])
        defer { worker.kill() }
        await eventually("the worker's exit") { !worker.process.isRunning }
        try worker.waitForSuccess()
        try await finish(consumer, observed, all: Array(1...20))
    }

    func testAThousandCommitsAreObservedInOrderWithNoneLost() async throws {
        let configuration = configuration()
        let observed = Observed()
        let consumer = observe(configuration, into: observed)
        await eventually("the initial results") { observed.all.count == 1 }

        try await Task.detached { try ConcurrencyTestCase.insert(1...1000, configuration) }.value
        try await finish(consumer, observed, all: Array(1...1000))
    }

    func testCancellingTheConsumerEndsTheStreamAndReleasesItsSnapshots() async throws {
        let configuration = configuration()
        try ConcurrencyTestCase.insert(1...3, configuration)
        XCTAssertEqual(try snapshotsHeld(), 0, "the writer's Realm is gone")
        let observed = Observed()
        let consumer = observe(configuration, into: observed)
        await eventually("the initial results") { observed.all.count == 1 }
        XCTAssertGreaterThan(try snapshotsHeld(), 0, "the stream's Realm reads a snapshot")

        consumer.cancel()
        try await consumer.value  // the stream ended: the loop over it returned
        try await Task.detached { try ConcurrencyTestCase.insert(4...5, configuration) }.value
        try await eventually("the stream's snapshots released") { try snapshotsHeld() == 0 }
        XCTAssertEqual(observed.all.count, 1, "nothing is delivered after the end")
    }
}
