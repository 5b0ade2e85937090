import Foundation
import StrataStorage
import Synchronization

/// One persisted property of a Swift model class: where its `@Persisted` field is and how it
/// is stored.
struct ModelProperty {
    let name: String
    /// Byte offset of the `Persisted<T>` field inside an instance.
    let offset: Int
    let field: PersistedField.Type
    /// The property as the code declares it (its id is the declaration index).
    let schema: PropertySchema
    /// For a link or a list of objects, the target class.
    let linkTarget: ObjectBase.Type?
    /// For a list, how to make its managed collection.
    let listAccess: ListAccess.Type?
    /// Reads the unmanaged value of the field at its address (`PersistedField.reader`; see
    /// `ModelClass.unmanagedValue`).
    let reader: FieldReader
}

/// One `LinkingObjects` property of a model class: where its field is and what it inverts.
/// A class (immutable), so that each live collection made from it counts one reference
/// rather than copying its names.
final class ModelInverse {
    let name: String
    let offset: Int
    /// The class whose link property points here.
    let origin: ObjectBase.Type
    /// That link property's name.
    let originProperty: String
    /// That link property's stored name (`propertiesMapping` of the origin class).
    let storedOriginProperty: String
    /// Builds the live collection.
    let access: LinkingObjectsAccess.Type
    /// For a `let` field holding the collection itself (not `@Persisted`): its type, which
    /// writes the live collection into the field when an object is attached.
    let field: InverseField.Type?

    /// The inverse declared by field `label` at `offset`, of `origin`'s link property
    /// `originProperty`.
    init(label: String, offset: Int, origin: ObjectBase.Type, originProperty: String,
         access: LinkingObjectsAccess.Type, field: InverseField.Type?) {
        name = label.hasPrefix("_") ? String(label.dropFirst()) : label
        self.offset = offset
        self.origin = origin
        self.originProperty = originProperty
        storedOriginProperty = origin._realmColumnNames()?[originProperty] ?? originProperty
        self.access = access
        self.field = field
    }
}

/// What Strata knows about a model class, discovered once (by reflection on one instance)
/// and cached for the life of the process.
final class ModelClass: @unchecked Sendable {
    // Sendable invariant: immutable after init; instances are shared through the registry only.
    let type: ObjectBase.Type
    let name: String
    let properties: [ModelProperty]
    /// The `LinkingObjects` properties, after the stored ones in declaration-index space.
    let linkingObjects: [ModelInverse]
    /// The schema the code declares, property ids = declaration indexes.
    let schema: ClassSchema
    /// The primary-key property, if any (`schema.primaryKey`, looked up once).
    let primaryKey: PropertySchema?
    /// Whether the primary key is a 64-bit int, which an `Int` key needs no conversion for.
    let hasInt64PrimaryKey: Bool
    /// Whether any property links to objects, is mixed (it may hold one) or is a list (adding
    /// needs the graph logic).
    let hasRelationships: Bool
    /// The field offset of every managed index, in index order: the stored properties, then
    /// the `LinkingObjects` ones (what `ObjectBase.attach` writes, without copying the infos);
    /// a boxed property's offset is in `boxedFields` instead, and its index written there,
    /// and a `LinkingObjects` `let` field is in `inverseFields`.
    let managedFields: [(offset: Int, index: Int32)]
    /// The `LinkingObjects` properties declared as `let` fields, into which `attach` writes
    /// the live collection.
    let inverseFields: [ModelInverse]
    /// The properties whose fields hold a box (`RealmProperty`, `RealmOptional`).
    let boxedFields: [(offset: Int, index: Int, field: BoxedField.Type)]
    /// The list, set and map properties (whose collections an added object hands over).
    let collectionFields: [(offset: Int, index: Int, field: PersistedField.Type)]
    /// The to-one link properties (whose unmanaged objects an added object lets go of).
    let linkFields: [(offset: Int, field: PersistedField.Type)]
    /// Whether every stored field the class declares (below `Object`) is `@Persisted`: an
    /// accessor then holds nothing of its own beyond what `attach` sets, so one that nothing
    /// else references can be attached to another object instead of a new one made
    /// (`RowScan`). A plain `var` (an ignored property) may hold state, and a `RealmProperty`
    /// box may be held apart from its object: not then.
    let accessorsAreInterchangeable: Bool
    private let indexByName: [String: Int]
    /// The property name of each property stored under another name (`propertiesMapping`),
    /// by its stored name.
    private let propertyNameByStoredName: [String: String]

