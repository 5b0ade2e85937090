import LMDB

/// The recording of before-images (`ObjectImages`) by a write: each store's write calls these
/// before it changes an object's row or list for the first time in the commit.
extension StorageTransaction {
    /// Whether this write records before-images: the file's setting (meta `oldValues`), read
    /// once per write.
    func recordsOldValues() throws(StorageError) -> Bool {
        if let known = oldValuesEnabled { return known }
        let enabled = try settings.recordsOldValues
        oldValuesEnabled = enabled
        if !enabled { oldValues.giveUp() }
        return enabled
    }

    /// Whether a change to `table` now needs its before-image: old values are on, the commit
    /// has not given up on them, and the class was not cleared earlier in the commit (the
    /// clear recorded every object it had; those after it are new).
    private func needsImage(_ table: Table) throws(StorageError) -> Bool {
        guard try recordsOldValues(), oldValues.isComplete else { return false }
        return !oldValues.clearsClasses || changes.classes[table.name]?.cleared != true
    }

    /// Records the row of object `key` before this write changes or deletes it.
    func recordOldRow(_ table: Table, _ key: ObjectKey, _ row: RowView) throws(StorageError) {
        guard try needsImage(table) else { return }
        oldValues.record(row: row.bytes, of: table.name, key)
    }

    /// Records the old directory and map keys of `owner`'s list `property` before this write
    /// first changes it.
    func recordOldList(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) {
        guard try needsImage(table), !oldValues.hasList(table.name, owner, property.id) else { return }
        oldValues.record(list: try lists.image(table, property, owner: owner), of: table.name, owner, property: property.id)
    }

    /// Records the old bytes of entry `id` (a chunk or node) of `owner`'s list `property`
    /// before this write first overwrites or deletes it, when the old list had it (an entry
    /// the commit created needs none). The list's directory must be recorded first, and in a
    /// nested directory the node listing a chunk before the chunk.
    func recordOldChunk(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ id: UInt32) throws(StorageError) {
        guard try needsImage(table), oldValues.needsChunk(id, of: table.name, owner, property: property.id) else { return }
        let bytes = try lists.read(table, property, key: ListStore.key(owner, chunk: id)) { $0.map(Array.init) }
        guard let bytes else { throw lists.damagedList(table, property, owner) }
        oldValues.record(chunk: bytes, id, of: table.name, owner, property: property.id)
    }

    /// Records the whole of `owner`'s list `property`, directory and every node and chunk,
    /// before it is emptied without its entries being deleted one by one.
    private func recordWholeList(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) {
        try recordOldList(table, property, owner: owner)
        let (_, chunks, nodes) = try lists.layout(table, property, owner)
        // Nodes first: a nested list's image has a chunk once it holds the chunk's node.
        for id in nodes + chunks.map(\.id) where oldValues.isComplete {
            try recordOldChunk(table, property, owner: owner, id)
        }
    }

    /// Records every object of `table`, rows and lists, before the class is cleared: within
    /// `ObjectImages.maximumBytes`, beyond which the commit's before-images are incomplete.
    func recordOldClass(_ table: Table) throws(StorageError) {
        guard try needsImage(table) else { return }
        oldValues.clearsClasses = true
        let rows = self.rows.scan(table)
        try oldValues.recordClearedRows(of: table.name, expected: try self.rows.count(table)) { (record) throws(StorageError) in
            while let (key, row) = try rows.next(), record(key, row.bytes) {}
        }
        for property in table.listProperties {
            for owner in try lists.owners(table, property) where oldValues.isComplete {
                try recordWholeList(table, property, owner: owner)
            }
        }
    }

    /// Records every list `property` of `table` before the lists are emptied at once.
    func recordOldLists(_ table: Table, _ property: PropertySchema) throws(StorageError) {
        guard try needsImage(table) else { return }
        for owner in try lists.owners(table, property) where oldValues.isComplete {
            try recordWholeList(table, property, owner: owner)
        }
    }

    /// The before-images this commit stores in its history entry: nil when old values are off
    /// and the commit recorded none.
    func oldValuesForEntry() throws(StorageError) -> ObjectImages? {
        guard try recordsOldValues() else { return nil }
        return oldValues.kept(for: changes)
    }
}

extension MetaStore {
    /// Whether commits record before-images in their history entries (meta `oldValues`:
    /// u64 LE, 0 off; absent or 1 on).
    package var recordsOldValues: Bool {
        get throws(StorageError) {
            let stored: UInt64? = try integer(MetaKeys.oldValues, "Reading the history settings of '\(transaction.file.path)'")
            return stored != 0
        }
    }

    /// Stores whether commits record before-images (committed with the rest of this write).
    package func setRecordsOldValues(_ on: Bool) throws(StorageError) {
        try setInteger(MetaKeys.oldValues, UInt64(on ? 1 : 0), "Writing the history settings of '\(transaction.file.path)'")
        transaction.oldValuesEnabled = on
        if !on { transaction.oldValues.giveUp() }
    }
}

extension MetaKeys {
    /// u64 LE: 0 when commits record no before-images (absent or 1: they do).
    static let oldValues = "oldValues"
}
