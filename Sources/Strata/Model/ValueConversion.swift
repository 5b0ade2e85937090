import Foundation
import StrataStorage
import StrataValues

/// Turns the loosely typed values users pass (`init(value:)`, `create(_:value:)`,
/// subscripts, `setValue(_:forKey:)`) into stored values, checking each against its
/// property and naming the property when it does not fit.
enum ValueConversion {
    /// Values by declaration index from a dictionary, an array in declaration order, or an
    /// object. nil entries mean "not given" (keep the default or the existing value). A link
    /// given as a dictionary or an array becomes an unmanaged object of the target class, and
    /// with a `destination` (`create` copies them into it) so does an unmanaged object, a
    /// managed embedded object, or an object of another file, as in RealmSwift.
    static func values(from value: Any, for info: ModelClass, copyingInto destination: RealmCore? = nil) throws -> [_StrataValue?] {
        var result = [_StrataValue?](repeating: nil, count: info.properties.count)
        switch value {
        case let dictionary as [String: Any?]:
            for (index, property) in info.properties.enumerated() {
                guard let given = dictionary[property.name] else { continue }
                result[index] = try self.value(given, for: property, className: info.name, copyingInto: destination)
            }
        case let dictionary as NSDictionary:
            for (index, property) in info.properties.enumerated() {
                guard let given = dictionary[property.name] else { continue }
                result[index] = try self.value(given, for: property, className: info.name, copyingInto: destination)
            }
        case let array as [Any?]:
            // As in RealmSwift: values in declaration order; missing trailing ones take defaults.
            guard array.count <= info.properties.count else {
                throw Realm.Error(.invalidInput, "Invalid array input: more values (\(array.count)) than properties (\(info.properties.count)) of '\(info.name)' (\(info.properties.map(\.name).joined(separator: ", ")))")
            }
            for (index, property) in info.properties.enumerated().prefix(array.count) {
                result[index] = try self.value(array[index], for: property, className: info.name, copyingInto: destination)
            }
        case let object as Object:
            let sourceInfo = try ModelClass.of(type(of: object))
            for (index, property) in info.properties.enumerated() {
                guard let i = sourceInfo.index(of: property.name) else { continue }
                result[index] = try self.value(sourceInfo.properties[i].field.swiftValue(object.storedValue(i)),
                                               for: property, className: info.name, copyingInto: destination)
            }
        default:
            throw Realm.Error(.invalidInput, "Invalid value for '\(info.name)': expected a dictionary, an array or an object, got \(type(of: value))")
        }
        return result
    }

    /// One value for a declared property; a link takes an object of the target class, or a
    /// dictionary or array to build an unmanaged one from. With a `destination`, an object not
    /// stored in its file (or an embedded one) is given as an unmanaged copy of itself.
    static func value(_ given: Any?, for property: ModelProperty, className: String,
                      copyingInto destination: RealmCore? = nil) throws -> _StrataValue {
        if property.schema.isList { return try list(given, for: property, className: className, copyingInto: destination) }
        if property.schema.type == .mixed, let object = heldObject(given) { return object._strataValue }
        guard let target = property.linkTarget else {
            return _StrataValue(try value(given, for: property.schema, className: className))
        }
        switch flatten(given) {
        case nil, is NSNull:
            return _StrataValue(.null)
        case let object as Object:
            let name = (type(of: object) as ObjectBase.Type)._realmObjectName() ?? type(of: object).className()
            guard name == property.schema.linkTarget else {
                throw mismatch(given, property.schema, className, reason: "expected a '\(property.schema.linkTarget ?? "")' object")
            }
            // `create` copies every object but those of its own file (as RealmSwift's: the
            // objects given stay as they were).
            guard let destination, object.managingCore?.file !== destination.file || object is EmbeddedObject else {
                return object._strataValue
            }
            return try unmanagedObject(target, from: object, copyingInto: destination)
        case let mapped as any _MappedPersistable:
            // A custom type stored as an object: the object it stands for.
            return try value(mapped._strataStoredForm, for: property, className: className, copyingInto: destination)
        case let nested?:
            return try unmanagedObject(target, from: nested, copyingInto: destination)
        }
    }

    /// The object `given` is or holds (`AnyRealmValue.object`), as a mixed value takes it.
    static func heldObject(_ given: Any?) -> Object? {
        switch flatten(given) {
        case let object as Object: return object
        case .object(let object) as AnyRealmValue: return object
        default: return nil
        }
    }

    /// A new unmanaged object of class `target` from a dictionary, an array or an object.
    private static func unmanagedObject(_ target: ObjectBase.Type, from nested: Any, copyingInto destination: RealmCore?) throws -> _StrataValue {
        let object = target.init()
        let info = try ModelClass.of(target)
        for (index, v) in try values(from: nested, for: info, copyingInto: destination).enumerated() {
            if let v { info.properties[index].field.setValue(v, at: info.field(index, of: object)) }
        }
        return _StrataValue(.link(0), object: object)
    }

