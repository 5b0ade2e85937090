import Foundation

/// The id of an asynchronous write or of its completion (RealmSwift's `AsyncTransactionId`),
/// for `cancelAsyncWrite(_:)`.
public typealias AsyncTransactionId = UInt32

/// Asynchronous writes with group commit.
///
/// Blocks queued with `writeAsync` or `beginAsyncWrite` run later, on the thread that opened
/// the Realm, when its run loop turns (so that thread must run its `RunLoop`). Every block
/// queued by then runs in one LMDB write transaction, each in a nested transaction of its
/// own, and the group is committed once, with one flush; only after that commit are the
/// completions called, on the same thread, in queue order. A block that throws (or cancels)
/// leaves nothing behind and only its own completion sees the error; a failed commit passes
/// its error to every completion of the group.
extension Realm {
    /// Queues `block` to run in a write transaction on this Realm's thread, on a later turn of
    /// its run loop, committed together with the other queued writes. `onComplete` is called
    /// on this thread once the commit is durable (nil) or failed (the error).
    ///
    /// Strata: `block` may throw; its changes are then discarded and `onComplete` receives the
    /// error, while the other blocks of the group still commit. Calling `cancelWrite()` in the
    /// block discards its changes and `onComplete` is not called.
    @discardableResult
    public func writeAsync(_ block: @escaping () throws -> Void,
                           onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        checkAsyncWritable()
        return core.writes.enqueue(core, block, commitsOnReturn: true, onComplete: onComplete)
    }

    /// Queues `asyncWriteBlock` to run inside a write transaction on this Realm's thread (a
    /// later run-loop turn). The block should end with `commitAsyncWrite` or `commitWrite`;
    /// returning without either (or after `cancelWrite`) discards its changes.
    @discardableResult
    public func beginAsyncWrite(_ asyncWriteBlock: @escaping () -> Void) -> AsyncTransactionId {
        checkAsyncWritable()
        return core.writes.enqueue(core, asyncWriteBlock, commitsOnReturn: false, onComplete: nil)
    }

    /// Commits the write transaction without waiting for the flush: inside a block of
    /// `beginAsyncWrite`/`writeAsync`, the changes join the block's group, and `onComplete`
    /// is called after the group's commit. On a write begun with `beginWrite`, the commit
    /// happens now and `onComplete` is called on a later run-loop turn. Strata always groups
    /// queued blocks, so `allowGrouping` changes nothing. The returned id cancels the call of
    /// `onComplete` (not the commit).
    @discardableResult
    public func commitAsyncWrite(allowGrouping: Bool = false,
                                 _ onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        core.confinement.check()
        precondition(core.writes.isInWriteTransaction, "Can't commit a non-existing write transaction")
        if core.writes.holdsGroup { return core.writes.commitBlock(onComplete) }
        return core.writes.commitCallingLater(core, onComplete)
    }

    /// Cancels a queued block that has not started (it never runs, and the completion of a
    /// `writeAsync` is not called), or a completion not yet called (the commit still
    /// happens). Unknown ids, finished ones and the running block's own do nothing.
    public func cancelAsyncWrite(_ asyncTransactionId: AsyncTransactionId) throws {
        core.writes.cancelAsync(core, asyncTransactionId)
    }

    /// Whether queued asynchronous writes or their completions are still to run.
    public var isPerformingAsynchronousWriteOperations: Bool {
        core.confinement.check()
        return core.writes.isBusy
    }

    /// Runs `block` in an asynchronous write and returns its value once the write is durable;
    /// throws the block's error (nothing it did is kept) or the commit's.
    ///
    /// Call it where the Realm may be used: from code isolated to the actor of an
    /// actor-isolated Realm (`Realm(configuration:actor:)`), or from code running on the
    /// thread that opened a thread-confined one (in practice, `@MainActor` code using a Realm
    /// opened on the main thread; the caller's isolation is inherited). Elsewhere it traps.
    /// The write joins the other writes queued on the Realm; if they have not run by the time
    /// the caller resumes, they run then. A cancelled task's write is dropped (throws
    /// `CancellationError`) unless it has already started; a task cancelled before the call
    /// runs nothing. A block that calls `cancelWrite()` discards its changes and its value is
    /// returned, as in RealmSwift. While another thread or task of this process is writing,
    /// the call waits suspended (the actor is free meanwhile) and cancelling the task ends the
    /// wait with `CancellationError`; a writer in another process is waited for in LMDB.
    @discardableResult
    public func asyncWrite<Result>(isolation: isolated (any Actor)? = #isolation,
                                   _ block: () throws -> Result) async throws -> Result {
        guard core.confinement.isCurrent(isolatedTo: isolation) else {
            preconditionFailure("asyncWrite() can only be called on main thread or actor-isolated Realms: call it where the Realm may be used, isolated to the actor of an actor-isolated Realm, or on the thread that opened the Realm (@MainActor code for a Realm opened on the main thread)")
        }
        try Task.checkCancellation()
        // Writes other tasks queue meanwhile join this one's group.
        await Task.yield()
        // Another write of this process is waited out suspended, not blocked in LMDB: the
        // actor stays free meanwhile, and cancelling the task ends the wait.
        if !core.writes.isInWriteTransaction && !core.writes.holdsGroup {
            try await core.file.writeTurns.waitForTurn()
        }
        core.confinement.check()
        try Task.checkCancellation()
        // The block is queued and run before this returns (or taken off the queue): it never
        // outlives the call (RealmSwift's block is not escaping either).
        return try withoutActuallyEscaping(block) { block in
            let box = AsyncWriteOutcome<Result>()
            let id = writeAsync({ box.value = try block() }, onComplete: { error in
                box.error = error
                box.isDone = true
            })
            core.writes.runGroup(core, deferCompletions: false)
            core.writes.deliverCompletions(core)
            guard box.isDone else {
                core.writes.cancelAsync(core, id)
                // The block ran and cancelled its write (no completion is called for it).
                guard let value = box.value else { throw CancellationError() }
                return value
            }
            if let error = box.error { throw error }
            return box.value!
        }
    }

    private func checkAsyncWritable() {
        do { try checkWritable() } catch { trap(error) }
    }
}

/// What an `asyncWrite` block returned, filled in on the Realm's thread.
private final class AsyncWriteOutcome<Value>: @unchecked Sendable {
    var value: Value?
    var error: Swift.Error?
    var isDone = false
}
