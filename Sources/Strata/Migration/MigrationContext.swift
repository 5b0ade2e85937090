import Foundation
import StrataStorage

/// One migration, run inside the write transaction that upgrades the file
/// (`MigrationContext.run`). It works in three steps:
///
/// 1. **New schema.** Each configured class gets its new stored schema (`plan`): a property
///    that keeps its name, type and index kind keeps its stable id (its slot), so its values
///    stay where they are; an added property, a property whose type changed, and a property
///    whose index kind changed (none, secondary, unique primary key, primary key as object
///    key) get a new id above every id the class ever used. One pass over the rows then writes
///    the new slots (defaults; values copied for an index-kind change; nil turned into the
///    default for a property made required) and checks narrowed integers.
/// 2. **The block.** `oldObject` reads the old schema's slots, `newObject` the new schema's.
///    Writes go straight to the rows, without index work or primary-key checks, so that a
///    block may set primary keys and pass through temporary duplicates.
/// 3. **Finish.** Every class whose schema changed or which the block touched is rebuilt
///    (`StorageTransaction.rebuild`): re-keyed when its keys are its integer primary key,
///    slots of removed properties cleared, indexes rebuilt (a duplicate primary key fails
///    the migration), index databases of removed indexes emptied. Then relationships: links
///    and lists pointing at re-keyed objects are moved to the new keys, links to objects the
///    migration deleted become nil and such list elements are removed, and the backlinks of
///    every relationship of or into a changed class are rebuilt (`repairRelationships`). A
///    class removed by `deleteData` that a remaining property still links to or lists fails
///    the migration. The schema version is stored and everything commits at once.
///
/// Bad input inside the block is recorded (the first error wins, later calls do nothing)
/// and thrown when the block returns: the transaction is abandoned, the file is unchanged.
final class MigrationContext {
    let txn: StorageTransaction
    let path: String
    /// The stored schema before the migration.
    let oldSchema: FileSchema
    /// The tables as they were before the migration (same row databases as the new ones).
    private var oldTables: [String: Table] = [:]
    /// Configured classes by name.
    private let configured: Set<String>
    /// Classes the block wrote to, created in or deleted from.
    var touched: Set<String> = []
    /// The objects the block created, by class: `enumerateObjects` visits only the objects
    /// there were before the migration, as RealmSwift's does.
    private var created: [String: Set<ObjectKey>] = [:]
    /// The collections handed out for new objects' properties (`collection(_:_:in:)`).
    var handedOut: [CollectionKey: AnyObject] = [:]
    /// The unmanaged objects the block set on links, and the objects copied from them: an
    /// object set twice is one object, as the one RealmSwift adds.
    private var copiedIn: [ObjectIdentifier: (object: Object, key: ObjectKey)] = [:]
    /// Classes whose stored schema changed.
    private var changed: Set<String> = []
    /// Classes `deleteData` removed from the schema.
    private var removed: Set<String> = []
    /// The first error of the block.
    private(set) var error: Realm.Error?

    private init(txn: StorageTransaction, path: String, configured: [ModelClass]) {
        self.txn = txn
        self.path = path
        oldSchema = txn.schema
        self.configured = Set(configured.map(\.name))
    }

    /// Migrates the file from `oldVersion` to `newVersion` in `txn` and commits. Throws
    /// (leaving `txn` to be aborted by the caller) when anything fails.
    static func run(_ txn: StorageTransaction, path: String, infos: [ModelClass], oldVersion: UInt64, newVersion: UInt64,
                    block: MigrationBlock?, processName: String, pid: Int32) throws {
        let context = MigrationContext(txn: txn, path: path, configured: infos)
        do {
            try translatingErrors(path: path) {
                for name in context.oldSchema.classes.keys { context.oldTables[name] = try txn.table(name) }
                try context.applyNewSchema(infos)
            }
            if let block {
                block(Migration(context), oldVersion)
                context.writeBackCollections()
                if let error = context.error { throw error }
            }
            try translatingErrors(path: path) {
                try context.finish()
                try context.checkEmbeddedOwners()
                try txn.meta.setSchemaVersion(newVersion)
                txn.discardChanges()   // list rewrites record changes; a migration's entry has none
                txn.commitDescription = "Migration from schema version \(oldVersion) to \(newVersion)"
                try txn.commit(processName: processName, pid: pid)
            }
        } catch let error as Realm.Error {
            throw Realm.Error(error.code, "Migration of '\(path)' from schema version \(oldVersion) to \(newVersion) failed; the file is unchanged: \(error.localizedDescription)", path: path)
        }
    }

