import Foundation

extension Realm {
    /// Moves this Realm to the newest version (RealmSwift's `asyncRefresh()`), and tells its
    /// observers what changed before returning. Returns whether the version changed.
    ///
    /// Call it where the Realm may be used, as `asyncWrite`: isolated to the actor of an
    /// actor-isolated Realm, or on the thread that opened a thread-confined one; elsewhere it
    /// traps. Reading the newest version never waits for a writer, so this does not suspend.
    @discardableResult
    public func asyncRefresh(isolation: isolated (any Actor)? = #isolation) async -> Bool {
        guard core.confinement.isCurrent(isolatedTo: isolation) else {
            preconditionFailure("asyncRefresh() can only be called on main thread or actor-isolated Realms: call it where the Realm may be used, isolated to the actor of an actor-isolated Realm, or on the thread that opened the Realm")
        }
        guard refresh() else { return false }
        core.notifications.deliver(core)
        return true
    }
}
