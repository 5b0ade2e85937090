import StrataStorage

/// Thrown inside a group to discard a block's nested transaction (the block cancelled or
/// did not commit).
private struct AsyncBlockDiscarded: Swift.Error {}

/// Asynchronous writes: blocks queued by `writeAsync` and `beginAsyncWrite`, run as one group
/// on a later turn of the instance's run loop (or queue), and their completions.
extension WriteCoordinator {
    /// Queues `block` to run in the next group of `core`.
    func enqueue(_ core: RealmCore, _ block: @escaping () throws -> Void, commitsOnReturn: Bool,
                 onComplete: ((Swift.Error?) -> Void)?) -> AsyncTransactionId {
        core.confinement.check()
        let id = makeID()
        queue.append(.init(id: id, block: block, commitsOnReturn: commitsOnReturn, onComplete: onComplete))
        scheduleRun(core)
        return id
    }

    /// Schedules one run of the queue in `core`'s context (if anything is queued and no run
    /// is scheduled yet). Called in that context, so `RunLoop.current` is its loop.
    func scheduleRun(_ core: RealmCore) {
        guard !isScheduled, !queue.isEmpty else { return }
        isScheduled = true
        core.confinement.schedule { [self] in
            isScheduled = false
            runGroup(core, deferCompletions: false)
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
    func runGroup(_ core: RealmCore, deferCompletions: Bool) {
        core.confinement.check()
        // A write is open (the run loop was run inside one): its commit or cancel reschedules.
        guard !queue.isEmpty, !isInWriteTransaction, !holdsGroup else { return }
        let batch = queue
        queue.removeAll()
        do {
            try begin(core)
        } catch {
            for entry in batch where entry.commitsOnReturn {
                if let call = entry.onComplete {
                    completions.append(.init(id: entry.id, call: call, error: error, awaitsCommit: false))
                }
            }
            finishCompletions(core, deferred: deferCompletions)
            return
        }
        let txn = try! core.transaction()
        holdsGroup = true
        for entry in batch {
            running = Running()
            isInWriteTransaction = true
            var failure: Swift.Error?
            do {
                try txn.atomically {
                    try entry.block()
                    if running!.outcome == .open && entry.commitsOnReturn { running!.outcome = .committed }
                    if running!.outcome != .committed { throw AsyncBlockDiscarded() }
                }
            } catch is AsyncBlockDiscarded {
                core.dropBindings()  // tables first created by the discarded block are gone
                // A block that committed a part, then wrote again, keeps that part.
                guard running!.keptCompletions != nil else { continue }
            } catch {
                core.dropBindings()
                failure = error
            }
            var given = running!.completions
            if let description = running!.description { txn.commitDescription = description }
            if entry.commitsOnReturn, let call = entry.onComplete { given.append((entry.id, call)) }
            let kept = running!.keptCompletions ?? 0
            for (i, (id, call)) in given.enumerated() {
                let error = i < kept ? nil : failure
                completions.append(.init(id: id, call: call, error: error, awaitsCommit: error == nil))
            }
        }
        running = nil
        holdsGroup = false
        isInWriteTransaction = true
        var commitError: Swift.Error?
        do { try commit(core, description: txn.commitDescription) } catch { commitError = error }
        for i in head..<completions.count where completions[i].awaitsCommit {
            completions[i].awaitsCommit = false
            completions[i].error = commitError
        }
        finishCompletions(core, deferred: deferCompletions)
    }

    /// `commitWrite`/`cancelWrite` (or `commitAsyncWrite`) inside a block of a group: ends the
    /// block's part. Its changes join the group's commit, or are discarded when it returns.
    func finishBlock(committing: Bool, description: String?) {
        guard running != nil else { preconditionFailure("Can't commit a non-existing write transaction") }
        running!.outcome = committing ? .committed : .cancelled
        if let description { running!.description = description }
        isInWriteTransaction = false
    }

    /// `beginWrite` inside a block of a group that committed or cancelled its part: the block
    /// writes again. The part before joins the group (committed) or is discarded (cancelled)
    /// now; the part from here is kept or discarded as the block ends.
    func reopenBlock(_ core: RealmCore) throws {
        guard let outcome = running?.outcome, outcome != .open else { preconditionFailure("The Realm is already in a write transaction") }
        let txn = try core.transaction()
        try translatingErrors(path: core.path) { try txn.restartAtomically(keeping: outcome == .committed) }
        if outcome == .committed { running!.keptCompletions = running!.completions.count } else { core.dropBindings() }
        running!.outcome = .open
        isInWriteTransaction = true
    }

    /// `commitAsyncWrite` inside a block of a group: the block commits with the group, and
    /// `onComplete` is called after the group's commit.
    func commitBlock(_ onComplete: ((Swift.Error?) -> Void)?) -> AsyncTransactionId {
        let id = makeID()
        if let onComplete { running!.completions.append((id, onComplete)) }
        finishBlock(committing: true, description: nil)
        return id
    }

    /// `commitAsyncWrite` on a write begun with `beginWrite`: commits now, calls `onComplete`
    /// on a later run-loop turn.
    func commitCallingLater(_ core: RealmCore, _ onComplete: ((Swift.Error?) -> Void)?) -> AsyncTransactionId {
        let id = makeID()
        var failure: Swift.Error?
        do { try commit(core) } catch { failure = error }
        if let onComplete { completions.append(.init(id: id, call: onComplete, error: failure, awaitsCommit: false)) }
        finishCompletions(core, deferred: true)
        return id
    }

    /// Cancels a queued block (it will not run) or a completion not yet called (the commit
    /// still happens). Unknown or finished ids, and the running block's own, are ignored.
    func cancelAsync(_ core: RealmCore, _ id: AsyncTransactionId) {
        core.confinement.check()
        queue.removeAll { $0.id == id }
        for i in head..<completions.count where completions[i].id == id {
            completions[i].isCancelled = true
        }
    }

    /// Runs the queued writes before a synchronous write begins, so it sees them; their
    /// completions are called on a later run-loop turn.
    func runBeforeSynchronousWrite(_ core: RealmCore) {
        precondition(!holdsGroup, "Cannot begin a write transaction inside an asynchronous write block: queue it with writeAsync instead")
        if !queue.isEmpty && !isInWriteTransaction { runGroup(core, deferCompletions: true) }
    }

    /// Calls the completions whose commits are done, now or (`deferred`) on a later turn.
    private func finishCompletions(_ core: RealmCore, deferred: Bool) {
        if !deferred { return deliverCompletions(core) }
        guard !isDeliveryScheduled, !completions.isEmpty else { return }
        isDeliveryScheduled = true
        core.confinement.schedule { [self] in
            isDeliveryScheduled = false
            deliverCompletions(core)
        }
    }

    /// Calls, front to back, the completions whose commits are done. A completion may queue
    /// or run writes, cancel a later completion, or run the run loop (which may call the
    /// next ones from inside it).
    func deliverCompletions(_ core: RealmCore) {
        core.confinement.check()
        while head < completions.count, !completions[head].awaitsCommit {
            let completion = completions[head]
            head += 1
            if !completion.isCancelled { completion.call(completion.error) }
        }
        if head == completions.count && !holdsGroup {
            completions.removeAll(keepingCapacity: true)
            head = 0
        }
    }
}
