import Foundation
import Glibc

/// Where one Realm instance may be used, and how work is brought back there: the thread that
/// opened it, the serial queue it was opened for, or (frozen) any thread.
struct Confinement {
    /// What the instance is confined to.
    enum Owner {
        /// The thread that opened it (and its run loop).
        case thread
        /// A serial queue (`Realm(configuration:queue:)`); its blocks may run on any of the
        /// queue's threads, which find the queue's marker.
        case queue(DispatchQueue, QueueMarker)
        /// Nothing: a frozen instance is readable from any thread.
        case anyThread
    }

    let owner: Owner
    /// The thread that opened the instance: the one compared on every access.
    private let thread: pthread_t

    init(_ owner: Owner) {
        self.owner = owner
        thread = pthread_self()
    }

    /// Confinement to `queue`, or to the calling thread when there is none.
    init(queue: DispatchQueue?) {
        self.init(queue.map { .queue($0, QueueMarker.of($0)) } ?? .thread)
    }

    /// The serial queue the instance is confined to, if any.
    var queue: DispatchQueue? {
        if case .queue(let queue, _) = owner { return queue }
        return nil
    }

    /// Traps unless the caller may use the instance.
    @inline(__always)
    func check() {
        if pthread_equal(thread, pthread_self()) == 0 { checkOffOpeningThread() }
    }

    /// `check()` away from the opening thread: fine on the owning queue, or when frozen.
    private func checkOffOpeningThread() {
        switch owner {
        case .thread:
            preconditionFailure("Realm accessed from incorrect thread: a Realm, its objects and results are confined to the thread that opened them; pass a ThreadSafeReference or open a new Realm on this thread")
        case .queue(_, let marker):
            precondition(marker.isCurrent, "Realm accessed from incorrect thread: this Realm is confined to the queue it was opened for (Realm(configuration:queue:)); use it only from blocks running on that queue")
        case .anyThread:
            return
        }
    }

    /// Whether the caller runs on the thread that opened the instance, or on its queue.
    var isCurrent: Bool {
        if pthread_equal(thread, pthread_self()) != 0 { return true }
        if case .queue(_, let marker) = owner { return marker.isCurrent }
        return false
    }

    /// Runs `block` later in the owner's context: on its queue, or on the current thread's
    /// run loop (after which the `RunLoop.run(mode:before:)` call that ran it returns).
    /// Called in the owner's context.
    func schedule(_ block: @escaping () -> Void) {
        guard case .queue(let queue, _) = owner else {
            return RunLoop.current.perform {
                block()
                Self.returnFromRunLoop()
            }
        }
        let sent = QueueBoundBlock(block)
        queue.async { sent.run() }
    }

    /// Makes the `RunLoop.run(mode:before:)` call that ran a scheduled block return, as it
    /// does after handling an input source: a block scheduled with `perform` does not count
    /// as one, and a caller waiting for completions would otherwise wait until its date.
    /// `RunLoop.run()` and `run(until:)` keep running.
    static func returnFromRunLoop() {
        #if os(Linux)
        RunLoop.current._stop()
        #else
        CFRunLoopStop(CFRunLoopGetCurrent())
        #endif
    }
}

/// A block made in a queue-confined instance's context and sent to run in a block on its
/// serial queue, which is that same context.
private struct QueueBoundBlock: @unchecked Sendable {
    // Sendable invariant: made where the instance's `check()` passes and run only by
    // `Confinement.schedule`'s block on the instance's serial queue, so the state it
    // captures is touched in the owner's context alone, one block at a time.
    private let block: () -> Void

    init(_ block: @escaping () -> Void) { self.block = block }

    func run() { block() }
}