    // MARK: Step 1: the new schema

    private enum IndexKind: Equatable { case none, secondary, unique, objectKey }

    private static func indexKind(_ p: PropertySchema, in c: ClassSchema) -> IndexKind {
        if p.isPrimaryKey { return c.keysArePrimaryKeys ? .objectKey : .unique }
        return p.isIndexed ? .secondary : .none
    }

    /// Work for one row of a class whose schema changed.
    private struct SlotWork {
        var defaults: [Int: StrataStorage.Value] = [:]
        var copies: [(from: PropertySchema, to: PropertySchema)] = []
        var requiredNow: [PropertySchema] = []
        var narrowed: [PropertySchema] = []
        /// Lists whose elements must be checked: made required (nil elements become the
        /// default) or narrowed integers.
        var lists: [PropertySchema] = []
        var isEmpty: Bool { defaults.isEmpty && copies.isEmpty && requiredNow.isEmpty && narrowed.isEmpty && lists.isEmpty }
    }

    private func applyNewSchema(_ infos: [ModelClass]) throws {
        var targets: [ClassSchema] = []
        var work: [String: SlotWork] = [:]
        for info in infos {
            guard let old = oldSchema.classes[info.name] else {
                targets.append(try txn.meta.freshIDs(info.schema))
                continue
            }
            let code = info.schema
            var next = try txn.meta.nextPropertyID(info.name)
            var slots = SlotWork()
            var properties: [PropertySchema] = []
            for var p in code.properties {
                if let o = old.property(named: p.name), o.type == p.type, o.linkTarget == p.linkTarget, o.isList == p.isList, o.isSet == p.isSet, o.isMap == p.isMap {
                    if p.isList {
                        p.id = o.id
                        if (o.isOptional && !p.isOptional) || (p.type == .int && p.intWidth < o.intWidth) { slots.lists.append(p) }
                    } else if Self.indexKind(o, in: old) != Self.indexKind(p, in: code) {
                        p.id = next; next += 1
                        slots.copies.append((o, p))
                    } else {
                        p.id = o.id
                        if o.isOptional && !p.isOptional { slots.requiredNow.append(p) }
                        if p.type == .int && p.intWidth < o.intWidth { slots.narrowed.append(p) }
                    }
                } else {
                    p.id = next; next += 1
                    // A new list starts empty (its elements live in their own database).
                    if !p.isList { slots.defaults[p.id] = DynamicValues.defaultValue(p) }
                }
                properties.append(p)
            }
            let target = ClassSchema(name: code.name, properties: properties, isEmbedded: code.isEmbedded)
            if target != old {
                targets.append(target)
                changed.insert(info.name)
                if !slots.isEmpty { work[info.name] = slots }
            }
        }
        if !targets.isEmpty { try txn.store(classes: targets) }
        for (name, slots) in work.sorted(by: { $0.key < $1.key }) { try rewriteRows(name, slots) }
    }

