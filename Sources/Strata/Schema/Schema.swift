import Foundation
import StrataStorage

/// The type of a property (RealmSwift's `PropertyType`). All integer widths are `.int`.
public enum PropertyType: Int {
    case int = 0
    case bool = 1
    case string = 2
    case data = 3
    case date = 4
    case float = 5
    case double = 6
    case object = 7
    case linkingObjects = 8
    case any = 9
    case objectId = 10
    case decimal128 = 11
    case UUID = 12

    init(_ type: StrataStorage.PropertyType) {
        switch type {
        case .bool: self = .bool
        case .int: self = .int
        case .float: self = .float
        case .double: self = .double
        case .string: self = .string
        case .data: self = .data
        case .date: self = .date
        case .uuid: self = .UUID
        case .link: self = .object
        case .objectId: self = .objectId
        case .decimal128: self = .decimal128
        case .mixed: self = .any
        }
    }
}

/// The classes of a Realm (RealmSwift's `Schema`).
public struct Schema: CustomStringConvertible, Equatable {
    /// Every class, sorted by name.
    public let objectSchema: [ObjectSchema]

    init(stored: FileSchema) {
        let known = ModelClass.discovered
        objectSchema = stored.sorted.map { c in
            // A class of the program shows its properties under their property names.
            let info = known.first { $0.name == c.name }
            return ObjectSchema(info?.publicSchema(c) ?? c, objectClass: info?.type)
        }
    }

    /// The class named `className`, if any.
    public subscript(className: String) -> ObjectSchema? { objectSchema.first { $0.className == className } }

    public var description: String { "Schema {\n" + objectSchema.map(\.description).joined(separator: "\n") + "\n}" }
}

/// One class's schema (RealmSwift's `ObjectSchema`).
public struct ObjectSchema: CustomStringConvertible, Equatable {
    /// Persisted properties in declaration order (plain `var`s are absent).
    public let properties: [Property]
    /// The class's name in the schema.
    public let className: String
    private let type: AnyClass?

    init(_ schema: ClassSchema, objectClass: AnyClass?) {
        className = schema.name
        properties = schema.properties.map(Property.init)
        type = objectClass
    }

    init(_ info: ModelClass) { self.init(info.publicSchema(info.schema), objectClass: info.type) }

    /// The Swift class (the generic `DynamicObject` when the class is not in the program).
    public var objectClass: AnyClass { type ?? Object.self }
    /// The primary-key property, if any.
    public var primaryKeyProperty: Property? { properties.first { $0.isPrimary } }
    /// The property named `propertyName`, if any.
    public subscript(propertyName: String) -> Property? { properties.first { $0.name == propertyName } }

    public var description: String {
        "\(className) {\n" + properties.map { "\t\($0.description)" }.joined(separator: "\n") + "\n}"
    }

    public static func == (lhs: ObjectSchema, rhs: ObjectSchema) -> Bool {
        lhs.className == rhs.className && lhs.properties == rhs.properties
    }
}

/// One property's schema (RealmSwift's `Property`).
public struct Property: CustomStringConvertible, Equatable {
    /// The property's name.
    public let name: String
    /// Its stored type.
    public let type: PropertyType
    /// Whether it is a list (lists come with relationships).
    public let isArray: Bool
    /// Whether it has a secondary index (the primary key is indexed too).
    public let isIndexed: Bool
    /// Whether it may hold nil (always for a to-one link, as in RealmSwift).
    public let isOptional: Bool
    /// The target class of a link.
    public let objectClassName: String?
    let isPrimary: Bool

    init(_ p: PropertySchema) {
        name = p.name
        type = PropertyType(p.type)
        isArray = false
        isIndexed = p.hasIndex
        isOptional = p.isOptional || (p.type == .link && !p.isList && !p.isSet)
        objectClassName = p.linkTarget
        isPrimary = p.isPrimaryKey
    }

    public var description: String {
        "\(name) { type = \(type); indexed = \(isIndexed ? "YES" : "NO"); isPrimary = \(isPrimary ? "YES" : "NO"); optional = \(isOptional ? "YES" : "NO"); }"
    }
}
