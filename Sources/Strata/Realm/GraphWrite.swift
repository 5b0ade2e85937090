import Foundation
import StrataStorage

/// Adds or creates one object and every unmanaged object it links to, whole or not at all.
///
/// Each object's row is written before the links to its unmanaged targets, so cycles and
/// self-links resolve: an object already written in this graph is linked to by its key. The
/// unmanaged instances become accessors only once the whole graph is written; a graph of more
/// than one object is written in a nested transaction, so a failure part-way leaves nothing.
final class GraphWrite {
    private let core: RealmCore
    /// Unmanaged instances written so far, with where they were written.
    private var written: [ObjectIdentifier: (object: ObjectBase, binding: TableBinding, key: ObjectKey)] = [:]
    /// Whether the writes already run in a nested transaction.
    private var isNested = false

    private init(_ core: RealmCore) { self.core = core }

    /// Runs `body` with a new graph write and makes its objects managed if it succeeds.
    static func run<T>(_ core: RealmCore, _ body: (GraphWrite) throws -> T) throws -> T {
        let graph = GraphWrite(core)
        let result = try body(graph)
        for (object, binding, key) in graph.written.values { makeManaged(object, core, binding, key) }
        return result
    }

    /// Makes the added `object` the accessor of stored object `key`, and the lists, sets and
    /// maps it held the managed ones (whoever kept them reads and writes the stored ones).
    private static func makeManaged(_ object: ObjectBase, _ core: RealmCore, _ binding: TableBinding, _ key: ObjectKey) {
        object.attach(core, binding, key)
        let base = Unmanaged.passUnretained(object).toOpaque()
        for (offset, index, field) in binding.info.collectionFields {
            field.adoptCollection(at: base + offset, owner: object, index: index)
        }
        for (offset, field) in binding.info.linkFields { field.releaseLinkedObject(at: base + offset) }
    }

    /// Adds the unmanaged `object` and its graph. A new object of a class without links or
    /// lists (the common case) is inserted straight from its fields, with no graph to track.
    static func add(_ object: ObjectBase, update: Realm.UpdatePolicy, to core: RealmCore) throws {
        let info = try core.modelClass(type(of: object))
        guard !info.hasRelationships, update == .error else {
            _ = try run(core) { try $0.add(object, update: update) }
            return
        }
        let binding = try core.bindingForWrite(info)
        let base = Unmanaged.passUnretained(object).toOpaque()
        fill(&binding.newRow, info, binding) { info.unmanagedValue($0, of: base).value }
        defer {
            // The buffer keeps no value past the add (a large string or data would stay alive).
            for slot in binding.newRow.indices { binding.newRow[slot] = .null }
        }
        let key = try translatingErrors(path: core.path) { try core.transaction().objects.insert(binding.table, values: binding.newRow) }
        object.attach(core, binding, key)
    }

    /// Adds the unmanaged `object` (and its graph); returns its key. With `existing`, the
    /// object's values are written onto that stored object instead (an embedded object
    /// updated in place).
    @discardableResult
    func add(_ object: ObjectBase, update: Realm.UpdatePolicy, onto existing: ObjectKey? = nil) throws -> ObjectKey {
        if let done = written[ObjectIdentifier(object)] { return done.key }
        let info = try ModelClass.of(type(of: object))
        let base = Unmanaged.passUnretained(object).toOpaque()
        let values = info.properties.indices.map { Optional(info.unmanagedValue($0, of: base)) }
        return try upsert(info, values: values, update: update, writing: object, onto: existing).key
    }