    /// One pass over the rows of `name` writing the slots `slots` asks for.
    private func rewriteRows(_ name: String, _ slots: SlotWork) throws {
        guard let table = try txn.table(name), let old = oldTables[name] else { return }
        let slotCount = max(old.schema.slotCount, table.schema.slotCount)
        for key in try txn.rows.allKeys(table) {
            guard let row = try txn.rows.read(table, key) else { continue }
            var values = slots.defaults
            for (from, to) in slots.copies {
                var v = row.value(from)
                if v.isNull && !to.isOptional { v = DynamicValues.defaultValue(to) }
                values[to.id] = v
            }
            for p in slots.requiredNow where row.value(Slot(PropertySchema(name: p.name, type: p.type, isOptional: true, id: p.id))).isNull {
                values[p.id] = DynamicValues.defaultValue(p)
            }
            for p in slots.narrowed {
                if case .int(let i) = row.value(p), !ValueConversion.fits(i, width: p.intWidth) {
                    throw Realm.Error(.invalidInput, "Property '\(name).\(p.name)' was narrowed to int\(p.intWidth), but object \(key) holds \(i); convert it in the migration block under a new property name")
                }
            }
            if !values.isEmpty { try txn.migration.update(table, key, slotCount: slotCount, values) }
            for p in slots.lists { try checkListElements(table, p, owner: key) }
        }
    }

    /// Turns the nil elements of a list made required into the default, and fails when a
    /// narrowed integer list holds a value that does not fit.
    private func checkListElements(_ table: Table, _ p: PropertySchema, owner: ObjectKey) throws {
        let values = try txn.lists.values(table, p, owner: owner)
        var converted = values
        for (i, v) in values.enumerated() {
            if v.isNull && !p.isOptional { converted[i] = ValueCodec.defaultValue(p.type) }
            if case .int(let n) = v, !ValueConversion.fits(n, width: p.intWidth) {
                throw Realm.Error(.invalidInput, "List '\(table.name).\(p.name)' was narrowed to int\(p.intWidth), but object \(owner) holds \(n); convert it in the migration block under a new property name")
            }
        }
        if converted != values { try txn.lists.rewrite(table, p, owner: owner, converted) }
    }

    // MARK: Step 3: finishing

    private func finish() throws {
        for name in removed.sorted() {
            // RealmSwift refuses a schema in which a property links to a class it lacks.
            if let (origin, p) = (txn.schema.links(to: name) + txn.schema.lists(of: name)).first {
                throw fail("Cannot remove class '\(name)' from the file with deleteData(forType:): '\(origin.name).\(p.name)' still \(p.isList ? "lists" : "links to") its objects. Remove or retype that property in the same migration, or delete its class too")
            }
        }
        for name in removed.sorted() {
            if let old = oldTables[name] { try txn.meta.reservePropertyIDs(name, below: max(try txn.meta.nextPropertyID(name), old.schema.slotCount)) }
        }
        var moved: [(String, [ObjectKey: ObjectKey])] = []
        for name in changed.union(touched).subtracting(removed).sorted() {
            let keys = try txn.migration.rebuild(name, old: oldTables[name])
            if !keys.isEmpty { moved.append((name, keys)) }
            let before = oldTables[name]?.schema.slotCount ?? 0
            try txn.meta.reservePropertyIDs(name, below: max(try txn.meta.nextPropertyID(name), before))
        }
        // Links, lists and backlinks: follow re-keyed objects, drop what points at deleted
        // objects, rebuild the backlinks of every relationship of or into a changed class.
        for (name, keys) in moved { try txn.migration.remapKeys(of: name, keys) }
        try txn.migration.repairRelationships(changed.union(touched).union(removed))
        try txn.migration.repairTypedLinks(moved: Dictionary(moved) { a, _ in a })
    }

    // MARK: Step 2: what the block calls

    /// Runs `body` unless an error was recorded; records the error it throws.
    private func attempt<T>(_ fallback: T, _ body: () throws -> T) -> T {
        if error != nil { return fallback }
        do {
            return try translatingErrors(path: path, body)
        } catch let e as Realm.Error {
            error = e
        } catch {
            self.error = Realm.Error(.fail, "\(error)")
        }
        return fallback
    }

    func perform(_ body: () throws -> Void) {
        let _: Bool = attempt(false) { try body(); return true }
    }

    private func fail(_ message: String) -> Realm.Error {
        Realm.Error(.invalidInput, message, path: path)
    }

