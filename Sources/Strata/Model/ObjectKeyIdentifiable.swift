/// Objects identified by their stored object (RealmSwift's `ObjectKeyIdentifiable`, which
/// SwiftUI-style code declares on models: `final class Dog: Object, ObjectKeyIdentifiable`).
/// The `id` of a managed object is the same for every accessor of it in this process, live
/// or frozen; an unmanaged object's is its instance's.
public protocol ObjectKeyIdentifiable: Identifiable, ObjectBase {}

extension ObjectKeyIdentifiable {
    /// The identity: the class and object key of a managed object, the instance otherwise.
    public var id: UInt64 {
        guard let binding else { return UInt64(UInt(bitPattern: ObjectIdentifier(self).hashValue)) }
        var hasher = Hasher()
        hasher.combine(binding.info.name)
        hasher.combine(objectKey)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }
}