    /// The classes discovered in this process, under `registryLock`.
    nonisolated(unsafe) private static let registry = Registry()
    /// Held while `registry` is read or changed. Recursive: discovering a class makes an
    /// instance of it, whose property defaults may make objects of other classes
    /// (`Dog(value: ...)`), which discovers those on the same thread.
    private static let registryLock = NSRecursiveLock()

    /// The classes discovered so far, and those being checked.
    private final class Registry {
        var cache: [ObjectIdentifier: ModelClass] = [:]
        var order: [ModelClass] = []
        /// Classes being checked (an origin may point back at them).
        var checking: [ObjectIdentifier: ModelClass] = [:]
        /// Whether the classes the program declares were discovered (`declared`).
        var hasDeclaredClasses = false

        /// The info of `type`, discovering it (and the origins of its inverse relationships)
        /// on first use.
        func info(of type: ObjectBase.Type) throws -> ModelClass {
            let id = ObjectIdentifier(type)
            if let info = cache[id] ?? checking[id] { return info }
            let info = try ModelClass(type)
            checking[id] = info
            defer { checking[id] = nil }
            try info.checkInverses(self)
            cache[id] = info
            order.append(info)
            return info
        }
    }

    /// The longest class or property name, in UTF-8 bytes.
    static let maximumNameLength = 63

    /// The info of `type`, discovering it on first use. Throws `.invalidInput` for a model
    /// Strata cannot store (over-long names, two primary keys, unsupported declarations).
    static func of(_ type: ObjectBase.Type) throws -> ModelClass {
        registryLock.lock()
        defer { registryLock.unlock() }
        return try registry.info(of: type)
    }

    /// Throws unless each `LinkingObjects` property names a link property of its origin class
    /// that points at this class.
    private func checkInverses(_ registry: Registry) throws {
        for inverse in linkingObjects {
            let origin = try registry.info(of: inverse.origin)
            guard let property = origin.properties.first(where: { $0.name == inverse.originProperty }),
                  property.schema.linkTarget == name else {
                throw Realm.Error(.invalidInput, "'\(name).\(inverse.name)' is the inverse of '\(origin.name).\(inverse.originProperty)', which is not a property of '\(origin.name)' that links to '\(name)'")
            }
        }
    }

    /// The same as `of`, trapping with the error's message (for non-throwing RealmSwift calls).
    static func forType(_ type: ObjectBase.Type) -> ModelClass {
        do { return try of(type) } catch { trap(error) }
    }

    /// `infos` and every class they link to, directly or not (a schema must hold both ends).
    static func withLinkTargets(_ infos: [ModelClass]) throws -> [ModelClass] {
        var result = infos
        var seen = Set(infos.map { ObjectIdentifier($0) })
        var index = 0
        while index < result.count {
            let info = result[index]
            for target in info.properties.compactMap(\.linkTarget) + info.linkingObjects.map(\.origin) {
                let info = try of(target)
                if seen.insert(ObjectIdentifier(info)).inserted { result.append(info) }
            }
            index += 1
        }
        return result
    }

    /// Every model class of the program, in discovery order: each one used so far, and each
    /// class the program declares (`DeclaredClasses`) that Strata can store (one it cannot is
    /// left out, and its error comes when the code names it). Classes declared under one
    /// schema name that store differently (a model's older shape kept for a migration) are
    /// left out too, until the code uses one. RealmSwift's default schema, and where a class
    /// is looked up by name.
    static var declared: [ModelClass] {
        registryLock.lock()
        defer { registryLock.unlock() }
        if !registry.hasDeclaredClasses {
            registry.hasDeclaredClasses = true
            for group in DeclaredClasses.byName where group.count == 1 || storeAlike(group) {
                for type in group { _ = try? registry.info(of: type) }
            }
        }
        return registry.order
    }

