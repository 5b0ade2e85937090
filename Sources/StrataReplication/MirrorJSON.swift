import Foundation
import StrataStorage
import StrataValues

/// The `jsonb` of a mirror's collection and mixed columns (docs/REPLICATION.md, "Mirror"):
/// booleans, numbers (dates as seconds since 1970; not-a-number and infinities as the strings
/// "NaN", "Infinity", "-Infinity"), strings; data as base64, UUIDs, ObjectIds and decimals as
/// strings, a link as the target's `_key`; a mixed value as `{"type": kind, "value": …}`.
enum MirrorJSON {
    /// A list or set as an array, in its order.
    static func array(_ values: [Value], of property: PropertySchema) -> String {
        "[" + values.map { element($0, of: property) }.joined(separator: ",") + "]"
    }

    /// A map as an object, by key.
    static func object(keys: [String], values: [Value], of property: PropertySchema) -> String {
        "{" + zip(keys, values).map { TextEscapes.jsonString($0) + ":" + element($1, of: property) }.joined(separator: ",") + "}"
    }

    /// A mixed value with its kind.
    static func mixed(_ value: Value) -> String {
        guard let kind = value.storedType else { return "null" }
        if case .typedLink(let className, let key) = value {
            return "{\"type\":\"link\",\"class\":\(TextEscapes.jsonString(className)),\"value\":\(Int64(bitPattern: key))}"
        }
        return "{\"type\":\(TextEscapes.jsonString(kind.description)),\"value\":\(scalar(value))}"
    }

    private static func element(_ value: Value, of property: PropertySchema) -> String {
        property.type == .mixed ? mixed(value) : scalar(value)
    }

    private static func scalar(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return number(Double(f))
        case .double(let d): return number(d)
        case .string(let s): return TextEscapes.jsonString(s)
        case .data(let d): return TextEscapes.jsonString(d.base64EncodedString())
        case .date(let d): return number(d.timeIntervalSince1970)
        case .uuid(let u): return TextEscapes.jsonString(u.uuidString)
        case .link(let k), .typedLink(_, let k): return String(Int64(bitPattern: k))
        case .objectId(let id): return TextEscapes.jsonString(id.stringValue)
        case .decimal128(let d): return TextEscapes.jsonString(d.text)
        }
    }

    /// A double as JSON: its shortest text, or "NaN", "Infinity", "-Infinity" as strings.
    static func number(_ d: Double) -> String {
        if d.isNaN { return "\"NaN\"" }
        if d.isInfinite { return d > 0 ? "\"Infinity\"" : "\"-Infinity\"" }
        return "\(d)"
    }
}
