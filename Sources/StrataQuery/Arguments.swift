import Foundation
import StrataStorage
import StrataValues

/// Converts the `Any` arguments of `filter(_:_:)` into query values.
///
/// Accepts what RealmSwift accepts for scalar properties: every Swift integer width, Float,
/// Double, Bool, String, Data, Date, UUID (and their Foundation twins), NSNull and nil
/// optionals (as null), optionals wrapping any of those, and arrays or sets of them for IN.
package enum ArgumentConversion {
    /// One converted argument.
    package enum Converted: Equatable {
        /// A single value.
        case value(Value)
        /// A collection of values (for `IN %@` and `BETWEEN %@`).
        case list([Value])
    }

    /// Converts one argument; nil when its type cannot be used in a query.
    package static func convert(_ any: Any) -> Converted? {
        // The commonest values, by their exact type alone; then the usual arrays: trying them
        // against the scalar casts would bridge them to Foundation (an NSArray of boxed
        // elements) to no avail.
        if let v = common(any) { return .value(v) }
        if let values = commonList(any) { return .list(values) }
        if let v = scalar(any) { return .value(v) }
        let mirror = Mirror(reflecting: any)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return .value(.null) }
            return convert(wrapped)
        case .collection, .set:
            var values: [Value] = []
            for child in mirror.children {
                guard case .value(let v)? = convert(child.value) else { return nil }
                values.append(v)
            }
            return .list(values)
        default:
            if let array = any as? NSArray {
                var values: [Value] = []
                for item in array {
                    guard case .value(let v)? = convert(item) else { return nil }
                    values.append(v)
                }
                return .list(values)
            }
            return nil
        }
    }

    /// The value of an argument of the commonest types (String, Int, Double), recognised by
    /// its exact type: each `as` in `scalar` is a dynamic cast, and a String would otherwise
    /// fail thirteen of them before its own. Nil for any other type.
    package static func common(_ any: Any) -> Value? {
        let type = Swift.type(of: any)
        if type == String.self { return .string(any as! String) }
        if type == Int.self { return .int(Int64(any as! Int)) }
        if type == Double.self { return .double(any as! Double) }
        return nil
    }

    /// The values of an array argument of the commonest types ([Int], [Int64], [String]),
    /// recognised by its exact type: casting an array to a protocol or to another array type
    /// may bridge it to Foundation first. Nil for any other argument.
    package static func commonList(_ any: Any) -> [Value]? {
        let type = Swift.type(of: any)
        if type == [Int].self { return (any as! [Int]).map { .int(Int64($0)) } }
        if type == [Int64].self { return (any as! [Int64]).map { .int($0) } }
        if type == [String].self { return (any as! [String]).map { .string($0) } }
        return nil
    }

    /// Whether an argument is a value or an array of values of the commonest types, known by
    /// its exact type alone (no dynamic cast): such an argument is never an object.
    package static func isCommon(_ any: Any) -> Bool {
        let type = Swift.type(of: any)
        return type == String.self || type == Int.self || type == Double.self
            || type == [Int].self || type == [Int64].self || type == [String].self
    }

    /// A scalar argument as a value, or nil for anything else.
    private static func scalar(_ any: Any) -> Value? {
        if let value = common(any) { return value }
        switch any {
        case let v as Bool: return .bool(v)
        case let v as Int: return .int(Int64(v))
        case let v as Int8: return .int(Int64(v))
        case let v as Int16: return .int(Int64(v))
        case let v as Int32: return .int(Int64(v))
        case let v as Int64: return .int(v)
        case let v as UInt: return v <= UInt(Int64.max) ? .int(Int64(v)) : .double(Double(v))
        case let v as UInt8: return .int(Int64(v))
        case let v as UInt16: return .int(Int64(v))
        case let v as UInt32: return .int(Int64(v))
        case let v as UInt64: return v <= UInt64(Int64.max) ? .int(Int64(v)) : .double(Double(v))
        case let v as Float: return .float(v)
        case let v as Double: return .double(v)
        case let v as String: return .string(v)
        case let v as Substring: return .string(String(v))
        case let v as Character: return .string(String(v))
        case let v as Data: return .data(v)
        case let v as Date: return .date(v)
        case let v as UUID: return .uuid(v)
        case let v as ObjectId: return .objectId(v)
        case let v as Decimal128: return .decimal128(v.bid)
        case is NSNull: return .null
        case let v as NSString: return .string(String(describing: v))
        case let v as NSData: return .data(Data(referencing: v))
        case let v as NSDate: return .date(Date(timeIntervalSinceReferenceDate: v.timeIntervalSinceReferenceDate))
        case let v as NSUUID: return .uuid(UUID(uuidString: v.uuidString) ?? UUID())
        case let v as NSNumber:
            let i = v.int64Value
            return Double(i) == v.doubleValue ? .int(i) : .double(v.doubleValue)
        default: return nil
        }
    }

    /// How an argument reads in an error message: its value and Swift type.
    package static func describe(_ any: Any) -> String {
        let text = String(describing: any)
        let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
        let typeName = "\(type(of: any))"
        let article = "AEIOU".contains(typeName.first ?? "x") ? "an" : "a"
        return "\(shown), \(article) \(typeName)"
    }
}
