import StrataStorage

/// What a class declares through RealmSwift's hooks from before `@Persisted`:
/// `primaryKey()`, `indexedProperties()` and `ignoredProperties()`, applied to its
/// properties as the `@Persisted` options would be.
struct LegacyDeclarations {
    /// The property `primaryKey()` names, if any.
    let primaryKey: String?
    let indexed: Set<String>
    let ignored: Set<String>

    /// The types a primary key may have (as `@Persisted(primaryKey:)` allows).
    private static let keyTypes: Set<StrataStorage.PropertyType> = [.bool, .int, .string, .uuid, .objectId]
    /// The types an index may cover (as `@Persisted(indexed:)` allows).
    private static let indexedTypes: Set<StrataStorage.PropertyType> = [.bool, .int, .string, .date, .uuid, .objectId, .mixed]

    init(_ type: ObjectBase.Type) {
        primaryKey = type.primaryKey()
        indexed = Set(type.indexedProperties())
        ignored = Set(type.ignoredProperties())
    }

    /// Throws unless each name the hooks give is a property of class `className` (`declared`:
    /// the names of all its stored properties, `properties`: those stored in the Realm) of a
    /// type the hook allows.
    func check(_ className: String, declared: Set<String>, _ properties: [ModelProperty]) throws {
        if let primaryKey {
            guard let property = properties.first(where: { $0.name == primaryKey }) else {
                throw Realm.Error(.invalidInput, "Primary key property '\(primaryKey)' does not exist on object '\(className)'")
            }
            guard Self.keyTypes.contains(property.schema.type), !property.schema.isList else {
                throw Realm.Error(.invalidInput, "Property '\(className).\(primaryKey)' cannot be the primary key: it is of type '\(property.schema.type)', not bool, int, string, uuid or objectId")
            }
        }
        for name in indexed.sorted() {
            guard let property = properties.first(where: { $0.name == name }) else {
                throw Realm.Error(.invalidInput, "Indexed property '\(name)' does not exist on object '\(className)'")
            }
            guard Self.indexedTypes.contains(property.schema.type), !property.schema.isList else {
                throw Realm.Error(.invalidInput, "Property '\(className).\(name)' of type '\(property.schema.type)' cannot be indexed")
            }
        }
        for name in ignored.sorted() where !declared.contains(name) {
            throw Realm.Error(.invalidInput, "Ignored property '\(name)' does not exist on object '\(className)'")
        }
    }
}
