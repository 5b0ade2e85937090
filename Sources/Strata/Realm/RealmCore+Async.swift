import Foundation
import StrataStorage

/// The asynchronous writes of one `RealmCore`: the blocks queued by `writeAsync` and
/// `beginAsyncWrite`, the group running now, and the completions waiting to be called.
///
/// Everything here is touched only on the core's thread.
final class AsyncWriteQueue {
    /// A queued block.
    struct Entry {
        let id: AsyncTransactionId
        let block: () throws -> Void
        /// `writeAsync`: commit when the block returns. `beginAsyncWrite`: the block commits
        /// itself (`commitAsyncWrite`, `commitWrite`), or its changes are discarded.
        let commitsOnReturn: Bool
        let onComplete: ((Swift.Error?) -> Void)?
    }

    /// A completion to call once the commit it waits for is done.
    struct Completion {
        let id: AsyncTransactionId
        let call: (Swift.Error?) -> Void
        var error: Swift.Error?
        /// Whether the group's commit is still to come (its error, if any, goes here too).
        var awaitsCommit: Bool
        var isCancelled = false
    }

    /// What the running block did with its transaction.
    enum Outcome { case open, committed, cancelled }

    /// The block running now inside a group.
    struct Running {
        var outcome = Outcome.open
        /// Completions given by `commitAsyncWrite` inside the block.
        var completions: [(AsyncTransactionId, (Swift.Error?) -> Void)] = []
        var description: String?
    }

    var queue: [Entry] = []
    /// Completions in the order their writes were queued; called front to back, from `head`.
    var completions: [Completion] = []
    var head = 0
    /// A run-loop turn is scheduled to run the queue.
    var isScheduled = false
    /// A run-loop turn is scheduled to call completions.
    var isDeliveryScheduled = false
    /// A group holds the write transaction (its blocks are running).
    var holdsGroup = false
    var running: Running?
    private var lastID: AsyncTransactionId = 0

    func makeID() -> AsyncTransactionId {
        lastID &+= 1
        if lastID == 0 { lastID = 1 }
        return lastID
    }

    var isBusy: Bool { !queue.isEmpty || holdsGroup || completions[head...].contains { !$0.isCancelled } }
}

/// Thrown inside a group to discard a block's nested transaction (the block cancelled or
/// did not commit).
private struct AsyncBlockDiscarded: Swift.Error {}

extension RealmCore {
    /// Queues `block` to run in the next group on this thread's run loop.
    func enqueueAsyncWrite(_ block: @escaping () throws -> Void, commitsOnReturn: Bool,
                           onComplete: ((Swift.Error?) -> Void)?) -> AsyncTransactionId {
        confinement.check()
        let id = asyncWrites.makeID()
        asyncWrites.queue.append(.init(id: id, block: block, commitsOnReturn: commitsOnReturn, onComplete: onComplete))
        scheduleAsyncWrites()
        return id
    }

    /// Schedules one run of the queue on this thread's run loop (if anything is queued and no
    /// run is scheduled yet). Called on the core's thread, so `RunLoop.current` is its loop.
    func scheduleAsyncWrites() {
        let queue = asyncWrites
        guard !queue.isScheduled, !queue.queue.isEmpty else { return }
        queue.isScheduled = true
        confinement.schedule { [self] in
            asyncWrites.isScheduled = false
            runAsyncWrites(deferCompletions: false)
        }
    }

    /// Runs every queued block as one group: one LMDB write transaction, each block in a nested
    /// transaction of its own (a block that throws, cancels or does not commit leaves nothing
    /// and the others go on), one commit (one flush). Only then are the completions called,
    /// in queue order: each with nil, its block's error, or the commit's error. With
    /// `deferCompletions` they are called on a later run-loop turn instead (a synchronous
    /// write runs the queue first and must not call user code from inside itself).
    ///
    /// Blocks queued while the group runs wait for the next group.
    func runAsyncWrites(deferCompletions: Bool) {
        confinement.check()
        let state = asyncWrites
        // A write is open (the run loop was run inside one): its commit or cancel reschedules.
        guard !state.queue.isEmpty, !isInWriteTransaction, !state.holdsGroup else { return }
        let batch = state.queue
        state.queue.removeAll()
        do {
            try beginWrite()
        } catch {
            for entry in batch where entry.commitsOnReturn {
                if let call = entry.onComplete {
                    state.completions.append(.init(id: entry.id, call: call, error: error, awaitsCommit: false))
                }
            }
            finishCompletions(deferred: deferCompletions)
            return
        }
        let txn = try! transaction()
        state.holdsGroup = true
        for entry in batch {
            state.running = AsyncWriteQueue.Running()
            isInWriteTransaction = true
            var completions: [(AsyncTransactionId, (Swift.Error?) -> Void)] = []
            var failure: Swift.Error?
            do {
                try txn.atomically {
                    try entry.block()
                    if state.running!.outcome == .open && entry.commitsOnReturn { state.running!.outcome = .committed }
                    completions = state.running!.completions
                    if state.running!.outcome != .committed { throw AsyncBlockDiscarded() }
                }
            } catch is AsyncBlockDiscarded {
                dropBindings()  // tables first created by the discarded block are gone
                continue
            } catch {
                dropBindings()
                completions = state.running!.completions
                failure = error
            }
            if let description = state.running!.description { txn.commitDescription = description }
            if entry.commitsOnReturn, let call = entry.onComplete { completions.append((entry.id, call)) }
            for (id, call) in completions {
                state.completions.append(.init(id: id, call: call, error: failure, awaitsCommit: failure == nil))
            }
        }
        state.running = nil
        state.holdsGroup = false
        isInWriteTransaction = true
        var commitError: Swift.Error?
        do { try commitWrite(description: txn.commitDescription) } catch { commitError = error }
        for i in state.head..<state.completions.count where state.completions[i].awaitsCommit {
            state.completions[i].awaitsCommit = false
            state.completions[i].error = commitError
        }
        finishCompletions(deferred: deferCompletions)
    }

