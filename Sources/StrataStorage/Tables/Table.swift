import LMDB
import Synchronization

/// A class's storage in one transaction: its schema and the LMDB databases that hold its
/// rows and indexes.
package final class Table {
    /// The stored schema of the class (with the stable property ids).
    package let schema: ClassSchema
    /// object key (8 bytes big endian) → row.
    let rows: Database
    /// Per indexed property id: index key → object key. Unique for a non-integer primary key,
    /// duplicate-sorted otherwise. An integer primary key needs none: it is the object key.
    let indexes: ByProperty<Database>
    /// Per link or object-list property id: target object key → the objects of this class
    /// that link to it (duplicate-sorted): the stored backlinks.
    let backlinks: ByProperty<Database>
    /// Per list property id: the list's directory and chunks, by owner key.
    let lists: ByProperty<Database>
    /// The seed of the seals of the rows database (`Checksum`).
    package let rowSeed: UInt32
    /// Per list property id: the seed of the seals of its database.
    let listSeeds: ByProperty<UInt32>
    /// The rows database's name as the additional data of its encrypted records (`RecordCipher`).
    let rowsName: [UInt8]
    /// Per list property id: its database's name as the additional data of its encrypted records.
    let listNames: ByProperty<[UInt8]>
    /// Per indexed property id: its database's name, hashed before the value into the index
    /// keys of an encrypted file (`IndexStore.entryKey`).
    let indexNames: ByProperty<[UInt8]>
    /// The properties that have an index database, in declaration order.
    let indexedProperties: [PropertySchema]
    /// The to-one link properties of this class.
    package let links: [PropertySchema]
    /// The list properties of this class.
    package let listProperties: [PropertySchema]
    /// The primary-key property, if any (looked up once).
    package let primaryKey: PropertySchema?
    /// Whether object keys are the integer primary key itself.
    package let keysArePrimaryKeys: Bool
    /// The number of slots a full row has (`ClassSchema.slotCount`, worked out once).
    package let slotCount: Int
    /// The mixed properties of this class (lists of mixed values apart), and their slots.
    package let mixedProperties: [PropertySchema]
    package let mixedSlots: MixedSlots
    /// The link and list properties whose targets are of an embedded class: the objects they
    /// point at are owned, and deleted with their link (`ObjectWrites+Embedded.swift`).
    package let embeddedRelationships: [PropertySchema]

    init(schema: ClassSchema, rows: Database, indexes: [Int: Database], backlinks: [Int: Database], lists: [Int: Database],
         embeddedTargets: Set<String>) {
        self.schema = schema
        self.rows = rows
        self.indexes = ByProperty(indexes)
        self.backlinks = ByProperty(backlinks)
        self.lists = ByProperty(lists)
        rowSeed = Checksum.seed(MetaKeys.rows(schema.name))
        listSeeds = ByProperty(Dictionary(uniqueKeysWithValues: lists.keys.map { ($0, Checksum.seed(MetaKeys.list(schema.name, $0))) }))
        rowsName = RecordCipher.name(MetaKeys.rows(schema.name))
        listNames = ByProperty(Dictionary(uniqueKeysWithValues: lists.keys.map { ($0, RecordCipher.name(MetaKeys.list(schema.name, $0))) }))
        indexNames = ByProperty(Dictionary(uniqueKeysWithValues: indexes.keys.map { ($0, RecordCipher.name(MetaKeys.index(schema.name, $0))) }))
        indexedProperties = schema.properties.filter { indexes[$0.id] != nil }
        links = schema.properties.filter(\.isToOneLink)
        listProperties = schema.properties.filter(\.isList)
        primaryKey = schema.primaryKey
        keysArePrimaryKeys = schema.keysArePrimaryKeys
        slotCount = schema.slotCount
        mixedProperties = schema.properties.filter { $0.type == .mixed && !$0.isList }
        mixedSlots = MixedSlots(schema)
        embeddedRelationships = schema.properties.filter { $0.type == .link && embeddedTargets.contains($0.linkTarget ?? "") }
    }

    /// Whether relationship `property` of this class points at embedded objects.
    @inline(__always)
    package func ownsTargets(of property: PropertySchema) -> Bool {
        !embeddedRelationships.isEmpty && embeddedRelationships.contains { $0.id == property.id }
    }

    /// The class name.
    package var name: String { schema.name }

    /// What one of a class's databases holds.
    enum Role {
        case rows
        case index(property: Int)
        case backlinks(property: Int)
        case list(property: Int)
    }

    /// One database of a class: its name, flags and what it holds.
    typealias DatabaseSpec = (name: String, flags: Database.Flags, role: Role)

    /// The databases every class of `schema` needs, by name, with their flags (worked out
    /// once per schema value: every transaction asks).
    static func databases(for schema: FileSchema) -> [(name: String, flags: Database.Flags)] {
        schema.layout.all { schema.sorted.flatMap { databases(for: $0).map { ($0.name, $0.flags) } } }
    }

    /// The databases of class `name` of `schema` (worked out once per schema value).
    static func databases(of name: String, in schema: FileSchema) -> [DatabaseSpec]? {
        guard let classSchema = schema.classes[name] else { return nil }
        return schema.layout.ofClass(name) { databases(for: classSchema) }
    }

    /// The databases of one class, by name, with their flags and what each holds.
    static func databases(for schema: ClassSchema) -> [DatabaseSpec] {
        var result: [(String, Database.Flags, Role)] = [(MetaKeys.rows(schema.name), [], .rows)]
        for p in schema.properties where p.hasIndex && !(p.isPrimaryKey && schema.keysArePrimaryKeys) {
            let flags: Database.Flags = p.isPrimaryKey ? [] : [.duplicateSort, .duplicateFixed]
            result.append((MetaKeys.index(schema.name, p.id), flags, .index(property: p.id)))
        }
        for p in schema.properties where p.type == .link {
            result.append((MetaKeys.backlinks(schema.name, p.id), [.duplicateSort, .duplicateFixed], .backlinks(property: p.id)))
        }
        for p in schema.properties where p.isList {
            result.append((MetaKeys.list(schema.name, p.id), [], .list(property: p.id)))
        }
        return result
    }
}
