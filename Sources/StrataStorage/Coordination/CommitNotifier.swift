import Foundation
import LMDB

/// Told by a file's notifier thread that a commit happened, in this or another process.
/// Called on the notifier thread: implementations hand the work to their own thread or queue.
package protocol CommitListener: AnyObject {
    func commitObserved()
}

/// The one notifier thread per open file per process (docs/NOTIFICATIONS.md, "Across
/// processes"): it sleeps on the coordination file's commit sequence (a futex on the shared
/// mapping), and when any process commits, tells every listener. A timed wait is the safety
/// net for a committer killed between its LMDB commit and publishing it: each wake-up also
/// compares LMDB's newest transaction id. The thread runs while there are listeners.
final class CommitNotifier: @unchecked Sendable {
    // Sendable invariant: `listeners` and `isRunning` are only touched under `lock`.
    private struct Weak { weak var listener: CommitListener? }
    private let lock = NSLock()
    private var listeners: [Weak] = []
    private var isRunning = false
    /// The file whose commits are watched (set once, right after the file opens).
    weak var file: StorageFile?
    /// The longest the thread sleeps without a wake-up before it checks LMDB itself.
    static let safetyNetMilliseconds: Int32 = 250

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
        let sequence = mapping?.load32(CoordinationLayout.commitSequenceOffset) ?? 0
        let transaction = file.environment.lastTransactionID
        // The thread keeps the mapping, not the coordination file: closing that file's
        // descriptor drops this process's locks on it, which only the file's owner may do.
        let thread = Thread { [weak self] in
            self?.run(mapping, sequence: sequence, transaction: transaction)
        }
        thread.name = "strata.notifier"
        thread.start()
    }

    /// The live listeners; when none is left the thread is marked stopped and nil returned.
    private func liveListeners() -> [CommitListener]? {
        lock.lock()
        defer { lock.unlock() }
        let live = listeners.compactMap(\.listener)
        listeners = live.map { Weak(listener: $0) }
        if live.isEmpty || file == nil {
            isRunning = false
            return nil
        }
        return live
    }

    private func lastTransactionID() -> Int? { file?.environment.lastTransactionID }

    private func run(_ mapping: SharedMapping?, sequence: UInt32, transaction: Int) {
        let word = CoordinationLayout.commitSequenceOffset
        var sequence = sequence, transaction = transaction
        while true {
            if let mapping {
                mapping.wait(word, whileEqualTo: sequence, milliseconds: Self.safetyNetMilliseconds)
                sequence = mapping.load32(word)
            } else {
                // No coordination file (a read-only directory): LMDB's meta page is all there is.
                Thread.sleep(forTimeInterval: Double(Self.safetyNetMilliseconds) / 1000)
            }
            let newest = lastTransactionID() ?? transaction
            let committed = newest != transaction
            transaction = newest
            guard let listeners = liveListeners() else { return }
            if committed {
                for listener in listeners { listener.commitObserved() }
            }
        }
    }
}
