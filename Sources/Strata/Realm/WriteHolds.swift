import Glibc

/// The instances confined to this thread that are in a write transaction, kept alive until
/// it ends, as writing through temporary instances needs (`try Realm().beginWrite()`, then
/// `try Realm().create(...)`, `try Realm().commitWrite()`).
///
/// They are held in a thread-local value whose destructor runs on the thread as it exits:
/// a write the thread left open is cancelled by the thread holding LMDB's writer lock, which
/// alone can give it back.
enum WriteHolds {
    private final class Held {
        var cores: [ObjectIdentifier: RealmCore] = [:]
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { held in
            if let held { Unmanaged<Held>.fromOpaque(held).release() }
        }
        precondition(created == 0, "pthread_key_create failed (\(created))")
        return key
    }()

    /// Keeps `core` alive until `release(core)` or the end of the thread (only an instance
    /// confined to a thread: a queue's or actor's lives with its owner).
    static func hold(_ core: RealmCore) {
        guard case .thread = core.confinement.owner else { return }
        held().cores[ObjectIdentifier(core)] = core
    }

    /// Ends `hold(core)`.
    static func release(_ core: RealmCore) {
        guard case .thread = core.confinement.owner, let pointer = pthread_getspecific(key) else { return }
        Unmanaged<Held>.fromOpaque(pointer).takeUnretainedValue().cores[ObjectIdentifier(core)] = nil
    }

    /// This thread's holds, made at its first.
    private static func held() -> Held {
        if let pointer = pthread_getspecific(key) { return Unmanaged<Held>.fromOpaque(pointer).takeUnretainedValue() }
        let held = Held()
        pthread_setspecific(key, Unmanaged.passRetained(held).toOpaque())
        return held
    }
}