    /// The classes of a configuration without `objectTypes` (RealmSwift's default schema):
    /// `declared`, but for those whose `_realmIgnoreClass()` is true, which are stored only
    /// where a configuration names them.
    static var defaultSchema: [ModelClass] { declared.filter { !$0.type._realmIgnoreClass() } }

    /// Whether the classes of `group` (one schema name) declare the same stored class.
    private static func storeAlike(_ group: [ObjectBase.Type]) -> Bool {
        let schemas = group.map { try? ModelClass($0).schema }
        return schemas.allSatisfy { $0 != nil && $0 == schemas[0] }
    }

    private init(_ type: ObjectBase.Type) throws {
        self.type = type
        name = type._realmObjectName() ?? type.className()
        guard name.utf8.count <= Self.maximumNameLength else {
            throw Realm.Error(.invalidInput, "Class name '\(name)' is \(name.utf8.count) bytes long; the limit is \(Self.maximumNameLength) bytes")
        }
        let instance = type.init()
        var labels: [(String, Any)] = []
        var mirror: Mirror? = Mirror(reflecting: instance)
        var chain: [Mirror] = []
        while let m = mirror { chain.append(m); mirror = m.superclassMirror }
        var ownFields = 0, persistedFields = 0
        for m in chain.reversed() {
            let declaredByTheModel = m.subjectType != NSObject.self && m.subjectType != ObjectBase.self && m.subjectType != Object.self
            for child in m.children {
                labels.append((child.label ?? "", child.value))
                guard declaredByTheModel else { continue }
                ownFields += 1
                // A boxed property's box refers to its object without holding it, so such an
                // accessor cannot stand in for another object.
                let type = Swift.type(of: child.value)
                if type is PersistedField.Type && !(type is BoxedField.Type) { persistedFields += 1 }
            }
        }
        let legacy = LegacyDeclarations(type)
        // An ignored `@Persisted` field keeps each accessor's own value.
        accessorsAreInterchangeable = ownFields == persistedFields && legacy.ignored.isEmpty
        let offsets = FieldLayout.offsets(of: type)
        guard offsets.count == labels.count else {
            throw Realm.Error(.invalidInput, "Cannot read the stored properties of '\(name)' (\(offsets.count) fields, \(labels.count) reflected)")
        }
        let base = Unmanaged.passUnretained(instance).toOpaque()
        var properties: [ModelProperty] = []
        var linkingObjects: [ModelInverse] = []
        let mapping = type._realmColumnNames() ?? [:]
        // Every stored property's name (a lazy one's storage is `$__lazy_storage_$_name`).
        let declared = Set(labels.map { label, _ in
            label.hasPrefix("$__lazy_storage_$_") ? String(label.dropFirst(18)) : label.hasPrefix("_") ? String(label.dropFirst()) : label
        })
        for ((label, value), offset) in zip(labels, offsets) {
            if let inverse = Swift.type(of: value) as? (InverseField & LinkingObjectsAccess).Type {
                linkingObjects.append(ModelInverse(label: label, offset: offset, origin: inverse.origin,
                                                   originProperty: inverse.originProperty(at: base + offset), access: inverse, field: inverse))
                continue
            }
            guard let field = Swift.type(of: value) as? PersistedField.Type else { continue }
            if field.typeInfo.isLinkingObjects {
                guard let access = field.value(at: base + offset).collection as? LinkingObjectsAccess,
                      let origin = field.typeInfo.linkTarget else { continue }
                linkingObjects.append(ModelInverse(label: label, offset: offset, origin: origin, originProperty: access.originPropertyName,
                                                   access: Swift.type(of: access), field: nil))
                continue
            }
            guard field is BoxedField.Type || field.managedIndexIsFirst else {
                throw Realm.Error(.fail, "Unexpected layout of @Persisted in '\(name).\(label)': its managed index is not its first field")
            }
            let propertyName = label.hasPrefix("_") ? String(label.dropFirst()) : label
            if legacy.ignored.contains(propertyName) { continue }
            let storedName = mapping[propertyName] ?? propertyName
            guard storedName.utf8.count <= Self.maximumNameLength else {
                throw Realm.Error(.invalidInput, "Property name '\(name).\(storedName)' is \(storedName.utf8.count) bytes long; the limit is \(Self.maximumNameLength) bytes")
            }
            guard !storedName.isEmpty else {
                throw Realm.Error(.invalidInput, "Property '\(name).\(propertyName)' is mapped to an empty stored name (propertiesMapping)")
            }
            let options = field.options(at: base + offset)
            let info = field.typeInfo
            // A custom type stored as an object (`CustomPersistable`) is an optional link, as
            // RealmSwift stores it, in a to-one property or a map, whatever the Swift side says.
            let isOptional = info.isOptional || (info.isCustomMapping && info.type == .link && (!info.isList || info.isMap))
            if info.type == .link && !isOptional && !info.isList {
                throw Realm.Error(.invalidInput, "Property '\(name).\(propertyName)' links to an object and must be optional ('\(propertyName): \(info.linkTarget.map { String(describing: $0) } ?? "Object")?')")
            }
            if info.isSet, let target = info.linkTarget, target is EmbeddedObject.Type {
                throw Realm.Error(.invalidInput, "Set property '\(name).\(propertyName)' cannot contain embedded objects ('\(target.className())'): use a List or a Map")
            }
            // (A `let` map, RealmSwift's older form, may declare its object values non-optional.)
            if info.isMap && info.type == .link && !isOptional && !(field is any CollectionField.Type) {
                throw Realm.Error(.invalidInput, "Property '\(name).\(propertyName)' is a map of objects and its values must be optional (Map<String, \(info.linkTarget.map { String(describing: $0) } ?? "Object")?>)")
            }
            let target = info.linkTarget.map { $0._realmObjectName() ?? $0.className() }
            let schema = PropertySchema(name: storedName, type: info.type, isOptional: isOptional,
                                        isIndexed: options.contains(.indexed) || legacy.indexed.contains(propertyName),
                                        isPrimaryKey: options.contains(.primaryKey) || legacy.primaryKey == propertyName,
                                        id: properties.count, intWidth: info.intWidth, linkTarget: target, isList: info.isList,
                                        isSet: info.isSet, isMap: info.isMap)
            properties.append(ModelProperty(name: propertyName, offset: offset, field: field, schema: schema,
                                           linkTarget: info.linkTarget, listAccess: field.valueType as? ListAccess.Type,
                                           reader: field.reader))
        }
        let className = name
        try legacy.check(className, declared: declared, properties)
        for (stored, named) in Dictionary(grouping: properties, by: \.schema.name) where named.count > 1 {
            throw Realm.Error(.invalidInput, "Properties \(named.map { "'\(className).\($0.name)'" }.joined(separator: " and ")) are both stored as '\(stored)' (propertiesMapping)")
        }
        let primaryKeys = properties.filter(\.schema.isPrimaryKey)
        if primaryKeys.count > 1 {
            throw Realm.Error(.invalidInput, "Class '\(name)' declares more than one primary key: \(primaryKeys.map(\.name).joined(separator: ", "))")
        }
        let isEmbedded = type is EmbeddedObject.Type
        if isEmbedded, let key = primaryKeys.first {
            throw Realm.Error(.invalidInput, "Embedded object type '\(name)' cannot have a primary key ('\(key.name)')")
        }
        self.properties = properties
        self.linkingObjects = linkingObjects
        schema = ClassSchema(name: name, properties: properties.map(\.schema), isEmbedded: isEmbedded)
        primaryKey = schema.primaryKey
        hasInt64PrimaryKey = primaryKey.map { $0.type == .int && $0.intWidth == 64 } ?? false
        hasRelationships = properties.contains { $0.linkTarget != nil || $0.schema.canHoldLinks || $0.schema.isList }
        let inPlace = properties.indices.filter { !(properties[$0].field is BoxedField.Type) }
        managedFields = inPlace.map { (properties[$0].offset, Int32($0)) }
            + linkingObjects.enumerated().filter { $1.field == nil }.map { ($1.offset, Int32(properties.count + $0)) }
        inverseFields = linkingObjects.filter { $0.field != nil }
        boxedFields = properties.enumerated().compactMap { index, property in
            (property.field as? BoxedField.Type).map { (property.offset, index, $0) }
        }
        collectionFields = properties.enumerated().filter { $0.element.schema.isList }.map { ($0.element.offset, $0.offset, $0.element.field) }
        linkFields = properties.filter { $0.linkTarget != nil && !$0.schema.isList }.map { ($0.offset, $0.field) }
        indexByName = Dictionary(uniqueKeysWithValues: properties.enumerated().map { ($1.name, $0) })
        propertyNameByStoredName = Dictionary(uniqueKeysWithValues: properties.filter { $0.name != $0.schema.name }.map { ($0.schema.name, $0.name) })
    }

