import Foundation
import StrataStorage

/// The dynamic API: objects of the file's stored classes by class name, read and written as
/// `DynamicObject`s, for code that does not declare the model (tools, generic importers,
/// code reading a file of another program).
extension Realm {
    /// Every object of stored class `typeName`, as live results of `DynamicObject`s (they
    /// filter, sort, aggregate and notify as typed results do). Traps when the file has no
    /// such class, as RealmSwift does.
    public func dynamicObjects(_ typeName: String) -> Results<DynamicObject> {
        core.confinement.check()
        let binding = dynamicBinding(typeName)
        if binding.table.schema.isEmbedded {
            fatalError("Querying embedded object type '\(typeName)' is not supported")
        }
        return Results(core: core, info: binding.info)
    }

    /// The object of stored class `typeName` with primary key `key`, or nil. Traps when the
    /// class is not in the file or has no primary key, or when `key` does not fit its type.
    public func dynamicObject(ofType typeName: String, forPrimaryKey key: Any) -> DynamicObject? {
        core.confinement.check()
        let binding = dynamicBinding(typeName)
        guard let pk = binding.table.schema.primaryKey else { fatalError("'\(typeName)' does not have a primary key") }
        do {
            let value = try DynamicValues.storedValue(key, pk, className: typeName)
            guard let objectKey = try translatingErrors(path: core.path, { try core.transaction().indexes.objectKey(binding.table, primaryKey: value) })
            else { return nil }
            return core.object(DynamicObject.self, binding, objectKey)
        } catch { trap(error) }
    }

    /// Creates an object of stored class `typeName` from `value`: a dictionary by property
    /// name or an array in property order, whose links take objects, dictionaries or arrays
    /// (created or, by primary key, updated with the same `update` policy). Properties not
    /// given get the model's initial values when the program declares the class, else null
    /// or zero. With `update` `.modified` or `.all`, an existing object with the same primary
    /// key is updated instead. Traps outside a write and on a value that does not fit.
    @discardableResult
    public func dynamicCreate(_ typeName: String, value: Any = [:], update: UpdatePolicy = .error) -> DynamicObject {
        core.checkWrite()
        do {
            let (binding, key) = try DynamicWrite(core: core, update: update).create(typeName, value)
            return core.object(DynamicObject.self, binding, key)
        } catch { trap(error) }
    }

    /// The dynamic binding of stored class `typeName`; traps when the file has none.
    private func dynamicBinding(_ typeName: String) -> TableBinding {
        let found: TableBinding?
        do { found = try core.dynamicBinding(named: typeName) } catch { trap(error) }
        guard let found else { fatalError("Object type '\(typeName)' is not managed by the Realm") }
        return found
    }
}