    /// The schema an object reads (old or new).
    func schema(of object: DynamicObject) -> ClassSchema? {
        object.isOldObject ? oldSchema.classes[object.dynamicClassName] : txn.schema.classes[object.dynamicClassName]
    }

    /// The property `name` names on `object`: a stored name or, on a new object of a class
    /// the program declares, a property name (`propertiesMapping`), as RealmSwift's new
    /// objects take them.
    private func property(named name: String, of object: DynamicObject, in schema: ClassSchema) -> PropertySchema? {
        if let property = schema.property(named: name) { return property }
        guard !object.isOldObject, let info = ModelClass.declared.first(where: { $0.name == schema.name && !$0.isDynamic }) else { return nil }
        return schema.property(named: info.storedName(of: name))
    }

    private func table(of object: DynamicObject) throws -> Table? {
        object.isOldObject ? oldTables[object.dynamicClassName] : try txn.table(object.dynamicClassName)
    }

    func exists(_ object: DynamicObject) -> Bool {
        attempt(false) { try table(of: object).map { try txn.rows.read($0, object.dynamicKey) != nil } ?? false }
    }

    func get(_ object: DynamicObject, _ name: String) -> Any? {
        attempt(nil) { () throws -> Any? in
            guard let schema = schema(of: object), let property = property(named: name, of: object, in: schema) else {
                throw fail("'\(object.dynamicClassName)' has no property '\(name)' in the \(object.isOldObject ? "old" : "new") schema")
            }
            guard let table = try table(of: object), let row = try txn.rows.read(table, object.dynamicKey) else { return nil }
            if property.isList { return try collection(object, property, in: table) }
            if property.type == .link {
                guard case .link(let k) = row.value(property), let target = property.linkTarget else { return nil }
                return DynamicObject(self, className: target, key: k, old: object.isOldObject)
            }
            // Numbers as `NSNumber`, as key-value coding and RealmSwift's migration objects hand
            // them out (`oldObject!["int8Col"] is Int`).
            return KeyValueCoding.bridged(swiftValue(row.value(property), property, old: object.isOldObject))
        }
    }

    /// The Swift value of a stored value: a mixed value's object as a `DynamicObject` of
    /// this migration (of the old objects when `old`).
    private func swiftValue(_ value: StrataStorage.Value, _ property: PropertySchema, old: Bool) -> Any? {
        guard case .typedLink(let className, let key) = value else { return DynamicValues.swiftValue(value, property) }
        return DynamicObject(self, className: className, key: key, old: old)
    }

    /// The stored value of `value` for a property that is not a list: a link takes a
    /// `DynamicObject` of this migration (of the link's class, existing in the new schema)
    /// or nil, and so may a mixed value.
    func storedValue(_ value: Any?, _ property: PropertySchema, className: String) throws -> StrataStorage.Value {
        if property.type == .mixed, let object = DynamicValues.unwrapped(value) as? DynamicObject, object.migrationContext === self {
            return .typedLink(object.dynamicClassName, object.dynamicKey)
        }
        guard property.type == .link else { return try DynamicValues.storedValue(value, property, className: className) }
        guard let value = DynamicValues.unwrapped(value), !(value is NSNull) else {
            if property.isList { throw fail("Invalid value nil for an element of list '\(className).\(property.name)': lists of objects cannot hold nil") }
            return .null
        }
        let target = property.linkTarget ?? "?"
        // An object of a model class, not of this migration, is copied in (as RealmSwift
        // adds an unmanaged object set in a migration).
        if let model = value as? Object, (model as? DynamicObject)?.migrationContext !== self,
           (type(of: model)._realmObjectName() ?? type(of: model).className()) == target {
            if let copy = copiedIn[ObjectIdentifier(model)], let table = try txn.table(target), try txn.rows.read(table, copy.key) != nil {
                return .link(copy.key)
            }
            let key = try insert(target, model)
            copiedIn[ObjectIdentifier(model)] = (model, key)
            return .link(key)
        }
        guard let object = value as? DynamicObject, object.migrationContext === self else {
            throw fail("Invalid value '\(value)' (\(type(of: value))) for property '\(className).\(property.name)' of type '<\(target)>': give an object handed to this migration (newObject, or one returned by migration.create) or nil")
        }
        guard object.dynamicClassName == target else {
            throw fail("Invalid value for property '\(className).\(property.name)': it links to '\(target)' objects, not '\(object.dynamicClassName)' objects")
        }
        guard let table = try txn.table(target), try txn.rows.read(table, object.dynamicKey) != nil else {
            throw fail("Invalid value for property '\(className).\(property.name)': the '\(target)' object was deleted or is not in the new schema")
        }
        return .link(object.dynamicKey)
    }