    /// Inserts, or updates by primary key (or, given `existing`, that object), one object.
    /// `values` are by declaration index; nil means "not given": the default for a new
    /// object, unchanged for an existing one.
    func upsert(_ info: ModelClass, values given: [_StrataValue?], update: Realm.UpdatePolicy,
                writing object: ObjectBase? = nil, onto existing: ObjectKey? = nil) throws -> (binding: TableBinding, key: ObjectKey) {
        let values = update == .error ? Self.withLinkDefaults(given, info) : given
        let binding = try core.bindingForWrite(info)
        let txn = try core.transaction()
        let pk = info.schema.primaryKey
        if update != .error && pk == nil && existing == nil {
            throw Realm.Error(.invalidInput, "'\(info.name)' does not have a primary key and can not be updated")
        }
        var pending: [(index: Int, target: ObjectBase)] = []
        var lists: [(index: Int, elements: [_StrataValue], keys: [String]?)] = []
        var stored: [StrataStorage.Value?] = []
        stored.reserveCapacity(values.count)
        for (index, v) in values.enumerated() {
            if !info.hasRelationships {
                stored.append(v?.value)
            } else if info.properties[index].schema.isList {
                if let map = v?.collection as? MapContents {
                    lists.append((index, map.values, map.keys))
                } else if let elements = v?.collection as? [_StrataValue] {
                    lists.append((index, elements, nil))
                }
                stored.append(v == nil ? nil : .null)
            } else if let target = v?.object {
                if let key = try existingKey(of: target) {
                    stored.append(try Self.link(key, to: target, in: info.properties[index].schema))
                } else {
                    pending.append((index, target))
                    stored.append(nil)
                }
            } else {
                stored.append(v?.value)
            }
        }
        let addsObjects = !pending.isEmpty || lists.contains { $0.elements.contains { $0.object.map { $0.managingCore == nil } ?? false } }
        if !addsObjects || isNested {
            return try write(info, binding, stored, pending, lists, update, object, onto: existing)
        }
        // More than one object: all of them or none.
        isNested = true
        defer { isNested = false }
        return try translatingErrors(path: core.path) {
            try txn.atomically { try write(info, binding, stored, pending, lists, update, object, onto: existing) }
        }
    }

    /// Writes one object's row, then adds its unmanaged link targets and links to them, then
    /// writes its lists (replacing an existing object's). Under `.modified`, an embedded
    /// object an existing object already has is updated in place rather than replaced, as
    /// RealmSwift does (`.all` replaces it).
    private func write(_ info: ModelClass, _ binding: TableBinding, _ stored: [StrataStorage.Value?],
                       _ pending: [(index: Int, target: ObjectBase)], _ lists: [(index: Int, elements: [_StrataValue], keys: [String]?)],
                       _ update: Realm.UpdatePolicy, _ object: ObjectBase?, onto given: ObjectKey?) throws -> (binding: TableBinding, key: ObjectKey) {
        let txn = try core.transaction()
        let pk = info.schema.primaryKey
        var existed = false
        let key: ObjectKey = try translatingErrors(path: core.path) {
            let defaults = stored.contains { $0 == nil } ? defaultValues(info) : []
            let found = try given ?? pk.flatMap { pk in
                update == .error ? nil : try txn.indexes.objectKey(binding.table, primaryKey: stored[pk.id] ?? defaults[pk.id])
            }
            if let existing = found {
                var changes: [(PropertySchema, StrataStorage.Value)] = []
                for (index, v) in stored.enumerated() where index != pk?.id {
                    if let v { changes.append((binding.properties[index], v)) }
                }
                try txn.objects.update(binding.table, existing, changes, onlyIfDifferent: update == .modified)
                existed = true
                return existing
            }
            var row: [StrataStorage.Value] = []
            Self.fill(&row, info, binding) { index in
                stored[index] ?? (info.properties[index].linkTarget == nil ? defaults[index] : .null)
            }
            return try txn.objects.insert(binding.table, values: row)
        }
        if let object {
            if !isNested && pending.isEmpty && lists.isEmpty && written.isEmpty {
                Self.makeManaged(object, core, binding, key)  // a lone object: nothing after it can fail
            } else {
                written[ObjectIdentifier(object)] = (object, binding, key)
            }
        }
        for (index, target) in pending {
            let targetSchema = try ModelClass.of(type(of: target)).schema
            let property = binding.properties[index]
            let current = existed && update == .modified && targetSchema.isEmbedded ? try linkedKey(binding, key, property) : nil
            let added = try add(target, update: current != nil || targetSchema.primaryKey != nil ? update : .error, onto: current)
            if current != nil { continue }
            let link = try Self.link(added, to: target, in: property)
            try translatingErrors(path: core.path) {
                try txn.objects.update(binding.table, key, [(property, link)], onlyIfDifferent: true)
            }
        }
        for (index, elements, keys) in lists {
            let property = binding.properties[index]
            // Under `.modified`, each object given for an existing list of embedded objects is
            // written onto the one at its position; the rest are added, or deleted.
            let inPlace = existed && update == .modified && keys == nil && info.properties[index].linkTarget is EmbeddedObject.Type
            let current = inPlace ? try linkedKeys(binding, key, property) : []
            let values = try elements.enumerated().map { position, element -> StrataStorage.Value in
                guard let target = element.object else { return element.value }
                if let key = try existingKey(of: target) { return try Self.link(key, to: target, in: property) }
                if position < current.count { return .link(try add(target, update: update, onto: current[position])) }
                let hasPrimaryKey = try ModelClass.of(type(of: target)).schema.primaryKey != nil
                return try Self.link(try add(target, update: hasPrimaryKey ? update : .error), to: target, in: property)
            }
            try translatingErrors(path: core.path) {
                if inPlace { return try txn.lists.rewrite(binding.table, property, owner: key, values) }
                if existed { try txn.lists.removeAll(binding.table, property, owner: key) }
                if let keys {
                    for (k, v) in zip(keys, values) { try txn.lists.setMapValue(binding.table, property, owner: key, v, forKey: k) }
                } else {
                    try txn.lists.insert(binding.table, property, owner: key, values, at: 0)
                }
            }
        }
        return (binding, key)
    }

