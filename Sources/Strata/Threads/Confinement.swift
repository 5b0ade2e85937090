import Foundation
import Glibc

/// Where one Realm instance may be used, and how work is brought back there: the thread that
/// opened it, the serial queue it was opened for, code isolated to the actor it was opened
/// for, or (frozen) any thread.
struct Confinement {
    /// What the instance is confined to.
    enum Owner {
        /// The thread that opened it (and its run loop).
        case thread
        /// A serial queue (`Realm(configuration:queue:)`); its blocks may run on any of the
        /// queue's threads, which find the queue's marker.
        case queue(DispatchQueue, QueueMarker)
        /// An actor (`Realm(configuration:actor:)`): any thread of the pool may run its
        /// methods, and code isolated to it may use the instance. Held weakly: the actor
        /// usually holds the Realm.
        case actor(ActorReference)
        /// Nothing: a frozen instance is readable from any thread.
        case anyThread
    }

    let owner: Owner
    /// The thread that opened the instance: the one compared on every access. For an actor,
    /// no thread (0 is never a thread's id): every access asks the actor.
    private let thread: pthread_t

    init(_ owner: Owner) {
        self.owner = owner
        if case .actor = owner { thread = 0 } else { thread = pthread_self() }
    }

    /// The serial queue the instance is confined to, if any.
    var queue: DispatchQueue? {
        if case .queue(let queue, _) = owner { return queue }
        return nil
    }

    /// The actor the instance is isolated to, if any (nil too once that actor is gone).
    var actor: (any Actor)? {
        if case .actor(let reference) = owner { return reference.actor }
        return nil
    }

    /// Whether the owner's code may run on several threads one after another (a queue or an
    /// actor), so a write must end in the stretch of code that began it.
    var movesBetweenThreads: Bool {
        switch owner {
        case .queue, .actor: true
        case .thread, .anyThread: false
        }
    }

    /// Traps unless the caller may use the instance. Threads are compared as glibc's
    /// `pthread_equal` compares them (`pthread_t` is the thread's address): inline, with no
    /// call, because this runs on every property read.
    @inline(__always)
    func check() {
        if thread != pthread_self() { checkOffOpeningThread() }
    }

    /// `check()` away from the opening thread: fine on the owning queue, or when frozen.
    private func checkOffOpeningThread() {
        switch owner {
        case .thread:
            preconditionFailure("Realm accessed from incorrect thread: a Realm, its objects and results are confined to the thread that opened them; pass a ThreadSafeReference or open a new Realm on this thread")
        case .queue(_, let marker):
            precondition(marker.isCurrent, "Realm accessed from incorrect thread: this Realm is confined to the queue it was opened for (Realm(configuration:queue:)); use it only from blocks running on that queue")
        case .actor(let reference):
            guard let actor = reference.actor else {
                preconditionFailure("Realm accessed after the actor it was isolated to (Realm(configuration:actor:)) was released")
            }
            if reference.isMainActor {
                // The main actor runs on the main thread alone: off it is outside the actor.
                precondition(Thread.isMainThread, "Realm accessed from outside its actor: this Realm is isolated to the main actor; use it only from @MainActor code")
                return
            }
            // No query short of a trap tells whether the caller is isolated to `actor`: the
            // runtime traps, naming the actor's type, when it is not.
            actor.preconditionIsolated("Realm accessed from outside its actor: this Realm is isolated to the actor it was opened for (Realm(configuration:actor:)); use it only from code isolated to that actor")
        case .anyThread:
            return
        }
    }

    /// Whether code isolated to `isolation` (the caller's `#isolation`) may use the instance:
    /// it runs on the thread that opened the instance or on its queue, or is isolated to its
    /// actor.
    func isCurrent(isolatedTo isolation: (any Actor)?) -> Bool {
        switch owner {
        case .actor(let reference):
            guard let isolation, let actor = reference.actor else { return false }
            return isolation === actor
        case .queue(_, let marker):
            return pthread_equal(thread, pthread_self()) != 0 || marker.isCurrent
        case .thread, .anyThread:
            return pthread_equal(thread, pthread_self()) != 0
        }
    }

    /// Runs `block` later in the owner's context: on its queue, in a task isolated to its
    /// actor, or on the current thread's run loop (after which the
    /// `RunLoop.run(mode:before:)` call that ran it returns). Called in the owner's context.
    func schedule(_ block: @escaping () -> Void) {
        switch owner {
        case .queue(let queue, _):
            let sent = OwnerBoundBlock(block)
            queue.async { sent.run() }
        case .actor(let reference):
            guard let actor = reference.actor else { return }  // nothing can use the instance now
            Self.run(OwnerBoundBlock(block), on: actor)
        case .thread, .anyThread:
            RunLoop.current.perform {
                block()
                Self.returnFromRunLoop()
            }
        }
    }

    /// Runs `block` in a new task isolated to `actor`.
    static func run(_ block: OwnerBoundBlock, on actor: any Actor) {
        Task { await actor.runConfined(block) }
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

/// A block sent to run in the context of a queue- or actor-confined instance: in a block on
/// its serial queue, or isolated to its actor.
struct OwnerBoundBlock: @unchecked Sendable {
    // Sendable invariant: made where the instance's `check()` passes (or capturing only
    // Sendable state) and run only by `Confinement.schedule` or `CommitWaker` in the owner's
    // context: on the instance's serial queue, or isolated to its actor. So the state it
    // captures is touched in the owner's context alone, one block at a time.
    private let block: () -> Void

    init(_ block: @escaping () -> Void) { self.block = block }

    func run() { block() }
}

/// A weak reference to the actor an instance is isolated to.
final class ActorReference: Sendable {
    /// The actor, while it lives.
    weak let actor: (any Actor)?
    /// Whether the actor is the main actor, whose code runs on the main thread alone.
    let isMainActor: Bool

    init(_ actor: any Actor) {
        self.actor = actor
        isMainActor = actor === MainActor.shared
    }
}

extension Actor {
    /// Runs `block`, sent here for the instance isolated to this actor.
    fileprivate func runConfined(_ block: OwnerBoundBlock) { block.run() }
}
