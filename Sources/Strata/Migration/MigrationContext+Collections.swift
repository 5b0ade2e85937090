import Foundation
import StrataStorage

/// The collections a migration block reads from list, set and map properties: Swift
/// collections typed by the stored property, as RealmSwift hands them out
/// (`List<MigrationObject>`, `MutableSet<Int?>`, `Map<String, MigrationObject?>`,
/// `List<AnyRealmValue>`). A new object's collection is handed out once per property, so
/// every read sees the block's changes to it, and is written back where the block changed
/// it when the block returns (`writeBackCollections`); an old object's is a copy.
extension MigrationContext {
    /// A new object's collection property.
    struct CollectionKey: Hashable {
        let className: String
        let key: ObjectKey
        let property: String
    }

    /// Collection `property` of `object`, read from `table`.
    func collection(_ object: DynamicObject, _ property: PropertySchema, in table: Table) throws -> AnyObject {
        let id = CollectionKey(className: object.dynamicClassName, key: object.dynamicKey, property: property.name)
        if !object.isOldObject, let collection = handedOut[id] { return collection }
        let collection = try read(object, property, in: table, into: nil)
        if !object.isOldObject { handedOut[id] = collection }
        return collection
    }

    /// After the block assigned the whole of `object`'s collection `property`: the collection
    /// handed out for it before, if any, now holds what is stored, so that the block's handles
    /// to it see the new elements (and it has nothing to write back).
    func refill(_ object: DynamicObject, _ property: PropertySchema, in table: Table) throws {
        let id = CollectionKey(className: object.dynamicClassName, key: object.dynamicKey, property: property.name)
        guard let collection = handedOut[id] else { return }
        _ = try read(object, property, in: table, into: collection)
    }

    /// The stored elements of `object`'s collection `property`, in `existing` (emptied first)
    /// or in a new collection.
    private func read(_ object: DynamicObject, _ property: PropertySchema, in table: Table, into existing: AnyObject?) throws -> AnyObject {
        let values = try txn.lists.values(table, property, owner: object.dynamicKey)
        let builder = CollectionBuilder(property: property,
                                        elements: values.map { element($0, property, old: object.isOldObject) },
                                        keys: property.isMap ? try txn.lists.mapKeys(table, property, owner: object.dynamicKey) : [])
        return builder.build(into: existing)
    }

    /// A stored element as the collection's element type reads it: an object (of a link or
    /// a mixed value) as a `DynamicObject` of this migration.
    private func element(_ value: StrataStorage.Value, _ property: PropertySchema, old: Bool) -> _StrataValue {
        switch value {
        case .link(let key): _StrataValue(value, object: DynamicObject(self, className: property.linkTarget ?? "", key: key, old: old))
        case .typedLink(let className, let key): _StrataValue(value, object: DynamicObject(self, className: className, key: key, old: old))
        default: _StrataValue(value)
        }
    }

    /// Writes each handed-out collection the block changed back to its object (one the
    /// block deleted has none; objects the block deleted are left out of the collections).
    func writeBackCollections() {
        let collections = handedOut.sorted { ($0.key.className, $0.key.key, $0.key.property) < ($1.key.className, $1.key.key, $1.key.property) }
        handedOut = [:]
        for (id, collection) in collections {
            perform {
                guard let schema = txn.schema.classes[id.className], let property = schema.property(named: id.property),
                      let table = try txn.table(id.className), try txn.rows.read(table, id.key) != nil else { return }
                let contents = try storedContents(of: collection, property, className: id.className)
                let current = try txn.lists.values(table, property, owner: id.key)
                let currentKeys = property.isMap ? try txn.lists.mapKeys(table, property, owner: id.key) : []
                guard contents.values != current || contents.keys != currentKeys else { return }
                if property.isMap {
                    try txn.lists.removeAll(table, property, owner: id.key)
                    for (key, value) in zip(contents.keys, contents.values) {
                        _ = try txn.lists.setMapValue(table, property, owner: id.key, value, forKey: key)
                    }
                } else {
                    try txn.lists.rewrite(table, property, owner: id.key, contents.values)
                }
                touched.insert(id.className)
            }
        }
    }

    /// The stored values (and, for a map, keys) of a handed-out collection.
    private func storedContents(of collection: AnyObject, _ property: PropertySchema,
                                className: String) throws -> (keys: [String], values: [StrataStorage.Value]) {
        let entries: [(key: String, value: Any?)]
        if let map = collection as? any MigrationMapEntries {
            entries = map.migrationEntries
        } else {
            entries = (DynamicValues.elements(collection) ?? []).map { (key: "", value: $0) }
        }
        var keys: [String] = []
        var values: [StrataStorage.Value] = []
        for (key, value) in entries {
            // An object the block deleted leaves a list or set (a map keeps its key, as nil).
            if let object = DynamicValues.unwrapped(value) as? DynamicObject, !exists(object) {
                if property.isMap { keys.append(key); values.append(.null) }
                continue
            }
            keys.append(key)
            values.append(try storedValue(value, property, className: className))
        }
        return (property.isMap ? keys : [], values)
    }
}

/// A map's entries, for writing a handed-out map back.
protocol MigrationMapEntries {
    var migrationEntries: [(key: String, value: Any?)] { get }
}

extension Map: MigrationMapEntries {
    var migrationEntries: [(key: String, value: Any?)] { asKeyValueSequence().map { (key: $0.key._strataMapKey, value: $0.value as Any?) } }
}

/// Builds the collection of a property's stored elements with the Swift element type of the
/// property's stored type.
private struct CollectionBuilder {
    let property: PropertySchema
    let elements: [_StrataValue]
    /// A map's keys, in the order of `elements`.
    let keys: [String]

    /// The collection, made new or, given `existing` (one this builder's property made
    /// before), that one emptied and filled again.
    func build(into existing: AnyObject? = nil) -> AnyObject {
        switch property.type {
        case .link: property.isMap ? make(DynamicObject?.self, existing) : make(DynamicObject.self, existing)
        case .mixed: make(AnyRealmValue.self, existing)
        case .bool: either(Bool.self, existing)
        case .int: either(Int.self, existing)
        case .float: either(Float.self, existing)
        case .double: either(Double.self, existing)
        case .string: either(String.self, existing)
        case .data: either(Data.self, existing)
        case .date: either(Date.self, existing)
        case .uuid: either(UUID.self, existing)
        case .objectId: either(ObjectId.self, existing)
        case .decimal128: either(Decimal128.self, existing)
        }
    }

    /// The collection of `T`, or of `T?` for an optional property.
    private func either<T: RealmCollectionValue & _Persistable & _PersistableInsideOptional & _RealmCollectionValueInsideOptional>(
        _: T.Type, _ existing: AnyObject?) -> AnyObject {
        property.isOptional ? make(T?.self, existing) : make(T.self, existing)
    }

    private func make<T: RealmCollectionValue & _Persistable>(_: T.Type, _ existing: AnyObject?) -> AnyObject {
        let values = elements.map { T._strataFrom($0) }
        if property.isMap {
            let map = existing as? Map<String, T> ?? Map<String, T>()
            map.removeAll()
            for (key, value) in zip(keys, values) { map[key] = value }
            return map
        }
        if property.isSet {
            let set = existing as? MutableSet<T> ?? MutableSet<T>()
            set.removeAll()
            set.insert(objectsIn: values)
            return set
        }
        let list = existing as? List<T> ?? List<T>()
        list.removeAll()
        list.append(objectsIn: values)
        return list
    }
}