    /// A list's elements from an array, or a Realm collection (`List`, `MutableSet`, `Results`,
    /// `LinkingObjects`, `AnyRealmCollection`); each element as the list's element type takes it.
    private static func list(_ given: Any?, for property: ModelProperty, className: String,
                             copyingInto destination: RealmCore?) throws -> _StrataValue {
        if property.schema.isMap { return try map(given, for: property, className: className, copyingInto: destination) }
        let items: [Any?]
        switch flatten(given) {
        case nil, is NSNull: items = []
        case let array as [Any?]: items = array
        case let array as NSArray: items = array.map { $0 }
        case let list as any ListElements: items = list.anyElements
        default:
            throw mismatch(given, property.schema, className, reason: "expected an array for a list")
        }
        let element = elementProperty(of: property)
        return _StrataValue(.null, collection: try items.map { try value($0, for: element, className: className, copyingInto: destination) })
    }

    /// A map's entries from a dictionary (or a Map); each value as the map's value type takes
    /// it, each key checked.
    private static func map(_ given: Any?, for property: ModelProperty, className: String,
                            copyingInto destination: RealmCore?) throws -> _StrataValue {
        let entries: [String: Any?]
        switch flatten(given) {
        case nil, is NSNull: entries = [:]
        case let array as [Any?] where array.isEmpty: entries = [:]  // an empty map, as RealmSwift takes `[]`
        case let dictionary as [String: Any?]: entries = dictionary
        case let dictionary as NSDictionary:
            entries = try Dictionary(uniqueKeysWithValues: dictionary.map { k, v in
                guard let key = k as? String else { throw mismatch(given, property.schema, className, reason: "map keys must be strings") }
                return (key, v as Any?)
            })
        case let map as any MapEntries: entries = map.anyEntries
        default:
            throw mismatch(given, property.schema, className, reason: "expected a dictionary for a map")
        }
        let keys = entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for k in keys { try translatingErrors { try StrataStorage.ListStore.checkMapKey(k) } }
        let element = elementProperty(of: property)
        return _StrataValue(.null, collection: MapContents(keys: keys, values: try keys.map { try value(entries[$0]!, for: element, className: className, copyingInto: destination) }))
    }

    /// The property a list's, set's or map's single element is converted as.
    private static func elementProperty(of property: ModelProperty) -> ModelProperty {
        var schema = property.schema
        schema.isList = false
        schema.isSet = false
        schema.isMap = false
        return ModelProperty(name: property.name, offset: property.offset, field: property.field, schema: schema,
                             linkTarget: property.linkTarget, listAccess: nil, reader: property.reader)
    }

    /// One value for `property`; throws `.invalidInput` naming the property when it does not fit.
    static func value(_ given: Any?, for property: PropertySchema, className: String) throws -> StrataStorage.Value {
        // The common cases first, without unwrapping or bridging.
        switch (given, property.type) {
        case (let i as Int, .int) where property.intWidth == 64: return .int(Int64(i))
        case (let s as String, .string): return .string(s)
        default: break
        }
        let unwrapped = flatten(given)
        guard let v = unwrapped, !(v is NSNull) else {
            if property.isOptional { return .null }
            throw mismatch(given, property, className, reason: "the property is not optional")
        }
        let converted: StrataStorage.Value? = switch property.type {
        case .bool: (v as? Bool).map { .bool($0) }
        case .int: integer(v, width: property.intWidth).map { .int($0) }
        case .float: floating(v).map { .float(Float($0)) }
        case .double: floating(v).map { .double($0) }
        case .string: (v as? String).map { .string($0) }
        case .data: (v as? Data).map { .data($0) }
        case .date: (v as? Date).map { .date($0) }
        case .uuid: (v as? UUID).map { .uuid($0) } ?? (v as? String).flatMap(UUID.init(uuidString:)).map { .uuid($0) }
        case .link: nil
        case .objectId: objectId(v).map { .objectId($0) }
        case .decimal128: decimal(v).map { .decimal128($0) }
        case .mixed: mixed(v)
        }
        guard let converted else {
            // An enum or a custom mapping converts as the value it is stored as.
            if let mapped = v as? any _MappedPersistable { return try value(mapped._strataStoredForm, for: property, className: className) }
            throw mismatch(given, property, className, reason: nil)
        }
        return converted
    }

    /// Unwraps optionals nested inside `Any` (`Optional<Int>.none as Any`).
    static func flatten(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let optional = value as? AnyOptional { return flatten(optional.wrappedAny) }
        return value
    }

