import Foundation
import StrataStorage
import Synchronization

/// Carries a commit seen by the file's notifier thread (any process's commit) to one Realm
/// instance's thread: it schedules one timer on that thread's run loop (a timer added from
/// another thread wakes a sleeping run loop; a `perform` block does not), one block on the
/// queue of a queue-confined Realm, or one task isolated to the actor of an actor-isolated
/// Realm, and the Realm then
/// refreshes itself (`autorefresh`) and delivers its notifications, or reports
/// `.refreshRequired`. Commits that arrive while a wake-up is pending coalesce into it.
final class CommitWaker: CommitListener, @unchecked Sendable {
    // Sendable invariant: `isPending` is a mutex; `token` is only dereferenced on the
    // Realm's thread, inside the timer, and `target` is only used to schedule there.
    /// Where the Realm runs.
    enum Target {
        case runLoop(RunLoop)
        case queue(DispatchQueue)
        case actor(ActorReference)
    }
    private let target: Target
    private weak var token: RealmCore.Token?
    /// Whether a wake-up is scheduled and has not run yet.
    private let isPending = Mutex(false)

    /// A waker for `core`, made in its context: for a thread-confined core, on its thread.
    init(_ core: RealmCore) {
        switch core.confinement.owner {
        case .queue(let queue, _): target = .queue(queue)
        case .actor(let reference): target = .actor(reference)
        case .thread, .anyThread: target = .runLoop(RunLoop.current)
        }
        token = core.token
    }

    func commitObserved() {
        isPending.withLock { isPending in
            guard !isPending else { return }
            isPending = true
            schedule()
        }
    }

    /// Schedules one wake-up on the Realm's run loop, queue or actor.
    private func schedule() {
        switch target {
        case .runLoop(let runLoop):
            runLoop.add(Timer(timeInterval: 0, repeats: false) { [weak self] _ in
                self?.fire()
                Confinement.returnFromRunLoop()  // as after every delivery (NOTIFICATIONS.md)
            }, forMode: .default)
        case .queue(let queue):
            queue.async { [weak self] in self?.fire() }
        case .actor(let reference):
            guard let actor = reference.actor else { return }
            Confinement.run(OwnerBoundBlock { [weak self] in self?.fire() }, on: actor)
        }
    }

    private func fire() {
        isPending.withLock { $0 = false }
        token?.core?.commitObserved()
    }
}
