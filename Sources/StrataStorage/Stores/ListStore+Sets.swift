/// Sets (docs/FILE-FORMAT.md, "Sets"): a set property is stored as a list whose elements are
/// unique and kept in value order (`Value.compare`), so a member is found by a binary search
/// over the list's positions, each probe reading the directory and one chunk.
extension ListStore {
    /// Where `value` is or would go in `owner`'s set `property`: its position, and whether it
    /// is a member.
    package func position(of value: Value, in table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) -> (index: Int, isMember: Bool) {
        var low = 0, high = try count(table, property, owner: owner)
        while low < high {
            let middle = (low + high) / 2
            let order = Value.compare(try self.value(table, property, owner: owner, at: middle), value)
            if order == 0 { return (middle, true) }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    /// Whether `value` is a member of `owner`'s set `property`.
    package func contains(_ value: Value, in table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) -> Bool {
        try position(of: value, in: table, property, owner: owner).isMember
    }

    /// Adds `value` to `owner`'s set `property` at its place in value order; false (and no
    /// change) when it is already a member.
    @discardableResult
    package func insertMember(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ value: Value) throws(StorageError) -> Bool {
        let place = try position(of: value, in: table, property, owner: owner)
        if place.isMember { return false }
        try insertElements(table, property, owner: owner, [value], at: place.index)
        return true
    }

    /// Removes `value` from `owner`'s set `property`; false (and no change) when it is not a
    /// member.
    @discardableResult
    package func removeMember(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ value: Value) throws(StorageError) -> Bool {
        let place = try position(of: value, in: table, property, owner: owner)
        if !place.isMember { return false }
        try remove(table, property, owner: owner, at: place.index)
        return true
    }
}