    /// The class of the dynamic API (`Realm.dynamicObjects`): stored class `stored` read
    /// through `DynamicObject` accessors, by property name (the names of `declared`, the
    /// program's class of that name, when it maps some: `propertiesMapping`). It declares no
    /// fields, so its accessors read and write the stored schema; one is made per binding,
    /// not registered.
    init(dynamic stored: ClassSchema, declared: ModelClass?) {
        type = DynamicObject.self
        name = stored.name
        properties = []
        linkingObjects = []
        schema = stored
        primaryKey = stored.primaryKey
        hasInt64PrimaryKey = primaryKey.map { $0.type == .int && $0.intWidth == 64 } ?? false
        hasRelationships = stored.properties.contains { $0.canHoldLinks || $0.isList }
        managedFields = []
        inverseFields = []
        boxedFields = []
        collectionFields = []
        linkFields = []
        accessorsAreInterchangeable = false
        indexByName = [:]
        propertyNameByStoredName = declared?.propertyNameByStoredName ?? [:]
    }

    /// Whether this is a class of the dynamic API (`init(dynamic:)`).
    var isDynamic: Bool { type == DynamicObject.self }

    /// `stored`, a stored schema of this class, with each property under its property name
    /// (the names code and queries use: `propertiesMapping`); `stored` itself when the class
    /// stores every property under its own name.
    func publicSchema(_ stored: ClassSchema) -> ClassSchema {
        guard !propertyNameByStoredName.isEmpty else { return stored }
        var renamed = stored
        for i in renamed.properties.indices { renamed.properties[i].name = propertyName(ofStored: renamed.properties[i].name) }
        return renamed
    }

    /// The property name of the property stored as `storedName`.
    func propertyName(ofStored storedName: String) -> String { propertyNameByStoredName[storedName] ?? storedName }

    /// The name property `name` is stored under (itself unless `propertiesMapping` maps it).
    func storedName(of name: String) -> String {
        index(of: name).map { properties[$0].schema.name } ?? name
    }

    /// The declaration index of the property named `name`.
    func index(of name: String) -> Int? { indexByName[name] }

    /// The address of property `index`'s field in `object`.
    @inline(__always)
    func field(_ index: Int, of object: ObjectBase) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(object).toOpaque() + properties[index].offset
    }

    /// The unmanaged value of property `index` of the object at `base`. The property's members
    /// are read in place (copying a whole `ModelProperty` would retain its strings) and its
    /// reader is borrowed, since this class holds it (no reference is counted per read).
    @inline(__always)
    func unmanagedValue(_ index: Int, of base: UnsafeMutableRawPointer) -> _StrataValue {
        Unmanaged.passUnretained(properties[index].reader)._withUnsafeGuaranteedRef {
            $0.value(at: base + properties[index].offset)
        }
    }
}
