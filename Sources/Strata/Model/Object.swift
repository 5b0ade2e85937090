import Foundation
import StrataStorage

/// A persisted model: `final class Dog: Object { @Persisted var name = "" }`.
open class Object: ObjectBase {
    public required init() { super.init() }

    /// Creates an unmanaged object from a dictionary (`[String: Any]`, unknown keys ignored),
    /// an array of values in property-declaration order, or another object. Traps on a value
    /// of the wrong type, as RealmSwift does; `Realm.throwingCreate` throws instead.
    public convenience init(value: Any) {
        self.init()
        do {
            let info = try ModelClass.of(Swift.type(of: self))
            let values = try ValueConversion.values(from: value, for: info)
            for (index, v) in values.enumerated() {
                if let v { info.properties[index].field.setValue(v, at: info.field(index, of: self)) }
            }
        } catch { trap(error) }
    }

    /// The Realm managing this object, or nil if unmanaged.
    public var realm: Realm? { managingCore.map(Realm.init(core:)) }

    /// The schema of the object's class (a dynamic object's: its stored class's, in a
    /// migration the old or new schema's as the object is).
    public var objectSchema: ObjectSchema {
        if let dynamic = self as? DynamicObject, let stored = dynamic.storedSchema {
            guard dynamic.migrationContext == nil, let table = binding?.table.schema else { return ObjectSchema(stored, info: nil) }
            // The file's class, its properties under the program's names with their column names.
            return ObjectSchema(table, info: ModelClass.declared.first { $0.name == table.name })
        }
        return Swift.type(of: self).sharedSchema()!
    }

    /// The schema of this class, as the code declares it (RealmSwift's `sharedSchema()`); nil
    /// for `Object` and `EmbeddedObject` themselves, which are not models.
    open override class func sharedSchema() -> ObjectSchema? {
        self == Object.self || self == EmbeddedObject.self ? nil : ObjectSchema(ModelClass.forType(self))
    }

    open override var isInvalidated: Bool { super.isInvalidated }

    /// "Dog {\n\tname = Rex;\n\tage = 3;\n}", as RealmSwift prints objects: nil as `(null)`,
    /// linked objects and collections nested five levels deep, as RealmSwift prints them
    /// (`CollectionDescription.nested`).
    open override var description: String {
        CollectionDescription.nested { propertyLines() }
    }

    /// A property's value as RealmSwift prints it: a bool as 0 or 1, a number as `NSNumber`
    /// prints it (`1`, not `1.0`), a string whole, data as its bytes in hex, four to a group
    /// (`<61626364 65>`).
    static func describeProperty(_ value: StrataStorage.Value) -> String {
        switch value {
        case .bool(let b): return b ? "1" : "0"
        case .float(let f): return CollectionDescription.number(f)
        case .double(let d): return CollectionDescription.number(d)
        case .string(let s): return s
        case .data(let d):
            let hex = d.enumerated().map { i, byte in (i > 0 && i % 4 == 0 ? " " : "") + String(format: "%02x", byte) }
            return "<" + hex.joined() + ">"
        default: return describe(value)
        }
    }

    /// The object's class and properties, one per line (`description`).
    private func propertyLines() -> String {
        let info = ModelClass.forType(Swift.type(of: self))
        if binding != nil && isInvalidated { return "[invalid object]" }
        let body = info.properties.indices.map { index in
            let v = storedValue(index)
            let shown: String
            if let object = v.object {
                shown = object.description
            } else if v.collection != nil {
                shown = "\(info.properties[index].field.box(v))"
            } else if case .null = v.value {
                shown = "(null)"
            } else {
                shown = Self.describeProperty(v.value)
            }
            return "\t\(info.properties[index].name) = \(shown.replacingOccurrences(of: "\n", with: "\n\t"));"
        }
        // The Swift class's name, as RealmSwift prints it (not a `_realmObjectName()`).
        let name = self is DynamicObject ? info.name : Swift.type(of: self).className()
        return "\(name) {\n\(body.joined(separator: "\n"))\n}"
    }

    /// Dynamic get/set by property name, `LinkingObjects` properties included (read-only).
    /// Numbers come as `NSNumber`, castable to any numeric type that holds them, as in
    /// RealmSwift. Getting an unknown name traps; setting outside a write transaction on a
    /// managed object traps, as in RealmSwift.
    open subscript(key: String) -> Any? {
        get {
            let info = ModelClass.forType(Swift.type(of: self))
            if info.index(of: key) == nil, let inverse = KeyValueCoding.linkingObjects(key, of: self, info) { return inverse }
            let (_, index) = property(key)
            if binding == nil && info.properties[index].schema.isList {
                // The collection itself, so that what is written through it stays in the object.
                return info.properties[index].field.instance(at: info.field(index, of: self))
            }
            return KeyValueCoding.bridged(info.properties[index].field.swiftValue(storedValue(index)))
        }
        set {
            let (info, index) = property(key)
            do {
                let value = try ValueConversion.value(newValue, for: info.properties[index], className: info.name)
                if binding != nil {
                    setManagedValue(value, index)
                } else {
                    info.properties[index].field.setValue(value, at: info.field(index, of: self))
                }
            } catch { trap(error) }
        }
    }


    /// Database identity (same stored object), independent of Swift instance identity.
    public func isSameObject(as object: Object?) -> Bool {
        guard let object else { return false }
        return isSameStoredObject(object)
    }

    private func property(_ key: String) -> (ModelClass, Int) {
        let info = ModelClass.forType(Swift.type(of: self))
        guard let index = info.index(of: key) else {
            if info.linkingObjects.contains(where: { $0.name == key }) {
                fatalError("Cannot set '\(info.name).\(key)': a LinkingObjects property is read-only")
            }
            fatalError("Invalid property name '\(key)' for class '\(info.name)'")
        }
        return (info, index)
    }

    /// The stored form of property `index`, managed or not.
    func storedValue(_ index: Int) -> _StrataValue {
        if binding != nil { return _managedValue(index) }
        let info = ModelClass.forType(Swift.type(of: self))
        return info.properties[index].field.value(at: info.field(index, of: self))
    }
}

/// Objects are stored as (optional) to-one links: the target's object key in the row.
extension Object: _RealmCollectionValueInsideOptional, _PersistableInsideOptional {
    public typealias PersistedType = Object
    public static var _strataTypeInfo: _StrataTypeInfo {
        _StrataTypeInfo(type: .link, isOptional: false, intWidth: 64, linkTarget: self)
    }
    /// The object of a stored link. Null, which only a non-optional custom type stored as an
    /// object holds (RealmSwift stores it as an optional link), is a new unmanaged object: the
    /// custom type's default, as RealmSwift reads it.
    public static func _strataFrom(_ value: _StrataValue) -> Self {
        if case .null = value.value, value.object == nil { return Self() }
        return value.object as! Self
    }
    public var _strataValue: _StrataValue { _StrataValue(.link(objectKey), object: self) }
    /// A new unmanaged object (RealmSwift's default of a non-optional custom type stored as
    /// an object).
    public static var _strataDefault: Self { Self() }
}

extension PersistedField {
    /// The Swift value (boxed) of a stored value, nil for null (a collection, whose row
    /// value is null, is the collection).
    static func swiftValue(_ value: _StrataValue) -> Any? {
        if case .null = value.value, value.collection == nil { return nil }
        return box(value)
    }
}