    /// Replaces the elements of `owner`'s list `property` with `value` (an array or any
    /// sequence of values or, for a list of objects, of objects handed to this migration).
    private func setList(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ value: Any?) throws {
        if property.isMap { return try setMap(table, property, owner: owner, value) }
        guard let elements = DynamicValues.elements(value) else {
            throw fail("Invalid value '\(value.map { "\($0)" } ?? "nil")' for list '\(table.name).\(property.name)': give an array")
        }
        let stored = try elements.map { try storedValue($0, property, className: table.name) }
        try txn.lists.rewrite(table, property, owner: owner, stored)
    }

    /// Replaces the entries of `owner`'s map `property` with `value` (a dictionary with string
    /// keys of values or, for a map of objects, of objects handed to this migration or nil).
    private func setMap(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ value: Any?) throws {
        guard let entries = DynamicValues.unwrapped(value) as? [String: Any?] else {
            throw fail("Invalid value '\(value.map { "\($0)" } ?? "nil")' for map '\(table.name).\(property.name)': give a dictionary with string keys")
        }
        try txn.lists.removeAll(table, property, owner: owner)
        for (key, element) in entries {
            try txn.lists.setMapValue(table, property, owner: owner, try storedValue(element, property, className: table.name), forKey: key)
        }
    }

    func set(_ object: DynamicObject, _ name: String, _ value: Any?) {
        perform {
            if object.isOldObject {
                throw fail("Cannot set '\(object.dynamicClassName).\(name)' on the old object of a migration: set it on the new object")
            }
            guard let schema = schema(of: object), let property = property(named: name, of: object, in: schema) else {
                throw fail("'\(object.dynamicClassName)' has no property '\(name)' in the new schema")
            }
            guard let table = try txn.table(schema.name) else { return }
            if property.isList {
                try setList(table, property, owner: object.dynamicKey, value)
                // A collection handed out before holds the new elements from now on.
                try refill(object, property, in: table)
                touched.insert(schema.name)
                return
            }
            let stored = try storedValue(value, property, className: schema.name)
            let slotCount = max(oldTables[schema.name]?.schema.slotCount ?? 0, schema.slotCount)
            try txn.migration.update(table, object.dynamicKey, slotCount: slotCount, [property.id: stored])
            touched.insert(schema.name)
        }
    }

    func enumerate(_ typeName: String, _ block: MigrationObjectEnumerateBlock) {
        let keys: [ObjectKey] = attempt([]) {
            // A class in neither schema has no objects to visit (RealmSwift's rule too).
            guard oldSchema.classes[typeName] != nil, let table = oldTables[typeName] else { return [] }
            return try txn.rows.allKeys(table)
        }
        let hasNew = txn.schema.classes[typeName] != nil
        let createdHere = created[typeName] ?? []
        for key in keys where !createdHere.contains(key) {
            if error != nil { return }
            let old = DynamicObject(self, className: typeName, key: key, old: true)
            if !exists(old) { continue }
            block(old, hasNew ? DynamicObject(self, className: typeName, key: key, old: false) : nil)
        }
    }

    func create(_ typeName: String, _ value: Any) -> DynamicObject {
        DynamicObject(self, className: typeName, key: attempt(0) { try insert(typeName, value) }, old: false)
    }

