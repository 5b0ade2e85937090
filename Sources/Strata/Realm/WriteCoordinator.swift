import Glibc
import StrataStorage

/// The writes of one Realm instance: its write transaction, begun, committed and cancelled
/// here, whether by a synchronous write or by a group of queued asynchronous blocks
/// (`WriteCoordinator+Async.swift`), and the completions of asynchronous writes.
///
/// Touched only in the instance's context; each operation is given the instance it serves.
final class WriteCoordinator {
    /// A queued asynchronous block.
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
        /// When the block committed a part of its writes and then began writing again: how
        /// many of `completions` that part (or those parts) gave. The part joins the group
        /// whatever becomes of the rest, and its completions hear only the group's commit.
        var keptCompletions: Int?
        /// Completions given by `commitAsyncWrite` inside the block.
        var completions: [(AsyncTransactionId, (Swift.Error?) -> Void)] = []
        var description: String?
    }

    /// Whether writes are allowed now. Inside an asynchronous write block that committed or
    /// cancelled, this is false while the group's transaction stays open.
    var isInWriteTransaction = false
    /// On a queue-confined instance, the thread that began the open write transaction: LMDB's
    /// writer lock must be released by the thread that took it.
    private var writeThread: pthread_t?
    /// The queued asynchronous blocks.
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

    /// Whether queued asynchronous writes or their completions are still to run.
    var isBusy: Bool { !queue.isEmpty || holdsGroup || completions[head...].contains { !$0.isCancelled } }

    /// Starts `core`'s write transaction (waiting for other writers) on the newest version.
    func begin(_ core: RealmCore) throws {
        core.confinement.check()
        precondition(!isInWriteTransaction, "The Realm is already in a write transaction")
        precondition(!holdsGroup, "Cannot begin a write transaction inside an asynchronous write block: queue it with writeAsync instead")
        core.endTransaction()
        let txn = try translatingErrors(path: core.path) { try core.file.beginWrite() }
        if let validated = core.validatedSchema, txn.schema != validated, let problem = try translatingErrors(path: core.path, { try core.schemaChangeProblem(txn) }) {
            txn.abort()
            throw Realm.Error(.schemaMismatch, problem, path: core.path)
        }
        core.snapshot.hold(txn)
        isInWriteTransaction = true
        WriteHolds.hold(core)
        if core.confinement.movesBetweenThreads { writeThread = pthread_self() }
    }

    /// Marks `core`'s write transaction ended.
    private func ended(_ core: RealmCore) {
        isInWriteTransaction = false
        WriteHolds.release(core)
    }

    /// Traps when a queue- or actor-confined instance ends a write on another thread than the
    /// one that began it (the queue or actor moved to another thread, which cannot release
    /// LMDB's lock): in another queue block, or after a suspension point of the actor.
    private func checkWriteThread() {
        guard let writeThread else { return }
        precondition(pthread_equal(writeThread, pthread_self()) != 0, "A write transaction of a queue- or actor-confined Realm must end in the queue block, or before the suspension point of the actor's code, that began it")
        self.writeThread = nil
    }

    /// Commits `core`'s write transaction; afterwards it reads the version it committed
    /// (RealmSwift's snapshot isolation: later commits made elsewhere wait for a refresh).
    /// The `Realm.observe` blocks run before this returns, except those of `skipping`, which
    /// take the new version as seen; the other observers hear on a later turn.
    func commit(_ core: RealmCore, description: String? = nil, skipping tokens: [NotificationToken] = []) throws {
        core.confinement.check()
        precondition(isInWriteTransaction, "Can't commit a non-existing write transaction")
        if holdsGroup { return finishBlock(committing: true, description: description) }
        checkWriteThread()
        defer { scheduleRun(core) }
        let txn = core.snapshot.transaction!
        txn.commitDescription = description
        let skippedElsewhere = tokens.isEmpty ? [] : SkippedWrite.register(tokens, committing: core)
        let committed: UInt64
        do {
            committed = try translatingErrors(path: core.path) { try txn.commit(processName: RealmCore.processName, pid: ProcessIdentity.current.pid) }
        } catch {
            for skipped in skippedElsewhere { skipped.abandoned() }
            txn.abort()
            core.dropBindings()
            ended(core)
            core.snapshot.forget()
            throw error
        }
        ended(core)
        core.snapshot.forget()
        core.holdCommittedVersion()
        core.recentCommits.note(committed)
        for skipped in skippedElsewhere { skipped.committed(core) }
        core.notifications.committed(core, skipping: tokens)
    }

    /// Abandons `core`'s write transaction: nothing it did is kept.
    func cancel(_ core: RealmCore) {
        core.confinement.check()
        precondition(isInWriteTransaction, "Can't cancel a non-existing write transaction")
        if holdsGroup { return finishBlock(committing: false, description: nil) }
        checkWriteThread()
        defer { scheduleRun(core) }
        ended(core)
        core.endTransaction()
        core.dropBindings()  // tables first created by the cancelled write are gone
    }
}
