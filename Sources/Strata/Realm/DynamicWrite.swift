import Foundation
import StrataStorage

/// The writes of the dynamic API (`Realm.dynamicCreate`, `DynamicObject` subscripts on a
/// managed object) in the current write transaction of `core`, by the stored schema: values
/// are converted by `DynamicValues`, links take objects of the file (a `DynamicObject` or a
/// typed object of the link's class), an unmanaged typed object (added with its graph) or a
/// dictionary or array (a new or, by primary key, updated object of the link's class).
struct DynamicWrite {
    let core: RealmCore
    /// How objects given as values (dictionaries, arrays) meet existing primary keys.
    let update: Realm.UpdatePolicy

    /// Creates an object of stored class `className` from `value` (a dictionary by property
    /// name or an array in property order); with `update` other than `.error`, updates the
    /// object with the same primary key instead when there is one.
    func create(_ className: String, _ value: Any) throws -> (binding: TableBinding, key: ObjectKey) {
        guard let binding = try core.dynamicBinding(named: className) else {
            throw Realm.Error(.invalidInput, "Object type '\(className)' is not managed by the Realm")
        }
        let schema = binding.table.schema
        if schema.isEmbedded {
            throw Realm.Error(.invalidInput, "Embedded objects cannot be created directly: '\(className)' objects are created by assigning them to a property of their owner")
        }
        if update != .error && schema.primaryKey == nil {
            throw Realm.Error(.invalidInput, "'\(className)' does not have a primary key and can not be updated")
        }
        // Values are given under the names code uses (`querySchema`), in the same order.
        let given = try DynamicValues.given(value, for: binding.querySchema)
        let txn = try core.transaction()
        var existing: ObjectKey?
        if update != .error, let pk = schema.primaryKey, let pkValue = given[schema.properties.firstIndex(of: pk)!] {
            let stored = try DynamicValues.storedValue(pkValue, pk, className: className)
            existing = try translatingErrors(path: core.path) { try txn.indexes.objectKey(binding.table, primaryKey: stored) }
        }
        let key: ObjectKey
        if let existing {
            var changes: [(PropertySchema, StrataStorage.Value)] = []
            for (p, given) in zip(schema.properties, given) where !p.isList && !p.isPrimaryKey {
                if let given { changes.append((p, try storedValue(given, p, in: schema))) }
            }
            try translatingErrors(path: core.path) {
                try txn.objects.update(binding.table, existing, changes, onlyIfDifferent: update == .modified)
            }
            key = existing
        } else {
            var row = [StrataStorage.Value](repeating: .null, count: binding.table.slotCount)
            let model = DynamicValues.modelInstance(className)
            for (p, given) in zip(schema.properties, given) where !p.isList {
                row[p.id] = try given.map { try storedValue($0, p, in: schema) } ?? DynamicValues.initialValue(p, of: schema, model: model)
            }
            key = try translatingErrors(path: core.path) { try txn.objects.insert(binding.table, values: row) }
        }
        for (p, given) in zip(schema.properties, given) where p.isList {
            if let given { try setCollection(given, p, of: binding.table, owner: key) }
        }
        return (binding, key)
    }

    /// Sets stored property `property` of object `key` of `table` to `value`.
    func set(_ value: Any?, _ property: PropertySchema, of table: Table, key: ObjectKey) throws {
        if property.isList { return try setCollection(value, property, of: table, owner: key) }
        if property.isPrimaryKey {
            throw Realm.Error(.invalidInput, "Primary key can't be changed after an object is inserted: '\(table.name).\(property.name)'")
        }
        let stored = try storedValue(value, property, in: table.schema)
        try translatingErrors(path: core.path) { try core.transaction().objects.update(table, key, [(property, stored)]) }
    }

    /// Replaces the contents of `owner`'s list, set or map `property` with `value`: an array
    /// or other sequence, or for a map a dictionary with string keys.
    private func setCollection(_ value: Any?, _ property: PropertySchema, of table: Table, owner: ObjectKey) throws {
        let txn = try core.transaction()
        if property.isMap {
            guard let entries = DynamicValues.unwrapped(value) as? [String: Any?] ?? (value == nil ? [:] : nil) else {
                throw Realm.Error(.invalidInput, "Invalid value '\(value.map { "\($0)" } ?? "nil")' for map '\(table.name).\(property.name)': give a dictionary with string keys")
            }
            let stored = try entries.map { ($0.key, try storedValue($0.value, property, in: table.schema)) }
            try translatingErrors(path: core.path) {
                try txn.lists.removeAll(table, property, owner: owner)
                for (k, v) in stored { _ = try txn.lists.setMapValue(table, property, owner: owner, v, forKey: k) }
            }
            return
        }
        guard let elements = DynamicValues.elements(value) else {
            throw Realm.Error(.invalidInput, "Invalid value '\(value.map { "\($0)" } ?? "nil")' for \(property.isSet ? "set" : "list") '\(table.name).\(property.name)': give an array")
        }
        let stored = try elements.map { element -> StrataStorage.Value in
            if property.type == .link && DynamicValues.unwrapped(element) == nil {
                throw Realm.Error(.invalidInput, "Invalid value nil for an element of '\(table.name).\(property.name)': collections of objects cannot hold nil")
            }
            return try storedValue(element, property, in: table.schema)
        }
        try translatingErrors(path: core.path) { try txn.lists.rewrite(table, property, owner: owner, stored) }
    }

    /// The stored value of `given` for `property` of class `schema` (or an element of it,
    /// for a collection property).
    private func storedValue(_ given: Any?, _ property: PropertySchema, in schema: ClassSchema) throws -> StrataStorage.Value {
        if property.type == .mixed, let object = ValueConversion.heldObject(given) { return try core.storedLink(to: object, in: property) }
        guard property.type == .link else { return try DynamicValues.storedValue(given, property, className: schema.name) }
        guard let value = DynamicValues.unwrapped(given), !(value is NSNull) else { return .null }
        let target = property.linkTarget ?? "?"
        if let object = value as? ObjectBase {
            let name = object.binding?.info.name ?? (try? ModelClass.of(type(of: object)).name)
            guard name == target, !(object is DynamicObject && object.managingCore == nil) else {
                throw Realm.Error(.invalidInput, "Invalid value for property '\(schema.name).\(property.name)': it links to '\(target)' objects, not '\(name ?? "\(type(of: object))")' objects")
            }
            return .link(try core.linkKey(for: object))
        }
        if value is [String: Any?] || value is NSDictionary || value is [Any?] {
            return .link(try create(target, value).key)
        }
        throw Realm.Error(.invalidInput, "Invalid value '\(value)' (\(type(of: value))) for property '\(schema.name).\(property.name)' of type '<\(target)>': give an object, a dictionary or an array of its values, or nil")
    }
}