    /// The object stored object `key`'s to-one link `property` points at, if any.
    private func linkedKey(_ binding: TableBinding, _ key: ObjectKey, _ property: PropertySchema) throws -> ObjectKey? {
        try translatingErrors(path: core.path) {
            guard let row = try core.transaction().rows.read(binding.table, key), case .link(let target) = row.value(property) else { return nil }
            return target
        }
    }

    /// The objects stored object `key`'s list `property` holds, in order.
    private func linkedKeys(_ binding: TableBinding, _ key: ObjectKey, _ property: PropertySchema) throws -> [ObjectKey] {
        try translatingErrors(path: core.path) {
            try core.transaction().lists.values(binding.table, property, owner: key).compactMap { value -> ObjectKey? in
                if case .link(let target) = value { target } else { nil }
            }
        }
    }

    /// The key of a link target that is already stored: managed by this Realm's file, or
    /// written earlier in this graph. Throws for another file's or a deleted object.
    private func existingKey(of target: ObjectBase) throws -> ObjectKey? {
        if let done = written[ObjectIdentifier(target)] { return done.key }
        guard target.managingCore != nil else { return nil }
        return try core.linkKey(for: target)
    }

    /// The value stored for a link to `target` (stored under `key`) in `property`: the key, or
    /// in a mixed property the class and key (`Value.typedLink`).
    private static func link(_ key: ObjectKey, to target: ObjectBase, in property: PropertySchema) throws -> StrataStorage.Value {
        guard property.type == .mixed else { return .link(key) }
        return .typedLink(try target.binding?.info.name ?? ModelClass.of(type(of: target)).name, key)
    }

    /// Makes `row` the row of a new object of the class: each declared property's slot holds
    /// `value(index)` (by declaration index), every other slot null. The array's buffer is
    /// reused when it is the only reference to it.
    @inline(__always)
    private static func fill(_ row: inout [StrataStorage.Value], _ info: ModelClass, _ binding: TableBinding,
                             _ value: (Int) -> StrataStorage.Value) {
        let slotCount = binding.table.slotCount
        if row.count != slotCount {
            row.removeAll(keepingCapacity: true)
            // Grown from empty: `Array(repeating:)` looks its buffer's type up at run time.
            for _ in 0..<slotCount { row.append(.null) }
        }
        // Only declared properties' slots are ever written here: the others stay null.
        for index in info.properties.indices { row[binding.slots[index].id] = value(index) }
    }

    /// `values` of a new object, with each to-one link not given taking the default of a
    /// fresh instance (`var owner: Person? = Person()`): an object, added with this one, as
    /// RealmSwift creates it.
    private static func withLinkDefaults(_ values: [_StrataValue?], _ info: ModelClass) -> [_StrataValue?] {
        let missing = values.indices.filter { values[$0] == nil && info.properties[$0].linkTarget != nil && !info.properties[$0].schema.isList }
        guard !missing.isEmpty else { return values }
        let fresh = info.type.init()
        var values = values
        for index in missing {
            let value = info.properties[index].field.value(at: info.field(index, of: fresh))
            if value.object != nil { values[index] = value }
        }
        return values
    }

    /// The values a new instance of the class has (its property initialisers).
    private func defaultValues(_ info: ModelClass) -> [StrataStorage.Value] {
        let fresh = info.type.init()
        return info.properties.indices.map { info.properties[$0].field.value(at: info.field($0, of: fresh)).value }
    }
}
