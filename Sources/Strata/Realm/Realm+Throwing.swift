import Foundation
import StrataStorage

public extension Realm {
    /// Strata: like `add(_:update:)` but throws `.invalidInput` on a duplicate primary key
    /// with `.error`, on `.modified`/`.all` for a class without a primary key, and on an
    /// object that is invalidated or managed by another Realm. Nothing is changed when it
    /// throws (a graph of unmanaged objects is added whole or not at all), and for an embedded
    /// object, which is added only through its owner. Must be called inside a write
    /// transaction.
    func throwingAdd(_ object: Object, update: UpdatePolicy = .error) throws {
        core.checkWrite()
        if object is EmbeddedObject { throw Self.embeddedOnItsOwn(type(of: object), "added") }
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
    /// duplicated with `.error`, and for an embedded class, whose objects are created only
    /// through their owner. Nothing is changed when it throws. Must be called inside a write
    /// transaction.
    @discardableResult
    func throwingCreate<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) throws -> T {
        core.checkWrite()
        if type is EmbeddedObject.Type { throw Self.embeddedOnItsOwn(type, "created") }
        let info = try ModelClass.of(type)
        let given = try ValueConversion.values(from: value, for: info, copyingInto: core)
        let (binding, key) = try GraphWrite.run(core) { try $0.upsert(info, values: given, update: update) }
        return core.object(type, binding, key)
    }
}

extension Realm {
    /// The error for adding or creating an object of embedded class `type` without an owner.
    static func embeddedOnItsOwn(_ type: ObjectBase.Type, _ verb: String) -> Error {
        let name = type._realmObjectName() ?? type.className()
        return Error(.invalidInput, "Embedded object '\(name)' cannot be \(verb) on its own: assign it to a property or list of its owner")
    }
}
