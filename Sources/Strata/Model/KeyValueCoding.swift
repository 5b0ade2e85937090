import Foundation

/// What `obj["name"]` and `value(forKey:)` return beyond the stored properties' Swift values:
/// numbers as `NSNumber`, as RealmSwift's key-value coding returns them, so that they cast to
/// any numeric type that holds them (`obj["int8Property"] as? Int`); and `LinkingObjects`
/// properties by name.
enum KeyValueCoding {
    /// `value` (a property's Swift value, nil for null) as key-value coding hands it out:
    /// numbers as `NSNumber`, an enum or custom-persisted value as the value it is stored as
    /// (an enum's raw value), a mixed value as what it holds (nil for `.none`).
    static func bridged(_ value: Any?) -> Any? {
        // An optional inside `Any` (an enum read as nil for a raw value with no case) is nil.
        switch ValueConversion.flatten(value) {
        case let x as AnyRealmValue: bridged(x.held)
        case let x as any _MappedPersistable: bridged(x._strataStoredForm)
        case let x as Int: NSNumber(value: x)
        case let x as Int8: NSNumber(value: x)
        case let x as Int16: NSNumber(value: x)
        case let x as Int32: NSNumber(value: x)
        case let x as Int64: NSNumber(value: x)
        case let x as Float: NSNumber(value: x)
        case let x as Double: NSNumber(value: x)
        case let x: x
        }
    }

    /// The `LinkingObjects` property `key` of `object`: live when the object is managed,
    /// empty when not; nil when the class has no such property.
    static func linkingObjects(_ key: String, of object: ObjectBase, _ info: ModelClass) -> Any? {
        guard let inverse = info.linkingObjects.first(where: { $0.name == key }) else { return nil }
        if let core = object.managingCore, object.binding != nil {
            _ = object.currentRow()  // traps if the object was deleted or invalidated
            return inverse.access.managed(core: core, inverse, target: object.objectKey)
        }
        return (inverse.access as? LinkingObjectsTyped.Type)?.unmanaged(originProperty: inverse.originProperty)
    }
}
