import Foundation

extension Realm {
    /// Whether this Realm is frozen: it reads one version forever, from any thread, and
    /// refuses writes and observers.
    public var isFrozen: Bool { core.isFrozen }

    /// The frozen Realm at this Realm's current version (inside a write: the version the
    /// write started from). Freezing again at the same version gives the same Realm. The
    /// version stays readable, and pinned in the file, until the frozen Realm and everything
    /// read from it are released.
    public func freeze() -> Realm { Realm(core: core.frozen()) }

    /// The live Realm of this file on the current thread (this Realm if it is live).
    public func thaw() -> Realm { Realm(core: core.thawed()) }

    /// `obj.freeze()` for any managed object.
    public func freeze<T: ObjectBase>(_ obj: T) -> T { obj.frozenObject() as! T }

    /// `obj.thaw()` for any managed object: the live object in the current thread's Realm, or
    /// nil if it was deleted.
    public func thaw<T: ObjectBase>(_ obj: T) -> T? { obj.thawedObject().map { $0 as! T } }

    /// `collection.freeze()`.
    public func freeze<Collection: RealmCollection>(_ collection: Collection) -> Collection { collection.freeze() }
}
