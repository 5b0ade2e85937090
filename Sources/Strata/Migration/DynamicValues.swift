import Foundation
import StrataStorage
import StrataValues

/// Conversions between stored values and the loosely typed values of the dynamic API
/// (`DynamicObject` subscripts, `Migration.create`), by the stored property schema.
enum DynamicValues {
    /// The Swift value of a stored value: `Int` (or `Int8/16/32` for narrower integers),
    /// `Bool`, `Float`, `Double`, `String`, `Data`, `Date`, `UUID`; nil for null.
    static func swiftValue(_ value: StrataStorage.Value, _ property: PropertySchema) -> Any? {
        switch value {
        case .null: return nil
        case .bool(let b): return b
        case .int(let i):
            switch property.intWidth {
            case 8: return Int8(truncatingIfNeeded: i)
            case 16: return Int16(truncatingIfNeeded: i)
            case 32: return Int32(truncatingIfNeeded: i)
            default: return Int(i)
            }
        case .float(let f): return f
        case .double(let d): return d
        case .string(let s): return s
        case .data(let d): return d
        case .date(let d): return d
        case .uuid(let u): return u
        case .link, .typedLink: return nil  // objects: the caller's, bound to its Realm or migration
        case .objectId(let id): return id
        case .decimal128(let d): return Decimal128(bid: d)
        }
    }

    /// The stored value for `given`; throws `.invalidInput` naming the property when the
    /// value does not fit its type (or is nil for a required property).
    static func storedValue(_ given: Any?, _ property: PropertySchema, className: String) throws -> StrataStorage.Value {
        let v = ValueConversion.flatten(given)
        // An enum or custom type is given as the value it is stored as.
        if let mapped = v as? any _MappedPersistable { return try storedValue(mapped._strataStoredForm, property, className: className) }
        guard let v, !(v is NSNull) else {
            if property.isOptional || property.type == .link { return .null }
            throw mismatch(given, property, className, "the property is not optional")
        }
        let converted: StrataStorage.Value? = switch property.type {
        case .bool: (v as? Bool).map { .bool($0) }
        case .int: ValueConversion.integer(v, width: property.intWidth).map { .int($0) }
        case .float: ValueConversion.floating(v).map { .float(Float($0)) }
        case .double: ValueConversion.floating(v).map { .double($0) }
        case .string: (v as? String).map { .string($0) }
        case .data: (v as? Data).map { .data($0) }
        case .date: (v as? Date).map { .date($0) }
        case .uuid: (v as? UUID).map { .uuid($0) } ?? (v as? String).flatMap(UUID.init(uuidString:)).map { .uuid($0) }
        case .link: nil
        case .objectId: ValueConversion.objectId(v).map { .objectId($0) }
        case .decimal128: ValueConversion.decimal(v).map { .decimal128($0) }
        case .mixed: ValueConversion.mixed(v)
        }
        guard let converted else { throw mismatch(given, property, className, nil) }
        return converted
    }

    /// What `value` gives each property of `schema`, as `create` takes it: a dictionary by
    /// property name, an array in property order (an empty one gives nothing), or an object
    /// of a model class (each property it has, by stored name). `.some` for a given value
    /// (nil included), nil where none is given.
    static func given(_ value: Any, for schema: ClassSchema) throws -> [Any??] {
        if let object = value as? Object, !(object is DynamicObject) {
            let info = ModelClass.forType(type(of: object))
            return schema.properties.map { p in
                let name = info.propertyName(ofStored: p.name)
                return info.index(of: name) == nil ? nil : .some(object.value(forKey: name))
            }
        }
        if let array = value as? [Any?], !array.isEmpty {
            guard array.count == schema.properties.count else {
                throw Realm.Error(.invalidInput, "Invalid array input: \(array.count) values for the \(schema.properties.count) properties of '\(schema.name)' (\(schema.properties.map(\.name).joined(separator: ", ")))")
            }
            return array.map { .some($0) }
        }
        return schema.properties.map { p in
            switch value {
            case let d as [String: Any?]: d[p.name]
            case let d as NSDictionary: d[p.name].map { Optional($0) }
            default: nil
            }
        }
    }

    /// The value a new object of class `schema` gets for property `p` when none is given: the
    /// initial value of the model class the program declares under that name (`model`, a
    /// fresh instance, see `modelInstance`), else `defaultValue`.
    static func initialValue(_ p: PropertySchema, of schema: ClassSchema, model: Object?) -> StrataStorage.Value {
        guard p.type != .link, let model else { return defaultValue(p) }
        let info = ModelClass.forType(type(of: model))
        let name = info.propertyName(ofStored: p.name)
        guard info.index(of: name) != nil, let v = try? storedValue(model[name], p, className: schema.name) else { return defaultValue(p) }
        return v
    }

    /// The object a fresh model instance holds in its to-one link `p` (`var owner: Person? =
    /// Person()`), if any.
    static func defaultLinkedObject(_ p: PropertySchema, model: Object?) -> Object? {
        guard p.type == .link, !p.isList, let model else { return nil }
        let info = ModelClass.forType(type(of: model))
        let name = info.propertyName(ofStored: p.name)
        guard info.index(of: name) != nil else { return nil }
        return unwrapped(model[name]) as? Object
    }

    /// A fresh instance of the model class the program declares as `className`, if any.
    static func modelInstance(_ className: String) -> Object? {
        ModelClass.declared.first { $0.name == className }.flatMap { ($0.type as? Object.Type)?.init() }
    }

    /// The value a property has when nothing was set: null when optional, else the type's
    /// zero value.
    static func defaultValue(_ property: PropertySchema) -> StrataStorage.Value {
        property.isOptional ? .null : ValueCodec.defaultValue(property.type)
    }

    /// "int", "int8?", "string", "<Person>", "array<int>", "array<Person>", "set<string>"...
    static func typeName(_ p: PropertySchema) -> String {
        let element = p.type == .link ? (p.linkTarget ?? "?")
            : (p.type == .int && p.intWidth < 64 ? "int\(p.intWidth)" : p.type.description) + (p.isOptional ? "?" : "")
        if p.isSet { return "set<\(element)>" }
        if p.isMap { return "map<string, \(element)>" }
        if p.isList { return "array<\(element)>" }
        return p.type == .link ? "<\(element)>" : element
    }

    /// `value` without its layers of `Optional`.
    static func unwrapped(_ value: Any?) -> Any? { ValueConversion.flatten(value) }

    /// The elements of an array or other sequence (a `List`, a `Set`...), nil for anything
    /// else; nil itself is an empty list.
    static func elements(_ value: Any?) -> [Any?]? {
        guard let v = ValueConversion.flatten(value), !(v is NSNull) else { return [] }
        if v is String || v is Data || v is NSDictionary || v is [String: Any?] { return nil }
        if let array = v as? [Any?] { return array }
        if let array = v as? NSArray { return array.map { $0 } }
        if let sequence = v as? any Sequence { return collect(sequence) }
        return nil
    }

    private static func collect<S: Sequence>(_ sequence: S) -> [Any?] { sequence.map { $0 } }


    private static func mismatch(_ given: Any?, _ property: PropertySchema, _ className: String, _ reason: String?) -> Realm.Error {
        let shown = given.map { "'\($0)' (\(type(of: $0)))" } ?? "nil"
        return Realm.Error(.invalidInput, "Invalid value \(shown) for property '\(className).\(property.name)' of type \(typeName(property))\(reason.map { ": \($0)" } ?? "")")
    }
}
