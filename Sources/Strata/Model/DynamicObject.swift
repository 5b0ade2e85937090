import Foundation
import StrataStorage

/// An untyped object: its properties are read and written by name (`object["name"]`, or
/// `object.name` through dynamic member lookup), by the schema stored in the file.
///
/// The dynamic API (`Realm.dynamicObjects`, `dynamicObject(ofType:forPrimaryKey:)`,
/// `dynamicCreate`, `Object.dynamicList`) hands out managed ones, live like any object: see
/// `storedValue(named:)` for what each kind of property reads as. Migration blocks receive
/// them too (`MigrationObject`): the old object reads the file's old schema, in its types;
/// the new object reads and writes the new schema. There a link reads as a `DynamicObject`
/// of the same side (or nil), a list, set or map as RealmSwift's collection of the stored
/// element type (`List<MigrationObject>`, `MutableSet<String>`, `Map<String, Int?>`), live
/// for the new object (`MigrationContext+Collections.swift`); links are set to objects
/// handed to the migration, collections to collections, arrays or dictionaries.
@dynamicMemberLookup
public final class DynamicObject: Object {
    /// The migration the object belongs to, its class, key and side (old or new schema).
    var migrationContext: MigrationContext?
    var dynamicClassName = ""
    var dynamicKey: ObjectKey = 0
    var isOldObject = false

    public required init() { super.init() }

    init(_ context: MigrationContext, className: String, key: ObjectKey, old: Bool) {
        migrationContext = context
        dynamicClassName = className
        dynamicKey = key
        isOldObject = old
        super.init()
    }

    /// The value of the property named `key` (nil for null). Setting it (inside a write for
    /// a managed object) converts and stores the value; a value of the wrong type or an
    /// unknown name traps (fails the migration, in a migration block) with a message naming
    /// the property. An unmanaged `DynamicObject` has no properties.
    public override subscript(key: String) -> Any? {
        get {
            if let migrationContext { return migrationContext.get(self, key) }
            return binding == nil ? nil : storedValue(named: key)
        }
        set {
            if let migrationContext { return migrationContext.set(self, key, newValue) }
            guard binding != nil else {
                preconditionFailure("Cannot set '\(key)' on an unmanaged DynamicObject: create objects with Realm.dynamicCreate")
            }
            setStoredValue(newValue, named: key)
        }
    }

    /// `object.name`: the same as `object["name"]`.
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }

    public override var isInvalidated: Bool {
        guard let migrationContext else { return super.isInvalidated }
        return !migrationContext.exists(self)
    }

    /// Reads the property named `key` (`self[key]`), as RealmSwift's dynamic objects do.
    public override func value(forUndefinedKey key: String) -> Any? { self[key] }
    /// Sets the property named `key` (`self[key] = value`).
    public override func setValue(_ value: Any?, forUndefinedKey key: String) { self[key] = value }

    /// "Person {\n\tname = Ann;\n\tdogs = List<Dog> <0x…> (\n\t\t[0] Dog {…}\n\t);\n}", as
    /// RealmSwift prints objects (`Object.description`), with the properties of the object's
    /// stored schema (for a migration object, the old or new one): linked objects and
    /// collections nested five levels deep, nil as `(null)`.
    public override var description: String {
        guard let schema = storedSchema else { return "DynamicObject {}" }
        return CollectionDescription.nested {
            let body = schema.properties.map { p in
                "\t\(p.name) = \(describe(p, of: schema).replacingOccurrences(of: "\n", with: "\n\t"));"
            }
            return "\(schema.name) {\n\(body.joined(separator: "\n"))\n}"
        }
    }

    /// Property `p`'s value as RealmSwift prints it; a collection of objects under its stored
    /// class's name (`List<Dog>`), as a model object's would be.
    private func describe(_ p: PropertySchema, of schema: ClassSchema) -> String {
        let value = self[p.name]
        let target = p.linkTarget ?? ""
        func objects<C: RealmCollection>(_ kind: String, _ collection: C) -> String where C.Element == DynamicObject {
            CollectionDescription.render(kind, target, address: collection as AnyObject, count: collection.count,
                                         elements: collection.enumerated().lazy.map { (label: "[\($0.offset)]", value: $0.element as Any) })
        }
        switch value {
        case let list as List<DynamicObject>: return objects("List", list)
        case let set as MutableSet<DynamicObject>: return objects("MutableSet", set)
        case let map as Map<String, DynamicObject?>:
            return CollectionDescription.render("Map", "string, " + target, address: map, count: map.count,
                                                elements: map.keys.lazy.map { (label: "[\($0)]:", value: map[$0] as Any) }, indentsLabels: false)
        default:
            break
        }
        guard let value = DynamicValues.unwrapped(value), !(value is NSNull) else { return "(null)" }
        if let object = value as? ObjectBase { return object.description }
        guard !p.isList, let stored = try? DynamicValues.storedValue(value, p, className: schema.name) else { return "\(value)" }
        return Object.describeProperty(stored)
    }

    /// The stored schema of the object's class: the migration's old or new one for a
    /// migration object, the file's for a managed one.
    var storedSchema: ClassSchema? { migrationContext.map { $0.schema(of: self) } ?? binding?.querySchema }

    /// Migration objects are equal when they are the same object of one migration; managed
    /// ones as any object.
    public override func isEqual(_ object: Any?) -> Bool {
        guard migrationContext != nil else { return super.isEqual(object) }
        return (object as? ObjectBase).map(isSameStoredObject) ?? false
    }

    /// A migration object is the same object as another of the same migration, class and key.
    override func isSameStoredObject(_ other: ObjectBase) -> Bool {
        guard migrationContext != nil else { return super.isSameStoredObject(other) }
        guard let other = other as? DynamicObject else { return false }
        return other === self || (other.migrationContext === migrationContext
            && other.dynamicClassName == dynamicClassName && other.dynamicKey == dynamicKey)
    }

    public override var hash: Int { migrationContext == nil ? super.hash : Int(truncatingIfNeeded: dynamicKey) }
}
