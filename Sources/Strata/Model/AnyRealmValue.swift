import Foundation
import StrataStorage
import StrataValues

/// A value of any of the stored kinds, or none (RealmSwift's mixed type):
/// `@Persisted var value: AnyRealmValue` holds `.int(5)` in one object and `.string("five")` in
/// another. `.none` is the stored null. Values compare as their cases do (`.int(1)` is not
/// `.double(1)` here); queries compare numbers of every kind by value.
public enum AnyRealmValue: Hashable {
    /// No value (null).
    case none
    /// An integer.
    case int(Int)
    /// A boolean.
    case bool(Bool)
    /// A single-precision number.
    case float(Float)
    /// A double-precision number.
    case double(Double)
    /// A string.
    case string(String)
    /// Bytes.
    case data(Data)
    /// A date.
    case date(Date)
    /// An object.
    case object(Object)
    /// An object identifier.
    case objectId(ObjectId)
    /// A decimal number.
    case decimal128(Decimal128)
    /// A UUID.
    case uuid(UUID)

    /// The integer held, if that is the kind.
    public var intValue: Int? { if case .int(let v) = self { v } else { nil } }
    /// The boolean held, if that is the kind.
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    /// The float held, if that is the kind.
    public var floatValue: Float? { if case .float(let v) = self { v } else { nil } }
    /// The double held, if that is the kind.
    public var doubleValue: Double? { if case .double(let v) = self { v } else { nil } }
    /// The string held, if that is the kind.
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    /// The bytes held, if that is the kind.
    public var dataValue: Data? { if case .data(let v) = self { v } else { nil } }
    /// The date held, if that is the kind.
    public var dateValue: Date? { if case .date(let v) = self { v } else { nil } }
    /// The object identifier held, if that is the kind.
    public var objectIdValue: ObjectId? { if case .objectId(let v) = self { v } else { nil } }
    /// The decimal held, if that is the kind.
    public var decimal128Value: Decimal128? { if case .decimal128(let v) = self { v } else { nil } }
    /// The UUID held, if that is the kind.
    public var uuidValue: UUID? { if case .uuid(let v) = self { v } else { nil } }

    /// What the value holds, as its Swift type (nil for `.none`).
    var held: Any? {
        switch self {
        case .none: nil
        case .int(let v): v
        case .bool(let v): v
        case .float(let v): v
        case .double(let v): v
        case .string(let v): v
        case .data(let v): v
        case .date(let v): v
        case .object(let v): v
        case .objectId(let v): v
        case .decimal128(let v): v
        case .uuid(let v): v
        }
    }

    /// The object held, if it is one of class `objectType`.
    public func object<T: Object>(_ objectType: T.Type) -> T? {
        if case .object(let o) = self { o as? T } else { nil }
    }

    /// The object held, as a `DynamicObject` of its stored class, if it is a managed object
    /// (nil for other values and for an unmanaged object).
    public var dynamicObject: DynamicObject? {
        guard case .object(let o) = self, let core = o.managingCore, let binding = o.binding else { return nil }
        if let dynamic = o as? DynamicObject, dynamic.migrationContext == nil { return dynamic }
        guard let target = core.reading({ try core.dynamicBinding(named: binding.info.name) }) else { return nil }
        return core.object(DynamicObject.self, target, o.objectKey)
    }
}

extension AnyRealmValue: _Persistable, RealmCollectionValue, _Indexable, SortableType, MinMaxType, AddableType, _QueryNumeric {
    public typealias PersistedType = AnyRealmValue

    /// Stored as `mixed`, always nullable: `.none` is null.
    public static var _strataTypeInfo: _StrataTypeInfo {
        _StrataTypeInfo(type: .mixed, isOptional: true, intWidth: 64)
    }

    public static func _strataFrom(_ v: _StrataValue) -> AnyRealmValue {
        switch v.value {
        case .null: .none
        case .bool(let b): .bool(b)
        case .int(let i): .int(Int(i))
        case .float(let f): .float(f)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .data(let d): .data(d)
        case .date(let d): .date(d)
        case .uuid(let u): .uuid(u)
        case .objectId(let id): .objectId(id)
        case .decimal128(let d): .decimal128(Decimal128(bid: d))
        case .link, .typedLink: v.object.map { .object($0 as! Object) } ?? .none
        }
    }

    public var _strataValue: _StrataValue {
        switch self {
        case .none: _StrataValue(.null)
        case .int(let v): _StrataValue(.int(Int64(v)))
        case .bool(let v): _StrataValue(.bool(v))
        case .float(let v): _StrataValue(.float(v))
        case .double(let v): _StrataValue(.double(v))
        case .string(let v): _StrataValue(.string(v))
        case .data(let v): _StrataValue(.data(v))
        case .date(let v): _StrataValue(.date(v))
        case .object(let o): o._strataValue
        case .objectId(let v): _StrataValue(.objectId(v))
        case .decimal128(let v): _StrataValue(.decimal128(v.bid))
        case .uuid(let v): _StrataValue(.uuid(v))
        }
    }
}
