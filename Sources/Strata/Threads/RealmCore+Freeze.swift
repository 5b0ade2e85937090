import StrataStorage
import Synchronization

extension RealmCore {
    /// The frozen instance at this instance's version: the one already alive in the process
    /// for this file and version if any (so freezing twice gives the same Realm), otherwise a
    /// new one reading a `FrozenSnapshot` of this instance's transaction. The version stays
    /// pinned until the frozen instance and everything read from it are released.
    func frozen() -> RealmCore {
        if isFrozen { return self }
        confinement.check()
        do {
            let live = try translatingErrors(path: path) { try transaction() }
            return try FrozenCores.core(path: path, readOnly: configuration.readOnly, version: live.version) {
                let snapshot = try translatingErrors(path: path) { try FrozenSnapshot(of: live, in: file) }
                return RealmCore(frozenFrom: self, snapshot: snapshot)
            }
        } catch { trap(error) }
    }

    /// The live instance of this file on the current thread (this one unless frozen).
    func thawed() -> RealmCore {
        guard isFrozen else { return self }
        do { return try RealmCache.core(for: configuration) } catch { trap(error) }
    }
}

/// The frozen instances alive in the process, one per file and version, held weakly: a frozen
/// instance goes (and its snapshot ends) when nothing uses it any more.
private enum FrozenCores {
    private struct Key: Hashable {
        let path: String
        let readOnly: Bool
        let version: UInt64
    }

    /// A weak reference is safe here: loading one whose target is being destroyed on another
    /// thread gives nil.
    private struct Weak { weak var core: RealmCore? }

    private static let cores = Mutex<[Key: Weak]>([:])

    /// The instance for `path` at `version`, made by `make` when none is alive.
    static func core(path: String, readOnly: Bool, version: UInt64, make: () throws -> RealmCore) throws -> RealmCore {
        let key = Key(path: path, readOnly: readOnly, version: version)
        return try cores.withLock { cores in
            if let core = cores[key]?.core { return core }
            let core = try make()
            cores = cores.filter { $0.value.core != nil }
            cores[key] = Weak(core: core)
            return core
        }
    }
}
