import StrataStorage

/// Where the classes a query may reach through relationships come from: the stored schema
/// and the inverse relationships of every class (`SchemaLookup`), made when asked.
package protocol SchemaLookupSource {
    /// The classes a query may reach, with their inverse relationships.
    func schemaLookup() -> SchemaLookup
}

extension SchemaLookup: SchemaLookupSource {
    package func schemaLookup() -> SchemaLookup { self }
}

/// The classes one resolve reaches past the class it resolves against. The lookup of every
/// class is made only when the query first names another class or an inverse relationship,
/// and `reachedOtherClasses` tells afterwards whether the class alone answered (a tree that
/// depends on it alone may be prepared, `PreparedQueries`).
final class ReachableClasses {
    /// The class queries are resolved against.
    private let own: ClassSchema
    private let source: any SchemaLookupSource
    private var made: SchemaLookup?
    /// Whether the resolve asked for a class other than `own`, or for inverse relationships.
    private(set) var reachedOtherClasses = false

    init(of own: ClassSchema, from source: any SchemaLookupSource) {
        self.own = own
        self.source = source
    }

    /// The schema of class `name`, or nil when the Realm has no such class.
    func schema(named name: String) -> ClassSchema? {
        if made == nil, name == own.name { return own }
        return lookup().classes[name]
    }

    /// The inverse relationships class `name` declares.
    func inverses(of name: String) -> [InverseRelationship]? {
        lookup().inverses[name]
    }

    /// The lookup of every class, made on first use; `own` is in it.
    private func lookup() -> SchemaLookup {
        reachedOtherClasses = true
        if let made { return made }
        var lookup = source.schemaLookup()
        if lookup.classes[own.name] == nil { lookup.classes[own.name] = own }
        made = lookup
        return lookup
    }
}
