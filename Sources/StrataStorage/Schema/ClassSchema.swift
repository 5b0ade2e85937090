/// One persisted property as the storage layer sees it.
package struct PropertySchema: Sendable, Codable, Equatable {
    /// The property's name, as declared in Swift (without the `_` of its wrapper storage).
    package var name: String
    package var type: PropertyType
    package var isOptional: Bool
    package var isIndexed: Bool
    package var isPrimaryKey: Bool
    /// The stable property id: the row slot that holds the value. Never reused within a class,
    /// so renaming or adding properties does not rewrite rows.
    package var id: Int
    /// The bit width of an integer property (8, 16, 32, 64); checked when values are written.
    package var intWidth: Int = 64
    /// For a link, the target class's name.
    package var linkTarget: String?
    /// Whether the property is a list of values of `type` (stored in its own database, not in
    /// the row). Absent from schemas written before lists existed.
    package var isList = false
    /// Whether the list property is a set: its elements are unique and kept in value order
    /// (`Value.compare`), so a member is found by binary search. Absent before sets existed.
    package var isSet = false
    /// Whether the list property is a map: its elements are the values of string keys kept in
    /// key order, the keys stored beside them (docs/FILE-FORMAT.md, "Maps"). Absent before maps
    /// existed.
    package var isMap = false
    /// Whether this stands for the keys of map property `id` in a query (`map.@keys`): a list
    /// of strings read from the map's keys entry. Never stored.
    package var isMapKeys = false
    /// Set when this stands for the value under one key of map property `id` in a query
    /// (`map['key']`): a list of that one value, null when the key is missing. Never stored.
    package var mapEntryKey: String?

    package init(name: String, type: PropertyType, isOptional: Bool = false, isIndexed: Bool = false,
                 isPrimaryKey: Bool = false, id: Int, intWidth: Int = 64, linkTarget: String? = nil,
                 isList: Bool = false, isSet: Bool = false, isMap: Bool = false) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isIndexed = isIndexed
        self.isPrimaryKey = isPrimaryKey
        self.id = id
        self.intWidth = intWidth
        self.linkTarget = linkTarget
        self.isList = isList
        self.isSet = isSet
        self.isMap = isMap
    }

    private enum CodingKeys: String, CodingKey {
        case name, type, isOptional, isIndexed, isPrimaryKey, id, intWidth, linkTarget, isList, isSet, isMap
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        type = try c.decode(PropertyType.self, forKey: .type)
        isOptional = try c.decode(Bool.self, forKey: .isOptional)
        isIndexed = try c.decode(Bool.self, forKey: .isIndexed)
        isPrimaryKey = try c.decode(Bool.self, forKey: .isPrimaryKey)
        id = try c.decode(Int.self, forKey: .id)
        intWidth = try c.decodeIfPresent(Int.self, forKey: .intWidth) ?? 64
        linkTarget = try c.decodeIfPresent(String.self, forKey: .linkTarget)
        isList = try c.decodeIfPresent(Bool.self, forKey: .isList) ?? false
        isSet = try c.decodeIfPresent(Bool.self, forKey: .isSet) ?? false
        isMap = try c.decodeIfPresent(Bool.self, forKey: .isMap) ?? false
    }

    /// Encodes every field, `isSet` and `isMap` only when true, so that schemas without sets or
    /// maps keep the bytes they had before those existed.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(type, forKey: .type)
        try c.encode(isOptional, forKey: .isOptional)
        try c.encode(isIndexed, forKey: .isIndexed)
        try c.encode(isPrimaryKey, forKey: .isPrimaryKey)
        try c.encode(id, forKey: .id)
        try c.encode(intWidth, forKey: .intWidth)
        try c.encodeIfPresent(linkTarget, forKey: .linkTarget)
        try c.encode(isList, forKey: .isList)
        if isSet { try c.encode(isSet, forKey: .isSet) }
        if isMap { try c.encode(isMap, forKey: .isMap) }
    }

    /// The keys of this map property, as a query reads them (`map.@keys`).
    package var mapKeys: PropertySchema {
        var keys = PropertySchema(name: name, type: .string, id: id, isList: true)
        keys.isMapKeys = true
        return keys
    }

    /// The value under `key` of this map property, as a query reads it (`map['key']`): optional,
    /// since a missing key reads nil.
    package func mapEntry(_ key: String) -> PropertySchema {
        var entry = self
        entry.mapEntryKey = key
        entry.isOptional = true
        return entry
    }

    /// Whether the property is a to-one link (its target's key is in the row).
    package var isToOneLink: Bool { type == .link && !isList }
    /// Whether the property's values can be links: it is a link, a collection of objects, or
    /// mixed (`Value.typedLink`).
    package var canHoldLinks: Bool { type == .link || type == .mixed }

    /// Whether the property has a B-tree index (secondary or primary key).
    package var hasIndex: Bool { isIndexed || isPrimaryKey }
}

/// One persisted class: its name and properties, in declaration order.
package struct ClassSchema: Sendable, Codable, Equatable {
    package var name: String
    package var properties: [PropertySchema]
    /// Whether the class is embedded: each of its objects is owned by exactly one link or
    /// list element of another object, and is deleted with it. Absent (false) from schemas
    /// written before embedded classes existed.
    package var isEmbedded = false

    package init(name: String, properties: [PropertySchema], isEmbedded: Bool = false) {
        self.name = name
        self.properties = properties
        self.isEmbedded = isEmbedded
    }

    private enum CodingKeys: String, CodingKey {
        case name, properties, isEmbedded
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        properties = try c.decode([PropertySchema].self, forKey: .properties)
        isEmbedded = try c.decodeIfPresent(Bool.self, forKey: .isEmbedded) ?? false
    }

    /// Encodes `isEmbedded` only when true, so that schemas without embedded classes keep the
    /// bytes they had before.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(properties, forKey: .properties)
        if isEmbedded { try c.encode(isEmbedded, forKey: .isEmbedded) }
    }

    /// The property named `name`, if any. Each property is tested where it lies: copying it
    /// out to test it would count its strings' references.
    package func property(named name: String) -> PropertySchema? {
        properties.indices.first { properties[$0].name == name }.map { properties[$0] }
    }

    /// The primary-key property, if the class has one.
    package var primaryKey: PropertySchema? { properties.indices.first { properties[$0].isPrimaryKey }.map { properties[$0] } }

    /// Whether object keys are the primary key itself (an integer primary key), so that a
    /// primary-key lookup is a direct table lookup with no separate index.
    package var keysArePrimaryKeys: Bool { primaryKey.map { $0.type == .int && !$0.isOptional } ?? false }

    /// One more than the highest property id: the number of slots a full row has.
    package var slotCount: Int { properties.reduce(0) { max($0, $1.id + 1) } }
}
