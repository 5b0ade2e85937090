import Foundation

// `observe(on: actor)` (RealmSwift's form for actor-isolated code): the observed value is
// found again in the Realm of the same file isolated to the actor (opened there if needed),
// observed there, and each change is handed to the block isolated to the actor, with that
// Realm's value. `.initial` comes first, then one `.update` per delivery, as for `observe`.

extension Results {
    /// Observes the results from `actor`: `block` runs isolated to it, with the results of
    /// the actor's Realm. With `keyPaths`, other properties' changes are not modifications.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Results<Element>>) -> Void) async -> NotificationToken {
        await Strata.observe(self, on: actor, isolation: isolation) { $0.observe(keyPaths: keyPaths, on: nil) { change in actor.assumeIsolated { block($0, change) } } }
    }
}

extension List {
    /// Observes the list from `actor` (see `Results.observe(keyPaths:on:_:)` with an actor).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<List<Element>>) -> Void) async -> NotificationToken {
        await Strata.observe(self, on: actor, isolation: isolation) { $0.observe(keyPaths: keyPaths, on: nil) { change in actor.assumeIsolated { block($0, change) } } }
    }
}

extension MutableSet {
    /// Observes the set from `actor` (see `Results.observe(keyPaths:on:_:)` with an actor).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<MutableSet<Element>>) -> Void) async -> NotificationToken {
        await Strata.observe(self, on: actor, isolation: isolation) { $0.observe(keyPaths: keyPaths, on: nil) { change in actor.assumeIsolated { block($0, change) } } }
    }
}

extension Map {
    /// Observes the map by key from `actor` (see `Results.observe(keyPaths:on:_:)` with an
    /// actor).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmMapChange<Map<Key, Value>>) -> Void) async -> NotificationToken {
        await Strata.observe(self, on: actor, isolation: isolation) { $0.observe(keyPaths: keyPaths, on: nil) { change in actor.assumeIsolated { block($0, change) } } }
    }
}

extension LinkingObjects {
    /// Observes the objects linking here from `actor` (see `Results.observe(keyPaths:on:_:)`
    /// with an actor).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<LinkingObjects<Element>>) -> Void) async -> NotificationToken {
        await Strata.observe(self, on: actor, isolation: isolation) { $0.observe(keyPaths: keyPaths, on: nil) { change in actor.assumeIsolated { block($0, change) } } }
    }
}

extension ObservableRealmObject {
    /// Observes this object from `actor`: `block` runs isolated to it, with the object of the
    /// actor's Realm (`.change`, then `.deleted`).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void) async -> NotificationToken {
        await Strata.observe(self, on: actor, isolation: isolation) { $0.observe(keyPaths: keyPaths, on: nil) { change in actor.assumeIsolated { block($0, change) } } }
    }
}

/// Registers an observer of `value` in the Realm isolated to `actor`: `register` observes the
/// value found again there. Runs in the caller's `isolation`, where `value` is read. Traps, as
/// `observe` does, where `value` may not be observed, and when the value no longer exists in
/// that Realm's newest version.
func observe<T: Relocatable>(_ value: T, on actor: any Actor, isolation: isolated (any Actor)?,
                             register: @Sendable @escaping (T) -> NotificationToken) async -> NotificationToken {
    guard let core = value.relocationCore else {
        preconditionFailure("Only values managed by a Realm support change notifications")
    }
    checkObservable(core)
    return await observe(value.locator, core.configuration, on: actor, register: register).token
}

/// `observe(_:on:register:)`, isolated to the actor.
private func observe<T>(_ locator: @Sendable (RealmCore) -> Any?, _ configuration: Realm.Configuration,
                        on actor: isolated any Actor, register: @Sendable (T) -> NotificationToken) -> RegisteredToken {
    let core: RealmCore
    do { core = try RealmCache.core(for: configuration, actor: actor) } catch { trap(error) }
    guard let found = locator(core) as? T else {
        preconditionFailure("The observed value no longer exists in the newest version, so it cannot be observed on the actor")
    }
    return RegisteredToken(token: register(found))
}

/// The token of an observer registered on an actor, handed back to the code that asked.
private struct RegisteredToken: @unchecked Sendable {
    // Sendable invariant: the caller only keeps the token and invalidates it, which any
    // thread may do.
    let token: NotificationToken
}
