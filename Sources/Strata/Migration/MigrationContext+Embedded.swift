import StrataStorage

extension MigrationContext {
    /// Throws unless every object of each embedded class the migration made embedded or
    /// wrote to has exactly one owner (a link or list element of another object), as
    /// RealmSwift requires: one with none or with several cannot be embedded.
    func checkEmbeddedOwners() throws {
        for (name, schema) in txn.schema.classes.sorted(by: { $0.key < $1.key }) where schema.isEmbedded {
            let madeEmbedded = oldSchema.classes[name]?.isEmbedded == false
            guard madeEmbedded || touched.contains(name), let table = try txn.table(name) else { continue }
            for key in try txn.rows.allKeys(table) {
                let owners = try txn.objects.ownerCount(of: key, in: table)
                guard owners != 1 else { continue }
                let problem = "an object has \(owners) owners; each must be linked to exactly once (delete or link them in the migration block)"
                throw Realm.Error(.schemaMismatch, madeEmbedded ? "Cannot convert '\(name)' to embedded: \(problem)"
                                                                : "'\(name)' is embedded: after the migration \(problem)")
            }
        }
    }
}
