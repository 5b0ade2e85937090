import StrataStorage

/// The first line of `strata export`: `{"schema": {"version": V, "classes": [ClassJSON]}}`,
/// the schema version (null when none is stored) and the exported classes with the classes
/// they link to.
struct SchemaLine: Codable {
    /// The member `schema`: the version and the classes.
    struct Schema: Codable {
        @NullWhenNil var version: UInt64?
        var classes: [ClassJSON]
    }

    var schema: Schema
}

/// The JSON shape of a class's stored schema, shared by `strata info --json` (with the
/// object count) and the first line of `strata export` (from which `strata import` creates
/// the classes a file lacks). Documented in docs/INSPECTOR.md.
struct ClassJSON: Codable {
    var name: String
    /// The primary-key property's name, or null.
    @NullWhenNil var primaryKey: String?
    /// True for an embedded class; absent otherwise.
    var embedded: Bool?
    var properties: [PropertyJSON]
    /// The number of objects (`info` only).
    var objects: Int?

    /// The JSON form of a stored class, with its object count for `info`.
    init(_ schema: ClassSchema, objects: Int? = nil) {
        name = schema.name
        primaryKey = schema.primaryKey?.name
        embedded = schema.isEmbedded ? true : nil
        properties = schema.properties.map(PropertyJSON.init)
        self.objects = objects
    }

    /// The class as the storage layer stores it, with property ids in the order given.
    /// Throws a description of the first property that names no known type.
    func schema() throws -> ClassSchema {
        ClassSchema(name: name, properties: try properties.enumerated().map { id, p in try p.schema(id: id, in: name) },
                    isEmbedded: embedded == true)
    }
}

/// One property: `name`, `type` (the stored type: `link` for links and lists of objects),
/// `bits` (the width of an integer, null for other types), `optional`, `indexed` (true for
/// the primary key too), `primaryKey`, `list`, `set` (true for a set, which is also a list;
/// absent otherwise), `map` (true for a map, also a list; absent otherwise), `target` (the
/// linked class or null).
struct PropertyJSON: Codable {
    var name: String
    var type: String
    @NullWhenNil var bits: Int?
    var optional: Bool
    var indexed: Bool
    var primaryKey: Bool
    var list: Bool
    var set: Bool?
    var map: Bool?
    @NullWhenNil var target: String?

    /// The JSON form of a stored property.
    init(_ p: PropertySchema) {
        name = p.name
        type = p.type.description
        bits = p.type == .int ? p.intWidth : nil
        optional = p.isOptional
        indexed = p.hasIndex
        primaryKey = p.isPrimaryKey
        list = p.isList
        set = p.isSet ? true : nil
        map = p.isMap ? true : nil
        target = p.linkTarget
    }

    /// The stored property with id `id`. A primary key is not marked indexed (it has its own
    /// index), as a model's `@Persisted(primaryKey: true)` stores it.
    func schema(id: Int, in className: String) throws -> PropertySchema {
        guard let stored = (UInt8.min...UInt8.max).lazy.compactMap(PropertyType.init(rawValue:)).first(where: { $0.description == type }) else {
            throw ObjectLines.Problem("\(className).\(name): unknown type '\(type)'")
        }
        if stored == .link && target == nil { throw ObjectLines.Problem("\(className).\(name): a link needs a \"target\"") }
        let width = bits ?? 64
        guard stored != .int || [8, 16, 32, 64].contains(width) else {
            throw ObjectLines.Problem("\(className).\(name): \"bits\" must be 8, 16, 32 or 64")
        }
        return PropertySchema(name: name, type: stored, isOptional: optional, isIndexed: indexed && !primaryKey,
                              isPrimaryKey: primaryKey, id: id, intWidth: stored == .int ? width : 64,
                              linkTarget: stored == .link ? target : nil, isList: list || set == true || map == true,
                              isSet: set == true, isMap: map == true)
    }
}
