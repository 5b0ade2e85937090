import StrataStorage

extension RealmCore {
    /// The accessor of the object that link property `index` of a `binding` object points at.
    func linkedObject(_ binding: TableBinding, _ index: Int, _ key: ObjectKey) -> ObjectBase {
        guard let targetType = binding.info.properties[index].linkTarget,
              let target = reading({ try self.binding(for: ModelClass.forType(targetType)) }) else {
            preconditionFailure("The target class of '\(binding.info.name).\(binding.info.properties[index].name)' is missing from the file")
        }
        return object(ObjectBase.self, target, key)
    }

    /// The object key to store for a link to `object`: its own if it is managed by this
    /// Realm's file; an unmanaged object is added first (with its graph). Throws for an object
    /// of another file or one that was deleted.
    func linkKey(for object: ObjectBase) throws -> ObjectKey {
        guard let owner = object.managingCore else {
            return try GraphWrite.run(self) { try $0.add(object, update: .error) }
        }
        guard owner.file === file else {
            throw Realm.Error(.invalidInput, "Cannot link to an object managed by another Realm ('\(owner.path)')")
        }
        if object.isInvalidated {
            throw Realm.Error(.invalidInput, "Cannot link to an object that has been deleted or invalidated")
        }
        return object.objectKey
    }
}
