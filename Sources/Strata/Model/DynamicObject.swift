import Foundation
import StrataStorage

/// An untyped object: its properties are read and written by name (`object["name"]`, or
/// `object.name` through dynamic member lookup). Migration blocks receive them
/// (`MigrationObject`): the old object reads the file's old schema, in its types; the new
/// object reads and writes the new schema. A link reads as a `DynamicObject` of the same side
/// (or nil), a list of objects as `[DynamicObject]`, a list of values as an array of its
/// values (`[Any]`, or `[Any?]` for optional elements); links are set to objects handed to the
/// migration, lists to arrays.
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

    /// The value of the property named `key` (nil for null). Setting it on a new object
    /// converts and stores the value; a value of the wrong type, an unknown name, or a write
    /// to an old object fails the migration with an error naming the property.
    public override subscript(key: String) -> Any? {
        get { migrationContext?.get(self, key) }
        set { migrationContext?.set(self, key, newValue) }
    }

    /// `object.name`: the same as `object["name"]`.
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }

    public override var isInvalidated: Bool { migrationContext?.exists(self) == false }

    public override func setValue(_ value: Any?, forKey key: String) { self[key] = value }
    public override func value(forKey key: String) -> Any? { self[key] }

    /// "Person { name = Ann; age = 3; }" with the properties of its schema (old or new).
    public override var description: String {
        guard let context = migrationContext, let schema = context.schema(of: self) else { return "DynamicObject {}" }
        let body = schema.properties.map { p -> String in
            let value = self[p.name]
            // Links are shown by class and key, so that cycles print finitely.
            let shown: String = switch value {
            case let o as DynamicObject: "\(o.dynamicClassName)(\(o.dynamicKey))"
            case let list as [DynamicObject]: "[" + list.map { "\($0.dynamicClassName)(\($0.dynamicKey))" }.joined(separator: ", ") + "]"
            default: value.map { "\($0)" } ?? "nil"
            }
            return "\t\(p.name) = \(shown);"
        }
        return "\(schema.name) {\n\(body.joined(separator: "\n"))\n}"
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? DynamicObject else { return false }
        if other === self { return true }
        return migrationContext != nil && other.migrationContext === migrationContext
            && other.dynamicClassName == dynamicClassName && other.dynamicKey == dynamicKey
    }

    public override var hash: Int { Int(truncatingIfNeeded: dynamicKey) }
}
