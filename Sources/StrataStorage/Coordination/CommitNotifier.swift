import Foundation
import LMDB

/// Told by a file's notifier thread that a commit happened, in this or another process.
/// Called on the notifier thread: implementations hand the work to their own thread or queue.
package protocol CommitListener: AnyObject {
    func commitObserved()
}

/// The one notifier thread per open file per process (docs/NOTIFICATIONS.md, "Across
/// threads and processes"): it sleeps on this process's wake word in the coordination file (a
/// futex on the shared mapping), which every other process's commit increments, and then
/// tells every listener. Commits made by this process are told to the listeners by the
/// committing thread (`commitMadeHere`), without waking this thread. A timed wait is the
/// safety net for a committer killed between its LMDB commit and the wake-up: each wake-up
/// also compares LMDB's newest transaction id: the one a new snapshot gets, so a listener told
/// of a commit always finds it. After telling, the thread pauses `coalescingMicroseconds`, so
/// commits in a burst are told together. The thread runs while there are listeners.
final class CommitNotifier: @unchecked Sendable {
    // Sendable invariant: `listeners` and `isRunning` are only touched under `lock`.
    private struct Weak { weak var listener: CommitListener? }
    private let lock = NSLock()
    private var listeners: [Weak] = []
    private var isRunning = false
    /// LMDB's newest transaction id that the listeners have been told of.
    private var toldTransaction = 0
    /// The file whose commits are watched (set once, right after the file opens).
    weak var file: StorageFile?
    /// The longest the thread sleeps without a wake-up before it checks LMDB itself.
    static let safetyNetMilliseconds: Int32 = 250
    /// How long the thread pauses after telling the listeners before it sleeps on its word
    /// again. Commits made meanwhile are told together when it ends, so a burst of commits by
    /// other processes wakes this process about once per pause rather than once per commit
    /// (a woken thread per process per commit is what limits several writer processes on a
    /// few cores); a commit after a quiet moment is told at once.
    static let coalescingMicroseconds: UInt32 = 1_000

    /// Adds a listener (held weakly) and starts the thread if it is not running. The new
    /// listener is also told once right away: a commit may have landed between its snapshot
    /// and this call, and a needless call costs it only a version comparison.
    func add(_ listener: CommitListener) {
        lock.lock()
        defer { lock.unlock() }
        listeners.removeAll { $0.listener == nil }
        listeners.append(Weak(listener: listener))
        listener.commitObserved()
        guard !isRunning, let file else { return }
        isRunning = true
        // What the thread compares against is read now, before this returns: a commit made
        // after it is never missed, however late the thread starts.
        let mapping = file.coordination?.mapping
        let word = file.coordination?.wakeWordOffset ?? CoordinationLayout.commitSequenceOffset
        let awake = file.coordination?.awakeMarker
        let wakes = mapping?.load32(word) ?? 0
        toldTransaction = (try? file.environment.newestTransactionID()) ?? 0
        // The thread keeps the mapping, not the coordination file: closing that file's
        // descriptor drops this process's locks on it, which only the file's owner may do.
        let thread = Thread { [weak self] in
            self?.run(mapping, word: word, awake: awake, wakes: wakes)
        }
        thread.name = "strata.notifier"
        thread.start()
    }

    /// Tells every listener of a commit this process just made, LMDB's `transaction` (on the
    /// committing thread). A later commit of another process is told when it wakes the thread.
    func commitMadeHere(_ transaction: Int) {
        lock.lock()
        let live = listeners.compactMap(\.listener)
        toldTransaction = max(toldTransaction, transaction)
        lock.unlock()
        for listener in live { listener.commitObserved() }
    }

    /// The live listeners that have not been told of LMDB's transaction `newest` yet (empty
    /// when they have, or when `newest` could not be read); nil when none is left, and the
    /// thread is marked stopped.
    private func listenersToTell(_ newest: Int?) -> [CommitListener]? {
        lock.lock()
        defer { lock.unlock() }
        let live = listeners.compactMap(\.listener)
        if live.count != listeners.count { listeners = live.map { Weak(listener: $0) } }
        if live.isEmpty || file == nil {
            isRunning = false
            return nil
        }
        guard let newest, newest != toldTransaction else { return [] }
        toldTransaction = newest
        return live
    }

    /// The newest transaction a snapshot begun now sees; nil when the file is gone or the
    /// id cannot be read (the next wake-up tries again).
    private func newestTransactionID() -> Int? { file.flatMap { try? $0.environment.newestTransactionID() } }

    /// The thread: sleeps on `word` (whose value was `wakes` when the listeners were last
    /// told) and tells the listeners whenever LMDB's newest transaction moved past what they
    /// were told. While it is awake, `awake` (this process's slot's marker) says so, and
    /// committers leave it be (`CoordinationFile.publishCommit`): it compares `word` with
    /// `wakes` before it sleeps again, so a commit meanwhile is not missed.
    private func run(_ mapping: SharedMapping?, word: Int, awake: (offset: Int, value: UInt32)?, wakes: UInt32) {
        var wakes = wakes
        while true {
            if let mapping {
                if let awake { mapping.store32(awake.offset, 0) }
                mapping.wait(word, whileEqualTo: wakes, milliseconds: Self.safetyNetMilliseconds)
                if let awake { mapping.store32(awake.offset, awake.value) }
                wakes = mapping.load32(word)  // before LMDB is read: a later wake-up is not lost
            } else {
                // No coordination file (a read-only directory): LMDB's meta page is all there is.
                Thread.sleep(forTimeInterval: Double(Self.safetyNetMilliseconds) / 1000)
            }
            guard let listeners = listenersToTell(newestTransactionID()) else { return }
            if listeners.isEmpty { continue }
            for listener in listeners { listener.commitObserved() }
            usleep(Self.coalescingMicroseconds)
        }
    }
}
