import Foundation
import Synchronization

/// The token of an observer registered on another queue (`observe(on: queue)`): returned at
/// once, while the registration runs on the queue when it gets there (as RealmSwift's does,
/// so a busy queue does not block the caller). Invalidating it before then cancels the
/// registration.
final class QueuedRegistration: NotificationToken, @unchecked Sendable {
    private struct State {
        var observer: NotificationToken?
        var isInvalidated = false
    }

    private let state = Mutex(State())

    /// The registered observer's token, once registered.
    var registered: NotificationToken? { state.withLock { $0.observer } }

    /// Runs `register` (on the queue) unless the token was invalidated first.
    func register(_ register: () -> NotificationToken?) {
        state.withLock { state in
            guard !state.isInvalidated else { return }
            state.observer = register()
        }
    }

    override func invalidate() {
        let observer = state.withLock { state in
            state.isInvalidated = true
            return state.observer
        }
        observer?.invalidate()
    }
}

extension NotificationToken {
    /// The observer this token stands for, once registered (a `QueuedRegistration`'s
    /// observer when the queue has registered it).
    var registeredObserver: Observer? {
        (self as? Observer) ?? ((self as? QueuedRegistration)?.registered as? Observer)
    }
}
