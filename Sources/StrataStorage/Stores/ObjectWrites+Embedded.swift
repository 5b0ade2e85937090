import LMDB

/// The ownership of embedded objects (docs/EMBEDDED.md): an object of an embedded class is
/// pointed at by exactly one link or collection element of one owner. A write that would give
/// it a second owner throws; a write that takes its owner's link away deletes it, and deleting
/// the owner deletes what it owns, recursively. Lists call these as they change, and so can
/// any other collection of objects.
extension ObjectWrites {
    /// Throws unless each embedded object of `values` is free to become the target of
    /// relationship `property` of `origin`: it has no owner yet and appears once.
    package func claimEmbedded(_ origin: Table, _ property: PropertySchema, _ values: some Sequence<Value>) throws(StorageError) {
        guard origin.ownsTargets(of: property), let target = try targetTable(property) else { return }
        var claimed: [ObjectKey] = []
        for case .link(let key) in values {
            let owned = try ownerCount(of: key, in: target) > 0
            if owned || claimed.contains(key) {
                throw StorageError(.invalidInput, property.isList
                    ? "Cannot add an existing managed embedded object to a List."
                    : "Can't set link to existing managed embedded object")
            }
            claimed.append(key)
        }
    }

    /// Deletes each embedded object of `values` that relationship `property` of `origin` no
    /// longer points at (its owner let it go), with the embedded objects it owns in turn.
    package func releaseEmbedded(_ origin: Table, _ property: PropertySchema, _ values: some Sequence<Value>) throws(StorageError) {
        guard origin.ownsTargets(of: property), let target = try targetTable(property) else { return }
        for case .link(let key) in values where try ownerCount(of: key, in: target) == 0 {
            try delete(target, key)
        }
    }

    /// How many links and list memberships point at object `key` of the embedded class
    /// `target` (1 for a sound embedded object; a list holding it twice counts twice).
    package func ownerCount(of key: ObjectKey, in target: Table) throws(StorageError) -> Int {
        try owners(of: key, in: target).count
    }

    /// The relationships that point at object `key` of `target`: each owner's class, key and
    /// property, once per link or list membership.
    package func owners(of key: ObjectKey, in target: Table) throws(StorageError) -> [(origin: Table, key: ObjectKey, property: PropertySchema)] {
        var found: [(Table, ObjectKey, PropertySchema)] = []
        let schema = transaction.schema
        for (originSchema, property) in schema.links(to: target.name) + schema.lists(of: target.name) {
            guard let origin = try transaction.table(originSchema.name) else { continue }
            for (owner, times) in try transaction.links.occurrences(origin, property, of: key) {
                found += repeatElement((origin, owner, property), count: times)
            }
        }
        return found
    }

    /// Records the owners of embedded object `key` of `table` as modified (their property
    /// that points at it), up to the top-level object: a change to an embedded object is a
    /// change to the object that holds it.
    package func recordOwnersModified(_ table: Table, _ key: ObjectKey) throws(StorageError) {
        var table = table, key = key
        while table.schema.isEmbedded, let owner = try owners(of: key, in: table).first {
            transaction.record(owner.origin) { $0.recordModify(owner.key, property: owner.property.id) }
            (table, key) = (owner.origin, owner.key)
        }
    }

    /// Deletes the embedded objects that every object of `table` owns (before the class is
    /// cleared in one step).
    func deleteAllOwned(_ table: Table) throws(StorageError) {
        for property in table.embeddedRelationships {
            guard let target = try targetTable(property) else { continue }
            let keys = Set(try transaction.links.all(table, property).map(\.target))
            for key in keys.sorted() { try delete(target, key) }
        }
    }

    private func targetTable(_ property: PropertySchema) throws(StorageError) -> Table? {
        try property.linkTarget.flatMap { (name) throws(StorageError) in try transaction.table(name) }
    }
}
