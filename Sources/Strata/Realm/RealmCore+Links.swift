import StrataStorage

extension RealmCore {
    /// The binding of the class that link property `index` of a `binding` object points at.
    func linkTarget(_ binding: TableBinding, _ index: Int) -> TableBinding {
        guard let targetType = binding.info.properties[index].linkTarget,
              let target = reading({ try self.binding(for: self.modelClass(targetType)) }) else {
            preconditionFailure("The target class of '\(binding.info.name).\(binding.info.properties[index].name)' is missing from the file")
        }
        return target
    }

    /// The accessor of object `key` of stored class `className`, which a mixed value holds:
    /// of the model class of that name when the program declares one, otherwise a
    /// `DynamicObject`.
    func heldObject(_ className: String, _ key: ObjectKey) -> ObjectBase {
        guard let binding = reading({ try heldObjectBinding(className) }) else {
            preconditionFailure("'\(path)' is damaged: a mixed value holds a '\(className)' object, a class the file does not have; run `strata check \(path)`")
        }
        return object(ObjectBase.self, binding, key)
    }

    /// The value to store for a link to `object` in `property`: its key, or in a mixed
    /// property its class and key (`Value.typedLink`). An unmanaged object is added first.
    func storedLink(to object: ObjectBase, in property: PropertySchema) throws -> Value {
        let key = try linkKey(for: object)
        guard property.type == .mixed else { return .link(key) }
        return .typedLink(object.binding?.info.name ?? ModelClass.forType(type(of: object)).name, key)
    }

    /// The value a link to the managed `object` of this file is stored as in `property`.
    func existingLink(to object: ObjectBase, in property: PropertySchema) -> Value {
        property.type == .mixed ? .typedLink(object.binding!.info.name, object.objectKey) : .link(object.objectKey)
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