    /// `commitWrite`/`cancelWrite` (or `commitAsyncWrite`) inside a block of a group: ends the
    /// block's part. Its changes join the group's commit, or are discarded when it returns.
    func finishAsyncBlock(committing: Bool, description: String?) {
        guard asyncWrites.running != nil else { preconditionFailure("Can't commit a non-existing write transaction") }
        asyncWrites.running!.outcome = committing ? .committed : .cancelled
        if let description { asyncWrites.running!.description = description }
        isInWriteTransaction = false
    }

    /// `commitAsyncWrite` inside a block of a group: the block commits with the group, and
    /// `onComplete` is called after the group's commit.
    func commitAsyncBlock(_ onComplete: ((Swift.Error?) -> Void)?) -> AsyncTransactionId {
        let id = asyncWrites.makeID()
        if let onComplete { asyncWrites.running!.completions.append((id, onComplete)) }
        finishAsyncBlock(committing: true, description: nil)
        return id
    }

    /// `commitAsyncWrite` on a write begun with `beginWrite`: commits now, calls `onComplete`
    /// on a later run-loop turn.
    func commitWriteCallingLater(_ onComplete: ((Swift.Error?) -> Void)?) -> AsyncTransactionId {
        let id = asyncWrites.makeID()
        var failure: Swift.Error?
        do { try commitWrite() } catch { failure = error }
        if let onComplete { asyncWrites.completions.append(.init(id: id, call: onComplete, error: failure, awaitsCommit: false)) }
        finishCompletions(deferred: true)
        return id
    }

    /// Cancels a queued block (it will not run) or a completion not yet called (the commit
    /// still happens). Unknown or finished ids, and the running block's own, are ignored.
    func cancelAsyncWrite(_ id: AsyncTransactionId) {
        confinement.check()
        asyncWrites.queue.removeAll { $0.id == id }
        let state = asyncWrites
        for i in state.head..<state.completions.count where state.completions[i].id == id {
            state.completions[i].isCancelled = true
        }
    }

    /// Runs the queued writes before a synchronous write begins, so it sees them; their
    /// completions are called on a later run-loop turn.
    func runAsyncWritesBeforeSynchronousWrite() {
        precondition(!asyncWrites.holdsGroup, "Cannot begin a write transaction inside an asynchronous write block: queue it with writeAsync instead")
        if !asyncWrites.queue.isEmpty && !isInWriteTransaction { runAsyncWrites(deferCompletions: true) }
    }

    /// Calls the completions whose commits are done, now or (`deferred`) on a later turn.
    private func finishCompletions(deferred: Bool) {
        if !deferred { return deliverCompletions() }
        guard !asyncWrites.isDeliveryScheduled, !asyncWrites.completions.isEmpty else { return }
        asyncWrites.isDeliveryScheduled = true
        confinement.schedule { [self] in
            asyncWrites.isDeliveryScheduled = false
            deliverCompletions()
        }
    }

    /// Calls, front to back, the completions whose commits are done. A completion may queue
    /// or run writes, cancel a later completion, or run the run loop (which may call the
    /// next ones from inside it).
    func deliverCompletions() {
        confinement.check()
        let state = asyncWrites
        while state.head < state.completions.count, !state.completions[state.head].awaitsCommit {
            let completion = state.completions[state.head]
            state.head += 1
            if !completion.isCancelled { completion.call(completion.error) }
        }
        if state.head == state.completions.count && !state.holdsGroup {
            state.completions.removeAll(keepingCapacity: true)
            state.head = 0
        }
    }
}
