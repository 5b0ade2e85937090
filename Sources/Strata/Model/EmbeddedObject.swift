import Foundation

/// An object owned by exactly one other object (RealmSwift's `EmbeddedObject`):
/// `class Address: EmbeddedObject { @Persisted var city = "" }`, held as
/// `@Persisted var address: Address?` or `@Persisted var addresses: List<Address>`.
///
/// It has no primary key and is never added on its own: assigning an unmanaged one to a
/// managed object's property adds it there; it is deleted with its owner, when the property
/// is set to another object or nil, or when it is removed from its list. Linking a managed
/// embedded object that already has an owner is an error. `Realm.objects(_:)` does not query
/// embedded classes; queries reach them through their owners (`address.city == 'Oslo'`).
open class EmbeddedObject: Object {}