    /// `create`'s object, throwing.
    private func insert(_ typeName: String, _ value: Any) throws -> ObjectKey {
        guard let schema = txn.schema.classes[typeName], let table = try txn.table(typeName) else {
            throw fail("Cannot create an object of type '\(typeName)': it is not in the new schema")
        }
        var values = [StrataStorage.Value](repeating: .null, count: schema.slotCount)
        let model = DynamicValues.modelInstance(typeName)
        var lists: [(PropertySchema, Any?)] = []
        for (p, given) in zip(schema.properties, try DynamicValues.given(value, for: schema)) {
            if p.isList {
                if let given { lists.append((p, given)) }
            } else if let given {
                values[p.id] = try storedValue(given, p, className: typeName)
            } else if let linked = DynamicValues.defaultLinkedObject(p, model: model) {
                // A link the model's initialiser fills gets a new object, as RealmSwift makes one.
                values[p.id] = try storedValue(linked, p, className: typeName)
            } else {
                values[p.id] = DynamicValues.initialValue(p, of: schema, model: model)
            }
        }
        touched.insert(typeName)
        let key = try txn.migration.insert(table, values: values)
        created[typeName, default: []].insert(key)
        for (p, given) in lists { try setList(table, p, owner: key, given) }
        return key
    }

    func delete(_ object: DynamicObject) {
        perform {
            guard object.migrationContext === self else { throw fail("Can only delete an object handed to this migration") }
            guard let table = try txn.table(object.dynamicClassName) ?? oldTables[object.dynamicClassName] else { return }
            try txn.migration.delete(table, object.dynamicKey)
            touched.insert(object.dynamicClassName)
        }
    }

    func deleteData(_ typeName: String) -> Bool {
        attempt(false) {
            let existed = oldSchema.classes[typeName] != nil || txn.schema.classes[typeName] != nil
            if configured.contains(typeName), let table = try txn.table(typeName) {
                try txn.migration.empty(table)
                if let old = oldTables[typeName] { try txn.migration.empty(old) }
                touched.insert(typeName)
            } else if let old = try oldTables[typeName] ?? txn.table(typeName) {
                try txn.migration.empty(old)
                txn.removeFromSchema([typeName])
                removed.insert(typeName)
            }
            return existed
        }
    }

    func rename(_ typeName: String, from oldName: String, to newName: String) {
        perform {
            guard let old = oldSchema.classes[typeName] else {
                throw fail("Cannot rename properties of '\(typeName)': the class is not in the old schema")
            }
            guard let o = old.property(named: oldName) else {
                throw fail("Cannot rename property '\(typeName).\(oldName)' because it does not exist.")
            }
            guard var target = txn.schema.classes[typeName], let index = target.properties.firstIndex(where: { $0.name == newName }) else {
                throw fail("Renamed property '\(typeName).\(newName)' does not exist.")
            }
            if target.property(named: oldName) != nil {
                throw fail("Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because the source property still exists.")
            }
            if old.property(named: newName) != nil {
                throw fail("Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because the destination property already exists.")
            }
            let t = target.properties[index]
            if o.type != t.type || o.linkTarget != t.linkTarget || o.isList != t.isList || o.isSet != t.isSet || o.isMap != t.isMap {
                throw fail("Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because it would change from type '\(DynamicValues.typeName(o))' to '\(DynamicValues.typeName(t))'.")
            }
            guard let table = try txn.table(typeName) else { return }
            var work = SlotWork()
            if Self.indexKind(o, in: old) == Self.indexKind(t, in: target) {
                target.properties[index].id = o.id   // a schema change only: the slot keeps its values
                try txn.store(classes: [target])
                let p = target.properties[index]
                if o.isOptional && !p.isOptional { work.requiredNow.append(p) }
                if p.type == .int && p.intWidth < o.intWidth { work.narrowed.append(p) }
            } else {
                work.copies.append((o, t))     // another index kind: the values move to the new slot
            }
            changed.insert(typeName)
            _ = table
            if !work.isEmpty { try rewriteRows(typeName, work) }
        }
    }
}
