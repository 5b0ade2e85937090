import Foundation
import StrataTestSupport
import XCTest
import Strata

final class AsyncItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var note = ""
}

private struct BlockFailure: Error, Equatable {}

/// `writeAsync`, `beginAsyncWrite`/`commitAsyncWrite`, `cancelAsyncWrite` and `asyncWrite`:
/// queued blocks run on the Realm's thread when its run loop turns, are committed as one
/// group, and their completions are called after that commit.
///
/// The tests run this thread's run loop until the expected completions arrive; the deadline
/// only stops a hung test, nothing is timed.
final class AsyncWriteTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [AsyncItem.self]) }

    private func ids(_ realm: Realm) -> [Int] {
        realm.refresh()
        return realm.objects(AsyncItem.self).map(\.id).sorted()
    }

    func testBlocksRunLaterInQueueOrderAndCommitAsOneGroup() throws {
        let realm = try open()
        try realm.write { realm.add(AsyncItem(value: ["id": 0])) }
        let before = realm.version
        var ran: [Int] = []
        var completed: [Int] = []
        var errors: [Error] = []
        for i in 1...100 {
            realm.writeAsync({
                // Each block sees the ones before it in the same group.
                XCTAssertEqual(realm.objects(AsyncItem.self).count, i)
                realm.add(AsyncItem(value: ["id": i]))
                ran.append(i)
            }, onComplete: { error in
                if let error { errors.append(error) }
                completed.append(i)
            })
        }
        XCTAssertEqual(ran, [], "no block runs inside the caller's stack")
        XCTAssertTrue(realm.isPerformingAsynchronousWriteOperations)
        spin { completed.count == 100 }
        XCTAssertEqual(ran, Array(1...100))
        XCTAssertEqual(completed, Array(1...100))
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertFalse(realm.isPerformingAsynchronousWriteOperations)
        XCTAssertEqual(ids(realm), Array(0...100))
        let commits = realm.version - before
        XCTAssertGreaterThanOrEqual(commits, 1)
        XCTAssertLessThan(commits, 100, "the queued writes were committed together")
        XCTAssertEqual(commits, 1, "every write queued before the run loop turned is in one group")
    }

    func testWritesQueuedByBlocksAndCompletionsRunInLaterGroups() throws {
        let realm = try open()
        var completed: [Int] = []
        realm.writeAsync({
            realm.add(AsyncItem(value: ["id": 1]))
            realm.writeAsync({ realm.add(AsyncItem(value: ["id": 2])) }, onComplete: { _ in completed.append(2) })
        }, onComplete: { error in
            XCTAssertNil(error)
            completed.append(1)
            realm.writeAsync({ realm.add(AsyncItem(value: ["id": 3])) }, onComplete: { _ in completed.append(3) })
        })
        spin { completed.count == 3 }
        XCTAssertEqual(completed, [1, 2, 3])
        XCTAssertEqual(ids(realm), [1, 2, 3])
    }

    func testCompletionIsCalledOnlyOnceAnotherProcessCanReadTheWrite() throws {
        let realm = try openRealm(types: [StressItem.self])
        var states: [String] = []
        var failures: [Error] = []
        for id in 1...5 {
            realm.writeAsync({ realm.add(StressItem(value: ["id": id, "tag": "async", "value": id * 10])) },
                             onComplete: { error in
                                 XCTAssertNil(error)
                                 guard id == 5 else { return }
                                 // A fresh process, started from inside the completion, sees the write.
                                 do {
                                     let reader = try WorkerProcess.stress(["worker", "read", "--file", self.fileURL().path])
                                     try reader.waitForSuccess()
                                     states += reader.lines.filter { $0.hasPrefix("STATE") }
                                 } catch { failures.append(error) }
                             })
        }
        spin { !states.isEmpty || !failures.isEmpty }
        XCTAssertTrue(failures.isEmpty, "\(failures)")
        XCTAssertEqual(states.first.flatMap { field("ids", in: $0) }, "1-5")
    }

    func testAFailingBlockFailsAloneAndTheOthersCommit() throws {
        let realm = try open()
        var results: [Int: Error?] = [:]
        realm.writeAsync({ realm.add(AsyncItem(value: ["id": 1])) }, onComplete: { results[1] = $0 })
        realm.writeAsync({
            realm.add(AsyncItem(value: ["id": 2]))
            try realm.throwingAdd(AsyncItem(value: ["id": 1]))  // duplicate primary key
        }, onComplete: { results[2] = $0 })
        realm.writeAsync({
            realm.add(AsyncItem(value: ["id": 3]))
            throw BlockFailure()
        }, onComplete: { results[3] = $0 })
        realm.writeAsync({ realm.add(AsyncItem(value: ["id": 4])) }, onComplete: { results[4] = $0 })
        spin { results.count == 4 }
        XCTAssertNil(results[1]!)
        XCTAssertEqual((results[2]! as? Realm.Error)?.code, .invalidInput, "\(String(describing: results[2]))")
        XCTAssertEqual(results[3]! as? BlockFailure, BlockFailure())
        XCTAssertNil(results[4]!)
        XCTAssertEqual(ids(realm), [1, 4])
    }

    func testCancelAsyncWriteDropsAQueuedBlockAndItsCompletion() throws {
        let realm = try open()
        var ran: [Int] = []
        var completed: [Int] = []
        var tokens: [AsyncTransactionId] = []
        for i in 1...3 {
            tokens.append(realm.writeAsync({
                ran.append(i)
                realm.add(AsyncItem(value: ["id": i]))
            }, onComplete: { _ in completed.append(i) }))
        }
        XCTAssertEqual(Set(tokens).count, 3)
        try realm.cancelAsyncWrite(tokens[1])
        try realm.cancelAsyncWrite(9999)  // unknown ids do nothing
        spin { completed.count == 2 }
        XCTAssertEqual(ran, [1, 3])
        XCTAssertEqual(completed, [1, 3])
        XCTAssertEqual(ids(realm), [1, 3])
        XCTAssertFalse(realm.isPerformingAsynchronousWriteOperations)
    }

    func testCancellingACompletionKeepsItsCommit() throws {
        let realm = try open()
        var completed: [Int] = []
        var completionID: AsyncTransactionId = 0
        realm.beginAsyncWrite {
            realm.add(AsyncItem(value: ["id": 1]))
            completionID = realm.commitAsyncWrite { _ in completed.append(1) }
        }
        realm.writeAsync({
            realm.add(AsyncItem(value: ["id": 2]))
            try? realm.cancelAsyncWrite(completionID)  // before the group's commit
        }, onComplete: { _ in completed.append(2) })
        spin { completed.count == 1 }
        XCTAssertEqual(completed, [2])
        XCTAssertEqual(ids(realm), [1, 2])
    }

    func testBeginAsyncWriteCommitsOnlyWhatItsBlockCommits() throws {
        let realm = try open()
        var results: [Int: Error?] = [:]
        realm.beginAsyncWrite {
            realm.add(AsyncItem(value: ["id": 1]))
            XCTAssertTrue(realm.isInWriteTransaction)
            realm.commitAsyncWrite(allowGrouping: true) { results[1] = $0 }
            XCTAssertFalse(realm.isInWriteTransaction)
        }
        realm.beginAsyncWrite { realm.add(AsyncItem(value: ["id": 2])) }  // returns without committing
        realm.beginAsyncWrite {
            realm.add(AsyncItem(value: ["id": 3]))
            realm.cancelWrite()
        }
        realm.writeAsync({
            realm.add(AsyncItem(value: ["id": 4]))
            realm.cancelWrite()
        }, onComplete: { results[4] = $0 })
        realm.beginAsyncWrite {
            realm.add(AsyncItem(value: ["id": 5]))
            do { try realm.commitWrite() } catch { XCTFail("\(error)") }
        }
        realm.writeAsync({ realm.add(AsyncItem(value: ["id": 6])) }, onComplete: { results[6] = $0 })
        spin { results.count == 2 }
        XCTAssertNil(results[1]!)
        XCTAssertNil(results[6]!)
        XCTAssertNil(results.index(forKey: 4), "a cancelled write's completion is not called")
        XCTAssertEqual(ids(realm), [1, 5, 6])
    }

    func testABlockWritesAgainAfterCancellingOrCommittingItsPart() throws {
        let realm = try open()
        var completed: [Int] = []
        // Cancelled, then written again: only the part after `beginWrite` is kept.
        realm.writeAsync({
            realm.add(AsyncItem(value: ["id": 1]))
            realm.cancelWrite()
            realm.beginWrite()
            XCTAssertTrue(realm.isInWriteTransaction)
            realm.add(AsyncItem(value: ["id": 2]))
        }, onComplete: { _ in completed.append(2) })
        // Committed, then written again and cancelled: the committed part is kept, with its
        // completion.
        realm.beginAsyncWrite {
            realm.add(AsyncItem(value: ["id": 3]))
            realm.commitAsyncWrite { _ in completed.append(3) }
            realm.beginWrite()
            realm.add(AsyncItem(value: ["id": 4]))
            realm.cancelWrite()
        }
        // Cancelled, then written again with `write {}`.
        realm.beginAsyncWrite {
            realm.add(AsyncItem(value: ["id": 5]))
            realm.cancelWrite()
            try! realm.write { realm.add(AsyncItem(value: ["id": 6])) }
        }
        // Committed, then written again and thrown: the committed part is kept and its
        // completion hears the commit; the block's own completion hears the error.
        var errors: [Int: Error?] = [:]
        realm.writeAsync({
            realm.add(AsyncItem(value: ["id": 7]))
            realm.commitAsyncWrite { errors[7] = $0 }
            realm.beginWrite()
            realm.add(AsyncItem(value: ["id": 8]))
            throw BlockFailure()
        }, onComplete: { errors[8] = $0 })
        spin { completed.count == 2 && errors.count == 2 }
        XCTAssertEqual(completed, [2, 3])
        XCTAssertNil(errors[7]!)
        XCTAssertEqual(errors[8]! as? BlockFailure, BlockFailure())
        XCTAssertEqual(ids(realm), [2, 3, 6, 7])
        let entry = try XCTUnwrap(realm.history(since: nil, limit: nil).first, "newest first")
        XCTAssertEqual(entry["AsyncItem"]?.inserted.map(\.description), ["2", "3", "6", "7"], "the change set holds only the kept parts")
    }

    func testCommitAsyncWriteAfterBeginWriteCommitsAndCallsLater() throws {
        let realm = try open()
        var completion: Error?? = nil
        realm.beginWrite()
        realm.add(AsyncItem(value: ["id": 1]))
        realm.commitAsyncWrite { completion = .some($0) }
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertNil(completion as Any?, "the completion is called on a later run-loop turn")
        spin { completion != nil }
        XCTAssertNil(completion!)
        XCTAssertEqual(ids(realm), [1])
    }

    func testSynchronousWriteAfterQueuedAsyncWritesSeesThem() throws {
        let realm = try open()
        var order: [String] = []
        for i in 1...3 {
            realm.writeAsync({
                order.append("block \(i)")
                realm.add(AsyncItem(value: ["id": i]))
            }, onComplete: { error in
                XCTAssertNil(error)
                order.append("completion \(i)")
            })
        }
        try realm.write {
            order.append("write")
            XCTAssertEqual(realm.objects(AsyncItem.self).map(\.id).sorted(), [1, 2, 3])
            realm.add(AsyncItem(value: ["id": 4]))
        }
        XCTAssertEqual(order, ["block 1", "block 2", "block 3", "write"], "completions are not called inside the write")
        XCTAssertTrue(realm.isPerformingAsynchronousWriteOperations)
        spin { order.count == 7 }
        XCTAssertEqual(order.suffix(3), ["completion 1", "completion 2", "completion 3"])
        XCTAssertEqual(ids(realm), [1, 2, 3, 4])
    }

    func testWritesFromAnotherThreadInterleaveWithGroups() throws {
        let realm = try open()
        let configuration = configuration(types: [AsyncItem.self])
        var completed = 0
        for i in 1...50 {
            realm.writeAsync({ realm.add(AsyncItem(value: ["id": i])) }, onComplete: { error in
                XCTAssertNil(error)
                completed += 1
            })
        }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let other = try! Realm(configuration: configuration)
            for i in 1001...1050 { try! other.write { other.add(AsyncItem(value: ["id": i])) } }
            done.signal()
        }
        thread.start()
        spin { completed == 50 }
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(ids(realm), Array(1...50) + Array(1001...1050))
    }

    func testProcessKilledBeforeTheGroupCommitLosesOnlyThatGroup() throws {
        let path = fileURL().path
        let worker = try WorkerProcess.stress(["worker", "async-write", "--file", path, "--from", "1", "--count", "20"])
        defer { worker.kill() }
        let committed = try worker.expectLine(startingWith: "COMMITTED")
        try worker.expectLine(startingWith: "IN-GROUP")
        worker.kill(SIGKILL)
        try worker.waitForExit()
        XCTAssertEqual(worker.process.terminationReason, .uncaughtSignal)

        let realm = try openRealm(types: [StressItem.self])
        XCTAssertEqual(realm.objects(StressItem.self).map(\.id).sorted(), Array(1...20))
        XCTAssertEqual(realm.objects(StressItem.self).filter("tag == 'lost'").count, 0)
        XCTAssertEqual(String(realm.version), field("version", in: committed))
        // The dead process's write lock is released: a write from here goes through.
        var completed = false
        realm.writeAsync({ realm.add(StressItem(value: ["id": 100, "tag": "after"])) }, onComplete: { error in
            XCTAssertNil(error)
            completed = true
        })
        spin { completed }
        realm.refresh()
        XCTAssertEqual(realm.objects(StressItem.self).count, 21)
        assertConsistent()
    }

    @MainActor
    func testAsyncWriteReturnsTheBlocksValueOnceCommitted() async throws {
        let realm = try open()
        let id = try await realm.asyncWrite { () -> Int in
            realm.add(AsyncItem(value: ["id": 7, "note": "awaited"]))
            return 7
        }
        XCTAssertEqual(id, 7)
        XCTAssertEqual(ids(realm), [7])
        do {
            try await realm.asyncWrite {
                realm.add(AsyncItem(value: ["id": 8]))
                throw BlockFailure()
            }
            XCTFail("the block's error is thrown")
        } catch {
            XCTAssertEqual(error as? BlockFailure, BlockFailure())
        }
        XCTAssertEqual(ids(realm), [7])
    }
}
