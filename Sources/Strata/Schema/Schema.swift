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

    /// The type's name in schema descriptions (RealmSwift's words).
    var name: String {
        switch self {
        case .int: "int"
        case .bool: "bool"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .float: "float"
        case .double: "double"
        case .object: "object"
        case .linkingObjects: "linking objects"
        case .any: "mixed"
        case .objectId: "object id"
        case .decimal128: "decimal128"
        case .UUID: "uuid"
        }
    }

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
        let known = ModelClass.declared
        objectSchema = stored.sorted.map { c in ObjectSchema(c, info: known.first { $0.name == c.name }) }
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
    /// Whether the class is embedded.
    private let isEmbedded: Bool

    /// Stored class `schema`, with the properties of `info` (the program's class of that
    /// name, if any) under their property names.
    init(_ schema: ClassSchema, info: ModelClass?) {
        className = schema.name
        properties = schema.properties.map { Property($0, name: info?.propertyName(ofStored: $0.name) ?? $0.name) }
        type = info?.type
        isEmbedded = schema.isEmbedded
    }

    init(_ info: ModelClass) { self.init(info.schema, info: info) }

    /// The Swift class (the generic `DynamicObject` when the class is not in the program).
    public var objectClass: AnyClass { type ?? Object.self }
    /// The primary-key property, if any.
    public var primaryKeyProperty: Property? { properties.first { $0.isPrimary } }
    /// The property named `propertyName`, if any.
    public subscript(propertyName: String) -> Property? { properties.first { $0.name == propertyName } }

    /// RealmSwift's text: the class, then each property's description indented by a tab.
    public var description: String {
        let embedded = isEmbedded ? "(embedded) " : ""
        return "\(className) \(embedded){\n" + properties.map { "\t" + $0.description.replacingOccurrences(of: "\n", with: "\n\t") + "\n" }.joined() + "}"
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
    /// The name the file stores it under, when it differs from `name` (`propertiesMapping`).
    public let columnName: String?
    /// Whether it is a list.
    public let isArray: Bool
    /// Whether it is a set (`MutableSet`).
    public let isSet: Bool
    /// Whether it is a map (`Map`).
    public let isMap: Bool
    /// Whether it has a secondary index (the primary key is indexed too).
    public let isIndexed: Bool
    /// Whether it may hold nil (always for a to-one link, never for `AnyRealmValue`, whose
    /// nil is a value: as in RealmSwift).
    public let isOptional: Bool
    /// The target class of a link.
    public let objectClassName: String?
    let isPrimary: Bool

    /// Stored property `p`, called `name` by code.
    init(_ p: PropertySchema, name: String) {
        self.name = name
        columnName = name == p.name ? nil : p.name
        type = PropertyType(p.type)
        isArray = p.isList && !p.isSet && !p.isMap
        isSet = p.isSet
        isMap = p.isMap
        isIndexed = p.hasIndex
        isOptional = p.type != .mixed && (p.isOptional || (p.type == .link && !p.isList && !p.isSet))
        objectClassName = p.linkTarget
        isPrimary = p.isPrimaryKey
    }

    /// RealmSwift's text: one line per attribute, in its order and words.
    public var description: String {
        func yesNo(_ flag: Bool) -> String { flag ? "YES" : "NO" }
        let link = objectClassName.map { "\tobjectClassName = \($0);\n\tlinkOriginPropertyName = (null);\n" } ?? ""
        return "\(name) {\n\ttype = \(type.name);\n\(link)\tcolumnName = \(columnName ?? name);\n\tindexed = \(yesNo(isIndexed));\n"
            + "\tisPrimary = \(yesNo(isPrimary));\n\tarray = \(yesNo(isArray));\n\tset = \(yesNo(isSet));\n\tdictionary = \(yesNo(isMap));\n"
            + "\toptional = \(yesNo(isOptional));\n}"
    }
}
