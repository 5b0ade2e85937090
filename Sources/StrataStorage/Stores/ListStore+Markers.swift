/// The owner's record of whether a list is empty (docs/FILE-FORMAT.md, "List markers"): in a
/// format 3 file, a list property's slot in its owner's row holds one byte, 1 once the list
/// has elements and 0 once it is emptied. The row is rewritten only when the list goes from
/// empty to non-empty or back, so appends and edits do not touch it. A list whose directory
/// is missing while its owner's row says it has elements was hidden by damage: reading it is
/// an error, never an empty list. A null or absent slot (a row written before markers, or a
/// list not written since) says nothing, and the list reads as its directory says.
extension ListStore {
    /// What `row` records about its list `property`: true for non-empty, false for empty, nil
    /// when it records nothing.
    static func marker(_ row: RowView, _ property: PropertySchema) -> Bool? {
        guard row.hasSlot(property.id), !row.isNull(property.id) else { return nil }
        let bytes = row.slotBytes(property.id)
        guard bytes.count == 1, bytes[0] <= 1 else { return nil }
        return bytes[0] == 1
    }

    /// What `owner`'s row records about its list `property` (nil when it has no row or
    /// records nothing).
    func marker(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) -> Bool? {
        try transaction.rows.read(table, owner).flatMap { Self.marker($0, property) }
    }

    /// Records in `owner`'s row that its list `property` is (non-)empty, rewriting the row
    /// only when it says otherwise (a row that records nothing is left so for an empty list).
    /// The row's before-image is kept as for any other change of the row, so undoing the
    /// commit restores the marker with the list.
    /// Nothing in a file whose records are not sealed (format 2 or earlier), which the Strata
    /// that wrote it may still change.
    func mark(_ table: Table, _ property: PropertySchema, owner: ObjectKey, nonEmpty: Bool) throws(StorageError) {
        guard transaction.seals, let row = try transaction.rows.read(table, owner) else { return }
        let recorded = Self.marker(row, property)
        guard nonEmpty ? recorded != true : recorded == true else { return }
        let slotCount = max(row.slotCount, table.slotCount)
        let bytes = RowEncoder.encode(slotCount: slotCount, in: row, replacing: [(property.id, .bool(nonEmpty))], table.mixedSlots)
        try transaction.recordOldRow(table, owner, row)
        try transaction.rows.put(table, owner, bytes)
    }

    /// Throws when `owner`'s list `property`, whose directory is missing, is recorded in its
    /// row as non-empty: damage hid its entries.
    func checkMissingDirectory(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) {
        guard try marker(table, property, owner: owner) == true else { return }
        let path = transaction.file.path
        let kind = property.isMap ? "map" : property.isSet ? "set" : "list"
        throw StorageError(.invalidDatabase, "'\(path)' is damaged: the \(kind) '\(table.name).\(property.name)' of object \(owner) has elements, as its row records, but its entries cannot be found; run `strata check \(path)`")
    }
}
