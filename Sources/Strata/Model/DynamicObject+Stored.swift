import Foundation
import StrataStorage

/// The properties of a `DynamicObject` managed by a Realm (from `Realm.dynamicObjects`, a
/// link or a `dynamicList`), read and written by name through the file's stored schema.
extension DynamicObject {
    /// The stored property `name` of this object's class; traps for a name the class lacks.
    private func storedProperty(_ name: String) -> PropertySchema {
        let binding = binding!
        guard let property = binding.storedProperty(named: name) else {
            preconditionFailure("Invalid property name '\(name)' for class '\(binding.info.name)'")
        }
        return property
    }

    /// The value of stored property `name`: numbers as `NSNumber` (as key-value coding hands
    /// them out), a link as an accessor or nil (`linkedObject`), a list, set or map of objects as a live
    /// `List<DynamicObject>`, `MutableSet<DynamicObject>` or `Map<String, DynamicObject?>`; a
    /// list or set of values as an array of its values, a map of values as a `[String: Any?]`
    /// dictionary.
    func storedValue(named name: String) -> Any? {
        let property = storedProperty(name)
        let core = managingCore!
        if property.isList {
            guard property.type == .link else { return collectionValue(property, core) }
            let store = ListStore(owner: self, dynamicList: property)
            if property.isSet { return MutableSet<DynamicObject>(store: store) }
            if property.isMap { return Map<String, DynamicObject?>(store: store) }
            return List<DynamicObject>(store: store)
        }
        return swiftValue(currentRow().value(property), property, core)
    }

    /// Sets stored property `name` (inside a write): `DynamicWrite` converts the value, and
    /// traps with its error on a value that does not fit the property.
    func setStoredValue(_ value: Any?, named name: String) {
        let core = managingCore!
        core.checkWrite()
        let property = storedProperty(name)
        _ = currentRow()  // traps if the object was deleted or invalidated
        do {
            try DynamicWrite(core: core, update: .error).set(value, property, of: binding!.table, key: objectKey)
        } catch { trap(error) }
    }

    /// The contents of a set, map or list of values, read now.
    private func collectionValue(_ property: PropertySchema, _ core: RealmCore) -> Any {
        let table = binding!.table
        _ = currentRow()  // traps if the object was deleted or invalidated
        return core.reading { () throws -> Any in
            let lists = try core.transaction().lists
            if property.isMap {
                var entries: [String: Any?] = [:]
                for key in try lists.mapKeys(table, property, owner: objectKey) {
                    entries[key] = try lists.mapValue(table, property, owner: objectKey, forKey: key).flatMap { swiftValue($0, property, core) }
                }
                return entries
            }
            let values = try lists.values(table, property, owner: objectKey).map { swiftValue($0, property, core) }
            return property.isOptional ? values : values.compactMap { $0 } as [Any]
        }
    }

    /// The Swift value of a stored value of `property` (an element of it, for a collection).
    private func swiftValue(_ value: StrataStorage.Value, _ property: PropertySchema, _ core: RealmCore) -> Any? {
        if case .typedLink(let className, let key) = value {
            guard let binding = core.reading({ try core.dynamicBinding(named: className) }) else {
                preconditionFailure("'\(core.path)' is damaged: a mixed value holds a '\(className)' object, a class the file does not have")
            }
            return core.object(DynamicObject.self, binding, key)
        }
        guard case .link(let key) = value, property.type == .link else { return KeyValueCoding.bridged(DynamicValues.swiftValue(value, property)) }
        guard let target = property.linkTarget else {
            preconditionFailure("The target class of '\(self.binding!.info.name).\(property.name)' is missing from the file")
        }
        return linkedObject(target, key, core)
    }

    /// The accessor of object `key` of stored class `target` a link hands out: of the program's
    /// class of that name when it declares one the file's class matches (as RealmSwift hands
    /// out its generated classes' accessors), a `DynamicObject` otherwise.
    private func linkedObject(_ target: String, _ key: ObjectKey, _ core: RealmCore) -> ObjectBase {
        if let declared = ModelClass.declared.first(where: { $0.name == target && !$0.isDynamic }),
           let binding = try? core.binding(for: declared) {
            return core.object(ObjectBase.self, binding, key)
        }
        guard let binding = core.reading({ try core.dynamicBinding(named: target) }) else {
            preconditionFailure("The target class '\(target)' of a link of '\(self.binding!.info.name)' is missing from the file")
        }
        return core.object(DynamicObject.self, binding, key)
    }
}

extension Object {
    /// List property `propertyName` of this managed object, its elements handed out as
    /// `DynamicObject`s: the same stored list as the typed property, read and changed by
    /// the stored schema (a list of values only counts there: its elements are not objects).
    /// Traps for an unmanaged object or a property that is not a list. In a migration block:
    /// the migration object's list (the one its subscript hands out).
    public func dynamicList(_ propertyName: String) -> List<DynamicObject> {
        migrationCollection(propertyName) ?? List(store: dynamicStore(propertyName, "a list") { !$0.isSet && !$0.isMap })
    }

    /// Set property `propertyName` of this managed object, its members handed out as
    /// `DynamicObject`s (as `dynamicList`).
    public func dynamicMutableSet(_ propertyName: String) -> MutableSet<DynamicObject> {
        migrationCollection(propertyName) ?? MutableSet(store: dynamicStore(propertyName, "a set") { $0.isSet })
    }

    /// Map property `propertyName` of this managed object, its values handed out as
    /// `DynamicObject`s (as `dynamicList`).
    public func dynamicMap<Key: _MapKey>(_ propertyName: String) -> Map<Key, DynamicObject?> {
        migrationCollection(propertyName) ?? Map(store: dynamicStore(propertyName, "a map") { $0.isMap })
    }

    /// For a migration object, its collection `name` (trapping when it is not a `C`); nil
    /// for any other object.
    private func migrationCollection<C>(_ name: String) -> C? {
        guard let object = self as? DynamicObject, object.migrationContext != nil else { return nil }
        guard let collection = object[name] as? C else { fatalError("'\(object.dynamicClassName).\(name)' is not a \(C.self)") }
        return collection
    }

    /// The store of collection `name` of this managed object, which `isKind`
    /// accepts; traps (saying it is not `kind`) otherwise.
    private func dynamicStore(_ name: String, _ kind: String, _ isKind: (PropertySchema) -> Bool) -> ListStore {
        guard let binding, managingCore != nil else {
            fatalError("The dynamic collections need a managed object: add the object to a Realm first")
        }
        guard let property = binding.storedProperty(named: name), property.isList, isKind(property) else {
            fatalError("'\(binding.info.name).\(name)' is not \(kind)")
        }
        _ = currentRow()  // traps if the object was deleted or invalidated
        return ListStore(owner: self, dynamicList: property)
    }
}