    static func integer(_ v: Any, width: Int) -> Int64? {
        let i: Int64?
        switch v {
        case let x as Int: i = Int64(x)
        case let x as Int8: i = Int64(x)
        case let x as Int16: i = Int64(x)
        case let x as Int32: i = Int64(x)
        case let x as Int64: i = x
        case let x as UInt8: i = Int64(x)
        case let x as UInt16: i = Int64(x)
        case let x as UInt32: i = Int64(x)
        case let x as UInt: i = Int64(exactly: x)
        case let x as Double: i = Int64(exactly: x)
        case let x as NSNumber where !(x is Bool): i = Int64(exactly: x.doubleValue) ?? x.int64Value
        default: i = nil
        }
        guard let i, fits(i, width: width) else { return nil }
        return i
    }

    /// Whether an integer fits `width` bits.
    static func fits(_ value: Int64, width: Int) -> Bool {
        guard width < 64 else { return true }
        let limit = Int64(1) << Int64(width - 1)
        return value >= -limit && value < limit
    }

    /// An `ObjectId`, or a string of its 24 hexadecimal digits.
    static func objectId(_ v: Any) -> ObjectId? {
        (v as? ObjectId) ?? (v as? String).flatMap { try? ObjectId(string: $0) }
    }

    /// A decimal128 from a `Decimal128`, decimal text, a `Decimal` or a number (as
    /// `Decimal128(value:)` converts them); nil for anything else.
    static func decimal(_ v: Any) -> BID128? {
        switch v {
        case let x as Decimal128: x.bid
        case let x as String: BID128(text: x)
        case let x as Decimal: BID128(text: x.description)
        case let x as Double: BID128(binary: x, digits: 15)
        case let x as Float: BID128(binary: Double(x), digits: 7)
        case let x as NSNumber where !(x is Bool): Decimal128(number: x).bid
        default: integer(v, width: 64).map { BID128(integer: $0) }
        }
    }

    /// A mixed value from an `AnyRealmValue` other than an object, or from a value of any
    /// stored kind as itself (an `Int` is `.int`, a `String` `.string`); nil for anything else.
    static func mixed(_ v: Any) -> StrataStorage.Value? {
        switch v {
        case let x as AnyRealmValue:
            if case .object = x { return nil }
            return x._strataValue.value
        case let x as Bool: return .bool(x)
        case let x as Float: return .float(x)
        case let x as Double: return .double(x)
        case let x as String: return .string(x)
        case let x as Data: return .data(x)
        case let x as Date: return .date(x)
        case let x as UUID: return .uuid(x)
        case let x as ObjectId: return .objectId(x)
        case let x as Decimal128: return .decimal128(x.bid)
        default: return integer(v, width: 64).map { .int($0) }
        }
    }

    static func floating(_ v: Any) -> Double? {
        switch v {
        case let x as Double: x
        case let x as Float: Double(x)
        case let x as Int: Double(x)
        case let x as NSNumber where !(x is Bool): x.doubleValue
        default: nil
        }
    }

    private static func mismatch(_ given: Any?, _ property: PropertySchema, _ className: String, reason: String?) -> Realm.Error {
        let shown = given.map { "'\($0)' (\(type(of: $0)))" } ?? "nil"
        let expected = property.type == .int && property.intWidth < 64 ? "int\(property.intWidth)" : property.type.description
        return Realm.Error(.invalidInput, "Invalid value \(shown) for property '\(className).\(property.name)' of type \(expected)\(property.isOptional ? "?" : "")\(reason.map { ": \($0)" } ?? "")")
    }
}

/// Lets `Any` values that hold an `Optional` be unwrapped without reflection.
private protocol AnyOptional { var wrappedAny: Any? { get } }
extension Optional: AnyOptional {
    fileprivate var wrappedAny: Any? { self.map { $0 as Any } }
}

/// Lets a `List` given as a value be read as its elements without knowing its element type.
/// Lets a Realm collection given as a list's value (`["dogs": realm.objects(Dog.self)]`, as
/// RealmSwift takes it) be read as its elements without knowing its element type.
protocol ListElements { var anyElements: [Any?] { get } }
extension RealmCollection {
    var anyElements: [Any?] { map { $0 as Any? } }
}
extension List: ListElements {}
extension MutableSet: ListElements {}
extension Results: ListElements {}
extension LinkingObjects: ListElements {}
extension AnyRealmCollection: ListElements {}

/// Lets a `Map` given as a value be read as its entries without knowing its value type.
protocol MapEntries { var anyEntries: [String: Any?] { get } }
extension Map: MapEntries {
    var anyEntries: [String: Any?] {
        Dictionary(uniqueKeysWithValues: asKeyValueSequence().map { ($0.key._strataMapKey, $0.value as Any?) })
    }
}
