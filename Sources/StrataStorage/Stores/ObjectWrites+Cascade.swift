import LMDB

/// What a delete does to the objects that point at the deleted ones: their links become
/// null and the deleted objects leave their lists (RealmSwift's behaviour), through the
/// backlinks, so that nothing is found by scanning.
extension ObjectWrites {
    /// Sets to nil every link to object `key` of `target` (before it is deleted).
    func unlinkIncoming(_ target: Table, _ key: ObjectKey) throws(StorageError) {
        for (originSchema, property) in transaction.schema.links(to: target.name) {
            guard let origin = try transaction.table(originSchema.name) else { continue }
            for originKey in try transaction.links.origins(origin, property, linkingTo: key) {
                try update(origin, originKey, [(property, .null)], current: try backlinkedRow(origin, originKey))
            }
        }
    }

    /// The row of object `key` of `origin`, which a backlink names as linking to an object or
    /// holding it in a list: a backlink to an object that does not exist is damage (deleting
    /// an object removes its backlinks in the same write), not an object deleted since.
    private func backlinkedRow(_ origin: Table, _ key: ObjectKey) throws(StorageError) -> RowView {
        guard let row = try transaction.rows.read(origin, key) else { throw backlinkToMissingRow(origin, key) }
        return row
    }

    /// The damage of a backlink naming object `key` of `origin`, which has no row.
    private func backlinkToMissingRow(_ origin: Table, _ key: ObjectKey) -> StorageError {
        let path = transaction.file.path
        return StorageError(.invalidDatabase, "'\(path)' is damaged: a backlink names '\(origin.name)' object \(key), whose row cannot be found; run `strata check \(path)`")
    }

    /// Sets to nil every link to any object of `target` (before the class is cleared). Links
    /// from `target` itself are not touched: those rows go too.
    func unlinkAllIncoming(_ target: Table) throws(StorageError) {
        for (originSchema, property) in transaction.schema.links(to: target.name) where originSchema.name != target.name {
            guard let origin = try transaction.table(originSchema.name) else { continue }
            for (_, originKey) in try transaction.links.all(origin, property) {
                try update(origin, originKey, [(property, .null)], current: try backlinkedRow(origin, originKey))
            }
        }
    }

    /// Removes every occurrence of object `target` from the lists of objects that hold it, and
    /// sets to nil the map values that are `target` (before `target` is deleted).
    func unlistIncoming(_ targetTable: Table, _ target: ObjectKey) throws(StorageError) {
        let lists = transaction.lists
        for (originSchema, property) in transaction.schema.lists(of: targetTable.name) {
            guard let origin = try transaction.table(originSchema.name) else { continue }
            for owner in try transaction.links.origins(origin, property, linkingTo: target) {
                // Only its existence: the owner's row is neither read nor verified here.
                guard try transaction.rows.contains(origin, owner) else { throw backlinkToMissingRow(origin, owner) }
                if property.isMap {
                    try lists.nullifyMapValues(origin, property, owner: owner, equalTo: .link(target))
                    continue
                }
                let kept = try lists.values(origin, property, owner: owner).filter { $0 != .link(target) }
                try lists.rewrite(origin, property, owner: owner, kept)
            }
        }
    }

    /// Empties every list of objects of `targetTable` held by other classes, and sets to nil
    /// their maps' values of it (before the class is cleared).
    func unlistAllIncoming(_ targetTable: Table) throws(StorageError) {
        for (originSchema, property) in transaction.schema.lists(of: targetTable.name) where originSchema.name != targetTable.name {
            guard let origin = try transaction.table(originSchema.name) else { continue }
            if property.isMap {
                for (target, owner) in try transaction.links.all(origin, property) {
                    try transaction.lists.nullifyMapValues(origin, property, owner: owner, equalTo: .link(target))
                }
                continue
            }
            try transaction.lists.removeAll(origin, property)
        }
    }
}
