import Synchronization

/// A managed object or collection that any thread may read (RealmSwift's `@ThreadSafe`):
/// `@ThreadSafe var dog = realm.objects(Dog.self).first`. Each read finds the value again in
/// the reading thread's Realm of the same file (at least as new as the value was when it was
/// stored), so the wrapper may be captured by a block that runs elsewhere; an object deleted
/// since reads nil. A frozen value is kept as it is (it is readable anywhere already).
@propertyWrapper
public final class ThreadSafe<T: ThreadConfined>: @unchecked Sendable {
    /// What finds the value again, or the frozen value itself. Guarded: any thread may read
    /// or set the wrapper.
    private let stored = Mutex<StoredValue?>(nil)

    /// How a stored value is found in another thread's Realm.
    private enum StoredValue {
        case live(configuration: Realm.Configuration, version: UInt64, madeInWrite: Bool,
                  locator: @Sendable (RealmCore) -> Any?)
        case frozen(T)
    }

    /// Wraps `wrappedValue`, which must be managed (or nil).
    public init(wrappedValue: T?) {
        self.wrappedValue = wrappedValue
    }

    /// The value in the current thread's Realm; nil when it was set to nil or no longer
    /// exists there. Setting it takes a managed value used on its own thread, or nil; an
    /// unmanaged value traps ("Only managed objects may be wrapped as thread safe.").
    public var wrappedValue: T? {
        get {
            guard let value = stored.withLock({ $0 }) else { return nil }
            switch value {
            case .frozen(let frozen):
                return frozen
            case .live(let configuration, let version, let madeInWrite, let locator):
                let core: RealmCore
                do { core = try RealmCache.core(for: configuration) } catch { trap(error) }
                if !core.writes.isInWriteTransaction && (core.version < version || (madeInWrite && core.version == version)) {
                    Realm(core: core).refresh()
                }
                noteRead(at: core)
                return locator(core) as? T
            }
        }
        set {
            stored.withLock { $0 = newValue.map(Self.storedValue) }
        }
    }

    /// Raises the version a later read starts from to `core`'s (as RealmSwift wraps the
    /// value again on each read): what a thread changed while reading the value through the
    /// wrapper, in a write that then committed, is what the next reader sees, wherever it is.
    private func noteRead(at core: RealmCore) {
        let version = core.version, inWrite = core.writes.isInWriteTransaction
        stored.withLock { value in
            guard case .live(let configuration, let stored, let madeInWrite, let locator)? = value,
                  version > stored || (version == stored && inWrite && !madeInWrite) else { return }
            value = .live(configuration: configuration, version: version, madeInWrite: inWrite, locator: locator)
        }
    }

    private static func storedValue(of value: T) -> StoredValue {
        guard let relocatable = value as? Relocatable, let core = relocatable.relocationCore else {
            preconditionFailure("Only managed objects may be wrapped as thread safe.")
        }
        core.confinement.check()
        if value.isInvalidated { preconditionFailure("Cannot wrap an invalidated object as thread safe.") }
        if value.isFrozen { return .frozen(value) }
        return .live(configuration: core.configuration, version: core.version,
                     madeInWrite: core.writes.isInWriteTransaction, locator: relocatable.locator)
    }
}
