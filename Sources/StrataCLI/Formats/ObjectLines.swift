import Foundation
import Glibc
import StrataStorage
import StrataValues

/// The values of `strata export` and `strata import` lines (docs/INSPECTOR.md, "Export
/// format"): each property value as JSON, chosen by the property's stored type so that every
/// value survives a round trip exactly.
///
/// - bool, string: JSON booleans and strings; int: a JSON integer
/// - double: the shortest decimal that reads back as the same double; float: the same, of the
///   float widened to a double; not-a-number and infinities as "nan", "inf", "-inf"
/// - data: base64; uuid: its string; objectId: its 24 hexadecimal digits; date: ISO 8601 in
///   UTC with as many fraction digits as it needs (`ISOTime`), or, for a date ISO 8601 cannot
///   hold exactly, seconds since 2001-01-01T00:00:00Z as a number (import takes both)
/// - decimal128: its exact text as a JSON string (`"1.50"`, `"-Inf"`, `"NaN"`); import also
///   takes a JSON number, read exactly from its text
/// - mixed: null, or an object of the value's kind and its JSON in the form above
///   (`{"type":"int","value":5}`, `{"type":"string","value":"5"}`); an object it holds as
///   its class and its key in the form of a link (`{"type":"link","value":{"class":"Dog",
///   "key":"Rex"}}`)
/// - an object key (the "key" of a line, a link to an object of a class without a primary
///   key): the string "#N", which JSON readers cannot round as they round large numbers;
///   import also takes the number N
/// - a link: the target's primary key, or its object key when its class has none; null
/// - a list: an array of its elements in the same forms
enum ObjectLines {
    // MARK: Encoding

    /// The JSON text of `value`, a value of `property` (a list element when it is a list).
    /// `linkKey` gives a link target's JSON text.
    static func json(_ value: Value, linkKey: (ObjectKey) throws -> String) rethrows -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return number(Double(f))
        case .double(let d): return number(d)
        case .string(let s): return TextEscapes.jsonString(s)
        case .data(let d): return "\"" + d.base64EncodedString() + "\""
        case .date(let d): return ISOTime.text(d).map { "\"" + $0 + "\"" } ?? number(d.timeIntervalSinceReferenceDate)
        case .uuid(let u): return "\"" + u.uuidString + "\""
        case .link(let k), .typedLink(_, let k): return try linkKey(k)
        case .objectId(let id): return "\"" + id.stringValue + "\""
        case .decimal128(let d): return "\"" + d.text + "\""
        }
    }

    /// An object key as JSON: the string "#N".
    static func objectKeyJSON(_ key: ObjectKey) -> String { "\"#\(key)\"" }

    /// The object key of `json`: the string "#N" or the number N; nil for anything else.
    static func objectKey(_ json: JSONValue) -> ObjectKey? {
        switch json {
        case .number(let text): return UInt64(text)
        case .string(let text) where text.hasPrefix("#"): return UInt64(text.dropFirst())
        default: return nil
        }
    }

    /// A double as JSON: its shortest text, or "nan", "inf", "-inf" as strings.
    static func number(_ d: Double) -> String {
        if d.isNaN { return "\"nan\"" }
        if d.isInfinite { return d > 0 ? "\"inf\"" : "\"-inf\"" }
        return "\(d)"
    }

    /// The JSON text of a value of a property of `type`: a mixed value with its kind.
    /// `heldLinkKey` gives the JSON text of the key of an object of a class that a mixed value
    /// holds.
    static func json(_ value: Value, of type: PropertyType, linkKey: (ObjectKey) throws -> String,
                     heldLinkKey: (String, ObjectKey) throws -> String) rethrows -> String {
        guard type == .mixed, let kind = value.storedType else { return try json(value, linkKey: linkKey) }
        if case .typedLink(let className, let key) = value {
            return "{\"type\":\"link\",\"value\":{\"class\":" + TextEscapes.jsonString(className) + ",\"key\":" + (try heldLinkKey(className, key)) + "}}"
        }
        return "{\"type\":\"\(kind)\",\"value\":" + (try json(value, linkKey: linkKey)) + "}"
    }

    // MARK: Decoding

    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The stored value of one JSON value for `property` (of its element type for a list;
    /// never a link: links are resolved by the importer).
    static func value(_ json: JSONValue, for property: PropertySchema, in className: String) throws -> Value {
        let name = "\(className).\(property.name)"
        func wrong(_ expected: String) -> Problem { Problem("\(name): expected \(expected), got \(json.kind)") }
        if case .null = json {
            guard property.isOptional || property.type == .link else { throw Problem("\(name) cannot be null") }
            return .null
        }
        switch property.type {
        case .bool:
            guard case .bool(let b) = json else { throw wrong("true or false") }
            return .bool(b)
        case .int:
            guard case .number(let text) = json, let i = Int64(text) else { throw wrong("an integer") }
            if property.intWidth < 64 {
                let limit = Int64(1) << (property.intWidth - 1)
                guard i >= -limit, i < limit else { throw Problem("\(name): \(i) does not fit in \(property.intWidth) bits") }
            }
            return .int(i)
        case .float:
            guard let d = double(json) else { throw wrong("a number") }
            return .float(Float(d))
        case .double:
            guard let d = double(json) else { throw wrong("a number") }
            return .double(d)
        case .string:
            guard case .string(let s) = json else { throw wrong("a string") }
            return .string(s)
        case .data:
            guard case .string(let s) = json, let d = Data(base64Encoded: s) else { throw wrong("base64 text") }
            return .data(d)
        case .date:
            if case .string(let s) = json, let date = ISOTime.date(s) { return .date(date) }
            guard case .number(let text) = json, let d = Double(text) else {
                throw wrong("seconds since 2001-01-01 or an ISO-8601 date")
            }
            return .date(Date(timeIntervalSinceReferenceDate: d))
        case .uuid:
            guard case .string(let s) = json, let u = UUID(uuidString: s) else { throw wrong("a UUID") }
            return .uuid(u)
        case .objectId:
            guard case .string(let s) = json, let id = try? ObjectId(string: s) else { throw wrong("an ObjectId (24 hexadecimal digits)") }
            return .objectId(id)
        case .decimal128:
            switch json {
            case .string(let text), .number(let text):
                guard let d = BID128(text: text) else { throw wrong("a decimal number") }
                return .decimal128(d)
            default: throw wrong("a decimal number")
            }
        case .link:
            throw Problem("\(name): a link is resolved after the objects are added")
        case .mixed:
            let kinds = "an object of a \"type\" (bool, int, float, double, string, data, date, uuid, objectId, decimal128) and a \"value\""
            guard case .object(let members) = json, members.count == 2,
                  let kind = members.first(where: { $0.0 == "type" }).map(\.1), case .string(let kindName) = kind,
                  let inner = members.first(where: { $0.0 == "value" })?.1 else { throw wrong(kinds) }
            guard let stored = PropertyType.allCases.first(where: { $0.description == kindName && $0 != .link && $0 != .mixed }) else {
                throw Problem("\(name): '\(kindName)' is not a kind of mixed value; expected \(kinds)")
            }
            var schema = property
            schema.type = stored
            schema.isOptional = false
            schema.intWidth = 64
            return try value(inner, for: schema, in: className)
        }
    }

    /// A JSON number, or one of the strings "nan", "inf", "-inf", as a double.
    private static func double(_ json: JSONValue) -> Double? {
        switch json {
        case .number(let text): return Double(text)
        case .string("nan"): return .nan
        case .string("inf"): return .infinity
        case .string("-inf"): return -.infinity
        default: return nil
        }
    }
}
