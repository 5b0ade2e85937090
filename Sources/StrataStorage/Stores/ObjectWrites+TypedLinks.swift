import LMDB

/// What a delete does to the mixed values that hold the deleted objects (RealmSwift's
/// behaviour): a single mixed value becomes null, and so does a list's element or a map's
/// value; a set loses the member. Found through `TypedLinkStore`, not by scanning.
extension ObjectWrites {
    /// Clears the mixed values that hold object `key` of `target` (before it is deleted).
    func clearTypedLinks(to target: Table, _ key: ObjectKey) throws(StorageError) {
        for origin in try transaction.typedLinks.origins(of: target.name, key) {
            try clear(.typedLink(target.name, key), heldBy: origin)
        }
    }

    /// Clears the mixed values of other classes that hold any object of `target` (before the
    /// class is cleared); those of `target` itself go with its rows (`forgetTypedLinks`).
    func clearAllTypedLinks(to target: Table) throws(StorageError) {
        for (key, origin) in try transaction.typedLinks.origins(ofClass: target.name) where origin.className != target.name {
            try clear(.typedLink(target.name, key), heldBy: origin)
        }
    }

    /// Removes the backlinks of every link the mixed values of `table`'s objects hold (before
    /// the class is cleared in one step).
    func forgetTypedLinks(from table: Table) throws(StorageError) {
        let links = transaction.links
        if !table.mixedProperties.isEmpty {
            try StorageError.translating("Reading '\(table.name)'") {
                try transaction.rows.forEach(table) { key, row in
                    for p in table.mixedProperties { try links.changeOccurrences(of: row.value(p), table, p, in: key, by: -1) }
                    return true
                }
            }
        }
        for p in table.listProperties where p.type == .mixed {
            for owner in try transaction.lists.owners(table, p) {
                for v in try transaction.lists.values(table, p, owner: owner) { try links.changeOccurrences(of: v, table, p, in: owner, by: -1) }
            }
        }
    }

    /// Clears `link` where `origin` says it is held.
    private func clear(_ link: Value, heldBy origin: TypedLinkStore.Origin) throws(StorageError) {
        guard let table = try transaction.table(origin.className),
              let property = table.schema.properties.first(where: { $0.id == origin.property }) else { return }
        let lists = transaction.lists
        if !property.isList {
            guard let row = try transaction.rows.read(table, origin.owner), row.value(property) == link else { return }
            try update(table, origin.owner, [(property, .null)])
        } else if property.isMap {
            try lists.nullifyMapValues(table, property, owner: origin.owner, equalTo: link)
        } else if property.isSet {
            try lists.removeMember(table, property, owner: origin.owner, link)
        } else {
            for (i, v) in try lists.values(table, property, owner: origin.owner).enumerated() where v == link {
                try lists.replace(table, property, owner: origin.owner, at: i, with: .null)
            }
        }
    }
}
