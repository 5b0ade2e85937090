import LMDB

/// What a migration does to the links mixed values hold once its block has run: they follow
/// re-keyed objects, those to objects (or classes) that are gone are cleared as a delete
/// clears them (null in a value, a list or a map, out of a set), and `TypedLinkStore` is
/// rebuilt from what remains.
extension MigrationWrites {
    /// Repairs every mixed value's link in the file; `moved` gives, per class, the old and
    /// new keys of its re-keyed objects.
    package func repairTypedLinks(moved: [String: [ObjectKey: ObjectKey]]) throws {
        if let db = transaction.database(MetaKeys.typedLinks) {
            try StorageError.translating("Rebuilding the links held by mixed values") { try transaction.lmdb.empty(db) }
        }
        var exists: [Value: Bool] = [:]
        /// The link `value` becomes: followed to its object's new key, null when that is gone.
        func repaired(_ value: Value) throws -> Value {
            guard case .typedLink(let name, let key) = value else { return value }
            let link = Value.typedLink(name, moved[name]?[key] ?? key)
            if exists[link] == nil {
                exists[link] = try transaction.table(name).map { (t) throws(StorageError) in try transaction.rows.read(t, moved[name]?[key] ?? key) != nil } ?? false
            }
            return exists[link]! ? link : .null
        }
        for c in transaction.schema.sorted {
            guard let table = try transaction.table(c.name) else { continue }
            if !table.mixedProperties.isEmpty { try repairValues(table, repaired) }
            for p in table.listProperties where p.type == .mixed { try repairCollections(table, p, repaired) }
        }
    }

    private func repairValues(_ table: Table, _ repaired: (Value) throws -> Value) throws {
        var rows: [(ObjectKey, [(PropertySchema, Value)])] = []
        try transaction.rows.forEach(table) { key, row in
            let values = table.mixedProperties.map { ($0, row.value($0)) }
            if values.contains(where: { if case .typedLink = $0.1 { true } else { false } }) { rows.append((key, values)) }
            return true
        }
        for (key, values) in rows {
            var changed: [Int: Value] = [:]
            for (p, old) in values {
                let new = try repaired(old)
                if new != old { changed[p.id] = new }
                try transaction.links.changeOccurrences(of: new, table, p, in: key, by: 1)
            }
            if !changed.isEmpty { try update(table, key, slotCount: table.schema.slotCount, changed) }
        }
    }

    private func repairCollections(_ table: Table, _ property: PropertySchema, _ repaired: (Value) throws -> Value) throws {
        let lists = transaction.lists
        for owner in try lists.owners(table, property) {
            let values = try lists.values(table, property, owner: owner)
            for (i, old) in values.enumerated() {
                guard case .typedLink = old else { continue }
                let new = try repaired(old)
                if new == old {
                    try transaction.links.changeOccurrences(of: old, table, property, in: owner, by: 1)
                } else if property.isSet {
                    // By value: a member that moves changes the places of the others.
                    try lists.removeMember(table, property, owner: owner, old)
                    if new != .null { try lists.insertMember(table, property, owner: owner, new) }
                } else {
                    try lists.replace(table, property, owner: owner, at: i, with: new)
                }
            }
        }
    }
}
