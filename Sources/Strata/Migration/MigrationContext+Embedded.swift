import StrataStorage

extension MigrationContext {
    /// Throws unless every object of each class the migration turned embedded has exactly one
    /// owner (a link or list element of another object), as RealmSwift requires: one with
    /// none or with several cannot become embedded.
    func checkNewlyEmbeddedClasses() throws {
        for (name, schema) in txn.schema.classes.sorted(by: { $0.key < $1.key })
        where schema.isEmbedded && oldSchema.classes[name]?.isEmbedded == false {
            guard let table = try txn.table(name) else { continue }
            for key in try txn.rows.allKeys(table) {
                let owners = try txn.objects.ownerCount(of: key, in: table)
                if owners != 1 {
                    throw Realm.Error(.schemaMismatch, "Cannot convert '\(name)' to embedded: an object has \(owners) owners; each must be linked to exactly once (delete or link them in the migration block)")
                }
            }
        }
    }
}
