import Synchronization

/// This process's write transactions on one file, counted so that a task can wait for its
/// turn to write without blocking its thread.
///
/// LMDB's write lock can be waited for only by blocking in `mdb_txn_begin`, which no task
/// cancellation reaches and which keeps the waiting thread (and the actor running on it) from
/// doing anything else. `waitForTurn()` suspends instead while a write of this process is
/// open, and is woken when it ends. Writers of other processes are not seen here: the write
/// that follows still waits for them inside LMDB.
package final class WriteTurns: Sendable {
    private struct State {
        /// Write transactions of this process begun, or waiting for LMDB's lock, and not
        /// ended yet.
        var open = 0
        /// Tasks waiting for `open` to fall to zero, by waiter number.
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var lastWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// A turn taken: the write it stands for is open until the turn is given up (`end()`,
    /// or when the turn goes away).
    final class Turn {
        private var turns: WriteTurns?

        fileprivate init(_ turns: WriteTurns) { self.turns = turns }

        /// Ends the turn (once: later calls do nothing).
        func end() {
            turns?.leave()
            turns = nil
        }

        deinit { end() }
    }

    /// Counts a write transaction about to begin, until the turn returned is given up.
    func take() -> Turn {
        state.withLock { $0.open += 1 }
        return Turn(self)
    }

    private func leave() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.open -= 1
            guard state.open == 0 else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns when no write transaction of this process is open on the file (at once when
    /// none is); throws `CancellationError` if the task is cancelled first.
    package func waitForTurn() async throws {
        while true {
            let waiter = state.withLock { state -> UInt64? in
                guard state.open > 0 else { return nil }
                state.lastWaiter &+= 1
                return state.lastWaiter
            }
            guard let waiter else { return }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let ready = state.withLock { state -> Bool? in
                        // Cancelled before the handler could find this waiter: it never will.
                        if Task.isCancelled { return false }
                        if state.open == 0 { return true }
                        state.waiters[waiter] = continuation
                        return nil
                    }
                    switch ready {
                    case true?: continuation.resume()
                    case false?: continuation.resume(throwing: CancellationError())
                    case nil: break
                    }
                }
            } onCancel: {
                state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(throwing: CancellationError())
            }
        }
    }
}
