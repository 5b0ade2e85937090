import Foundation
import StrataStorage

/// Managed values confined to the thread of their Realm (objects, `Results`, `List`,
/// `LinkingObjects`): they cross threads frozen (`freeze()`) or through a
/// `ThreadSafeReference` (RealmSwift's `ThreadConfined`).
public protocol ThreadConfined {
    /// The Realm managing the value; nil when it is unmanaged.
    var realm: Realm? { get }
    /// Whether the value can no longer be read (its object was deleted).
    var isInvalidated: Bool { get }
    /// Whether the value is frozen: an immutable snapshot readable from any thread.
    var isFrozen: Bool { get }
    /// An immutable snapshot of the value at its Realm's current version, readable from any
    /// thread; it keeps that version pinned until released.
    func freeze() -> Self
    /// The live value in the current thread's Realm (nil when it no longer exists there); a
    /// live value returns itself.
    func thaw() -> Self?
}

/// A managed value reduced to what finds it again in another instance of its file: a class
/// and an object key, a query and its source, or a list's owner and property. `thaw()` and
/// `ThreadSafeReference` use it; the locator holds no Realm instance, so it may cross threads
/// and pins nothing.
protocol Relocatable {
    /// The instance the value belongs to; nil when it is unmanaged.
    var relocationCore: RealmCore? { get }
    /// Finds the value in an instance of the same file; nil when it does not exist there.
    var locator: @Sendable (RealmCore) -> Any? { get }
}

extension Relocatable {
    /// The value found again in `core` (an instance of the same file), as `T`.
    func relocated<T>(to core: RealmCore, as _: T.Type = T.self) -> T? { locator(core) as? T }
}

extension RealmCore {
    /// A new accessor for object `key` of class `info` in this instance, or nil when the
    /// object does not exist in its snapshot.
    func existingObject(_ info: ModelClass, _ key: ObjectKey) -> ObjectBase? {
        guard let binding = reading({ try binding(for: info) }),
              let row = reading({ try self.row(binding, key) }) else { return nil }
        return object(ObjectBase.self, binding, key, row: row)
    }
}
