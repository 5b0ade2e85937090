import Foundation
import StrataStorage

extension ObjectBase: Relocatable {
    var relocationCore: RealmCore? { managingCore }

    var locator: @Sendable (RealmCore) -> Any? {
        guard let binding else { preconditionFailure("Unmanaged objects cannot be frozen.") }
        let info = binding.info, key = objectKey
        return { core in core.existingObject(info, key) }
    }

    /// This object in the frozen Realm at its Realm's current version (itself if frozen).
    /// Traps when unmanaged, deleted, or created in the write transaction still open (the
    /// frozen version is the one that write started from).
    func frozenObject() -> ObjectBase {
        guard let core = managingCore else { preconditionFailure("Unmanaged objects cannot be frozen.") }
        if core.isFrozen { return self }
        _ = currentRow()  // checks the thread; traps if the object was deleted
        guard let frozen = relocated(to: core.frozen(), as: ObjectBase.self) else {
            preconditionFailure("Cannot freeze an object created in the current write transaction: commit the write first")
        }
        return frozen
    }

    /// This object in the current thread's live Realm (itself if live); nil when it does not
    /// exist in that Realm's snapshot (deleted since, or not yet seen there).
    func thawedObject() -> ObjectBase? {
        guard let core = managingCore else { preconditionFailure("Unmanaged objects cannot be thawed.") }
        guard core.isFrozen else { return self }
        return relocated(to: core.thawed())
    }
}

extension Object: ThreadConfined {
    /// Whether the object belongs to a frozen Realm (unmanaged objects are not frozen).
    public var isFrozen: Bool { managingCore?.isFrozen ?? false }

    /// The object as it is in this version, immutable and readable from any thread; writing
    /// to it traps. Traps when the object is unmanaged or deleted.
    public func freeze() -> Self { frozenObject() as! Self }

    /// The live object in the current thread's Realm, or nil if it was deleted (or is not in
    /// that Realm's snapshot yet: `refresh()` it). A live object returns itself.
    public func thaw() -> Self? { thawedObject().map { $0 as! Self } }
}
