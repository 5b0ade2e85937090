import Foundation
import StrataStorage

public extension Realm {
    /// Strata: like `add(_:update:)` but throws `.invalidInput` on a duplicate primary key
    /// with `.error`, on `.modified`/`.all` for a class without a primary key, and on an
    /// object that is invalidated or managed by another Realm. Nothing is changed when it
    /// throws. Must be called inside a write transaction.
    func throwingAdd(_ object: Object, update: UpdatePolicy = .error) throws {
        core.checkWrite()
        if let owner = object.managingCore {
            if owner === core {
                if object.isInvalidated { throw Error(.invalidInput, "Adding a deleted or invalidated object to a Realm is not permitted") }
                return
            }
            throw Error(.invalidInput, "Object is already managed by another Realm ('\(owner.path)'); use create(_:value:update:) to copy it into this one")
        }
        let info = try ClassInfo.of(type(of: object))
        let values = info.properties.indices.map { info.properties[$0].field.value(at: info.field($0, of: object)) }
        let (binding, key) = try upsert(info, values: values.map { Optional($0) }, update: update)
        object.attach(core, binding, key)
    }

    /// Strata: like `create(_:value:update:)` but throws `.invalidInput` when `value` has the
    /// wrong shape or a value of the wrong type (naming the property), or the primary key is
    /// duplicated with `.error`. Nothing is changed when it throws. Must be called inside a
    /// write transaction.
    @discardableResult
    func throwingCreate<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) throws -> T {
        core.checkWrite()
        let info = try ClassInfo.of(type)
        let given = try ValueConversion.values(from: value, for: info, existing: nil)
        let (binding, key) = try upsert(info, values: given, update: update)
        return core.object(type, binding, key)
    }

    /// Inserts, or updates by primary key, one object. `values` are by declaration index;
    /// nil means "not given": the default for a new object, unchanged for an existing one.
    private func upsert(_ info: ClassInfo, values: [StrataStorage.Value?], update: UpdatePolicy) throws -> (TableBinding, ObjectKey) {
        let binding = try core.bindingForWrite(info)
        let txn = try core.transaction()
        let pk = info.schema.primaryKey
        if update != .error && pk == nil {
            throw Error(.invalidInput, "'\(info.name)' does not have a primary key and can not be updated")
        }
        let pkValue = pk.map { values[$0.id] ?? defaultValues(info)[$0.id] }
        return try translatingErrors(path: core.path) {
            if update != .error, let pk, let pkValue,
               let existing = try txn.objectKey(binding.table, primaryKey: pkValue) {
                var changes: [(PropertySchema, StrataStorage.Value)] = []
                for (index, v) in values.enumerated() where index != pk.id {
                    if let v { changes.append((binding.properties[index], v)) }
                }
                try txn.update(binding.table, existing, changes, onlyIfDifferent: update == .modified)
                return (binding, existing)
            }
            let defaults = values.contains { $0 == nil } ? defaultValues(info) : []
            var row = [StrataStorage.Value](repeating: .null, count: binding.table.schema.slotCount)
            for index in info.properties.indices {
                row[binding.properties[index].id] = values[index] ?? defaults[index]
            }
            return (binding, try txn.insert(binding.table, values: row))
        }
    }

    /// The values a new instance of the class has (its property initialisers).
    private func defaultValues(_ info: ClassInfo) -> [StrataStorage.Value] {
        let fresh = info.type.init()
        return info.properties.indices.map { info.properties[$0].field.value(at: info.field($0, of: fresh)) }
    }
}
