/// The stored type of a property. Raw values are written into the schema record in the file:
/// changing one breaks the file format (append only; retired codes stay reserved).
@usableFromInline
package enum PropertyType: UInt8, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case bool = 1
    case int = 2
    case float = 3
    case double = 4
    case string = 5
    case data = 6
    case date = 7
    case uuid = 8
    /// A to-one link to an object of `PropertySchema.linkTarget`.
    case link = 9
    /// A 12-byte `ObjectId`.
    case objectId = 10
    /// An IEEE 754-2008 decimal128 (`Decimal128`), 16 bytes.
    case decimal128 = 11
    /// A mixed value (`AnyRealmValue`): a tag byte, the stored type's code, then the slot bytes
    /// of a value of that type; null is `.none`.
    case mixed = 12

    @usableFromInline package var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .uuid: "uuid"
        case .link: "link"
        case .objectId: "objectId"
        case .decimal128: "decimal128"
        case .mixed: "mixed"
        }
    }

    /// Whether `<`, `>` and `BETWEEN` apply.
    package var isOrdered: Bool {
        switch self {
        case .int, .float, .double, .date, .string, .data, .objectId, .decimal128, .mixed: true
        default: false
        }
    }

    /// Whether the type is a number (int, float, double or decimal128).
    package var isNumeric: Bool { self == .int || self == .float || self == .double || self == .decimal128 }
}
