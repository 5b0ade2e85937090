import Foundation

/// Realms isolated to an actor.
///
/// An actor's methods run on whichever thread of the cooperative pool is free, so such a
/// Realm is confined to the actor, not to a thread: any code isolated to the actor may use
/// it, its objects and its results, and anything else traps (`Confinement`). Its change
/// notifications, `writeAsync` blocks and completions run in tasks isolated to the actor.
extension Realm {
    /// Opens the Realm of `configuration` isolated to `actor` (RealmSwift's actor-isolated
    /// Realm): one instance per actor and configuration. Opening, and creating, compacting or
    /// migrating the file, happen off the caller on a queue of their own, so the calling
    /// executor is not blocked meanwhile. The caller need not be isolated to `actor`, but only
    /// code isolated to it can use the Realm. Throws what `init(configuration:)` throws.
    public init<A: Actor>(configuration: Configuration = .defaultConfiguration, actor: A,
                          isolation: isolated (any Actor)? = #isolation) async throws {
        let opening = try await Self.openOffCaller(configuration)
        core = try await RealmCache.core(for: configuration, actor: actor)
        withExtendedLifetime(opening) {}
    }

    /// Opens the Realm of `configuration` isolated to the main actor, off the main actor as
    /// `init(configuration:actor:)` does: RealmSwift's `try await Realm()` on the main actor.
    ///
    /// Strata: an `async` initialiser beside the synchronous `init(configuration:queue:)`
    /// would be chosen for every `try Realm(configuration:)` written in async code (Swift
    /// prefers the async overload there), turning each into an error outside the main actor,
    /// so the main actor's Realm is opened here or with `Realm(configuration:actor:)`.
    @MainActor
    public static func asyncOpen(configuration: Configuration = .defaultConfiguration) async throws -> Realm {
        try await Realm(configuration: configuration, actor: MainActor.shared)
    }

    /// RealmSwift's `Realm.open(configuration:)`: the same as `asyncOpen(configuration:)`, the
    /// main actor's Realm opened off the main actor. (RealmSwift's `downloadBeforeOpen` is
    /// about synchronised Realms, which Strata does not have.)
    @MainActor
    public static func open(configuration: Configuration = .defaultConfiguration) async throws -> Realm {
        try await asyncOpen(configuration: configuration)
    }

    /// `openOnOwnQueue`, awaited. The instance returned, confined to that queue, only keeps
    /// the file open until the caller's own instance is made.
    private static func openOffCaller(_ configuration: Configuration) async throws -> Realm {
        try await withCheckedThrowingContinuation { continuation in
            openOnOwnQueue(configuration) { continuation.resume(with: $0) }
        }
    }
}
