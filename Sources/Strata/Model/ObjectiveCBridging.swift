import Foundation
import StrataStorage

// Values in the shapes RealmSwift's Objective-C-based APIs hand them out and take them:
// numbers as `NSNumber`, null as `NSNull`, elements as `[AnyObject]`.

/// `x`, a value as key-value coding or an Objective-C-shaped API hands it out (`NSNumber`,
/// `NSNull`, a string, ...), as `T` (RealmSwift's `dynamicBridgeCast(fromObjectiveC:)`):
/// numbers to any numeric type that holds them, `NSNull` to nil, stored forms to enums and
/// custom-persisted types. Traps when `x` is no value of `T`.
public func dynamicBridgeCast<T>(fromObjectiveC x: Any) -> T {
    if let value = x as? T { return value }
    if let type = T.self as? any _Persistable.Type {
        let info = type._strataTypeInfo
        let property = PropertySchema(name: "value", type: info.type, isOptional: info.isOptional, id: 0, intWidth: info.intWidth)
        if let stored = try? ValueConversion.value(x, for: property, className: "\(T.self)"),
           let value = type._strataFrom(_StrataValue(stored)) as? T {
            return value
        }
    }
    fatalError("Cannot convert \(x) (\(type(of: x))) to \(T.self)")
}

extension NSNumber: _HasPersistedType, MinMaxType, AddableType {
    /// Aggregates (`min(ofProperty:) as NSNumber?`) hand out numbers as `NSNumber`.
    public typealias PersistedType = NSNumber
}

enum ObjectiveCBridging {
    /// `value` as key-value coding's object: `NSNull` for nil.
    static func object(_ value: Any?) -> AnyObject {
        guard let value = KeyValueCoding.bridged(value) else { return NSNull() }
        return value as AnyObject
    }

    /// An aggregate's result `value` as `T` when `T` is `NSNumber`; nil otherwise (an
    /// `NSDate` is a persistable type, converted as the others are).
    static func aggregate<T>(_ value: StrataStorage.Value, as type: T.Type) -> T? {
        guard T.self is NSNumber.Type else { return nil }
        let number: NSNumber? = switch value {
        case .int(let i): NSNumber(value: i)
        case .double(let d): NSNumber(value: d)
        case .float(let f): NSNumber(value: f)
        case .decimal128(let d): NSNumber(value: d.doubleValue)
        default: nil
        }
        return number as? T
    }
}

extension List {
    /// The values of property `key` of the elements (`"self"`: the elements), one object
    /// each, as RealmSwift's lists hand them out: numbers as `NSNumber`, nil as `NSNull`.
    public func value(forKey key: String) -> [AnyObject] { elementValues(forKey: key).map(ObjectiveCBridging.object) }

    /// The values at `keyPath` (through to-one links: `"owner.name"`) of the elements, one
    /// object each, as `value(forKey:)`. A collection operator (`@max.age`) gives one value,
    /// not an array: read it through `RealmCollection`'s `value(forKeyPath:) -> Any?`.
    public func value(forKeyPath keyPath: String) -> [AnyObject] {
        precondition(!keyPath.hasPrefix("@"), "value(forKeyPath: \"\(keyPath)\") of a list as an array: a collection operator gives one value, not an array")
        let values = store == nil ? elementValues(forKey: keyPath) : results.value(forKeyPath: keyPath) as? [Any?] ?? []
        return values.map(ObjectiveCBridging.object)
    }
}

extension MutableSet {
    /// The distinct values of property `key` of the members (`"self"`: the members), one
    /// object each, as RealmSwift's sets hand them out: numbers as `NSNumber`, nil as `NSNull`.
    public func value(forKey key: String) -> [AnyObject] {
        var seen = Set<AnyHashable>()
        return elementValues(forKey: key).filter { value in
            guard let hashable = KeyValueCoding.bridged(value) as? AnyHashable else { return true }
            return seen.insert(hashable).inserted
        }.map(ObjectiveCBridging.object)
    }
}

extension Map {
    /// The value under `key` (a `Key` as an object), as an object (numbers as `NSNumber`, a
    /// nil value as `NSNull`), or nil when there is none: RealmSwift's Objective-C form.
    public func object(forKey key: AnyObject) -> AnyObject? {
        guard let key = key as? Key else { return nil }
        return object(forKey: key).map(ObjectiveCBridging.object)
    }
}
