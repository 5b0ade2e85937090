import Foundation
import StrataStorage

public extension Realm {
    /// Strata: like `add(_:update:)` but throws `.invalidInput` on a duplicate primary key
    /// with `.error`, on `.modified`/`.all` for a class without a primary key, and on an
    /// object that is invalidated or managed by another Realm. Nothing is changed when it
    /// throws (a graph of unmanaged objects is added whole or not at all). Must be called
    /// inside a write transaction.
    func throwingAdd(_ object: Object, update: UpdatePolicy = .error) throws {
        core.checkWrite()
        if let owner = object.managingCore {
            if owner === core {
                if object.isInvalidated { throw Error(.invalidInput, "Adding a deleted or invalidated object to a Realm is not permitted") }
                return
            }
            throw Error(.invalidInput, "Object is already managed by another Realm ('\(owner.path)'); use create(_:value:update:) to copy it into this one")
        }
        try GraphWrite.add(object, update: update, to: core)
    }

    /// Strata: like `create(_:value:update:)` but throws `.invalidInput` when `value` has the
    /// wrong shape or a value of the wrong type (naming the property), or the primary key is
    /// duplicated with `.error`. Nothing is changed when it throws. Must be called inside a
    /// write transaction.
    @discardableResult
    func throwingCreate<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) throws -> T {
        core.checkWrite()
        let info = try ModelClass.of(type)
        let given = try ValueConversion.values(from: value, for: info)
        let (binding, key) = try GraphWrite.run(core) { try $0.upsert(info, values: given, update: update) }
        return core.object(type, binding, key)
    }
}
