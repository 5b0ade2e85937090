import LMDB

/// The list properties of every class in one transaction (docs/FILE-FORMAT.md, "Lists"):
/// each list property has its own database holding, per owner object, a directory and chunks
/// of at most 256 elements (ListEncoding), and for a long list directory nodes. Reading
/// element i reads the directory, a long list's node and one chunk; inserting or removing
/// rewrites one chunk, a long list's node, and the directory. A write keeps the
/// backlinks of a list of objects (`LinkStore`) and records the owner as modified.
package struct ListStore {
    @usableFromInline let transaction: StorageTransaction

    @usableFromInline init(_ transaction: StorageTransaction) { self.transaction = transaction }

    /// Number of elements in `owner`'s list `property`.
    package func count(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) -> Int {
        try read(table, property, key: Self.key(owner)) { (bytes) throws(StorageError) in
            guard let bytes else {
                try checkMissingDirectory(table, property, owner: owner)
                return 0
            }
            guard let total = ListEncoding.Directory.total(in: bytes) else { throw damagedList(table, property, owner) }
            return total
        }
    }

    /// Element `index` of `owner`'s list `property`: reads the directory, the node holding
    /// the element when the directory is nested, and one chunk, and decodes only that element.
    package func value(_ table: Table, _ property: PropertySchema, owner: ObjectKey, at index: Int) throws(StorageError) -> Value {
        let found = try read(table, property, key: Self.key(owner)) { (bytes) throws(StorageError) -> (total: Int, isNested: Bool, entry: UInt32, offset: Int)? in
            guard let bytes else {
                try checkMissingDirectory(table, property, owner: owner)
                return nil
            }
            guard let found = ListEncoding.Directory.find(index, in: bytes) else { throw damagedList(table, property, owner) }
            return found
        }
        guard var found, index >= 0, index < found.total else {
            throw StorageError(.invalidInput, "Index \(index) is out of bounds (the list has \(found?.total ?? 0) elements)")
        }
        if found.isNested {
            (found.entry, found.offset) = try read(table, property, key: Self.key(owner, chunk: found.entry)) { (bytes) throws(StorageError) in
                guard let bytes, let place = ListEncoding.Node.find(found.offset, in: bytes) else { throw damagedList(table, property, owner) }
                return place
            }
        }
        return try element(table, property, owner, chunk: found.entry, at: found.offset)
    }

    /// Element `offset` of chunk `id` of `owner`'s list `property`, decoding only it.
    private func element(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, chunk id: UInt32, at offset: Int) throws(StorageError) -> Value {
        try read(table, property, key: Self.key(owner, chunk: id)) { (bytes) throws(StorageError) in
            guard let bytes, let element = ListEncoding.element(at: offset, in: bytes) else { throw damagedList(table, property, owner) }
            return element.map { ValueCodec.decode($0, as: property.type) } ?? .null
        }
    }

    /// Every element of `owner`'s list `property`, in order.
    package func values(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) -> [Value] {
        let (dir, chunks, _) = try layout(table, property, owner)
        var values: [Value] = []
        values.reserveCapacity(dir.total)
        let type = property.type
        for c in chunks {
            // Decoded in place from the chunk's bytes: no copy of each element first.
            try read(table, property, key: Self.key(owner, chunk: c.id)) { (bytes) throws(StorageError) in
                let whole = bytes.map { ListEncoding.forEachElement(in: $0) { values.append($0.map { ValueCodec.decode($0, as: type) } ?? .null) } }
                guard whole == true else { throw damagedList(table, property, owner) }
            }
        }
        return values
    }

    /// Inserts `values` at `index` (0...count; nil: at the end, with no count read first) of
    /// `owner`'s list `property`; into a set, the values not yet members each go to their
    /// place in value order and `index` is not used.
    package func insert(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ values: [Value], at index: Int?) throws(StorageError) {
        if property.isSet {
            for v in values { try insertMember(table, property, owner: owner, v) }
            return
        }
        try insertElements(table, property, owner: owner, values, at: index)
    }

    /// Inserts `values` at `index` (0...count; nil: at the end), as they are.
    func insertElements(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ values: [Value], at index: Int?) throws(StorageError) {
        if values.isEmpty { return }
        for v in values { try checkListValue(table, property, v) }
        try transaction.objects.claimEmbedded(table, property, values)
        var run = try run(table, property, owner, at: index, orEnd: true)
        let index = index ?? run.directory.total
        let new = values.map { ListEncoding.element($0, of: property.type) }
        let wasEmpty = run.directory.total == 0
        if run.chunks.isEmpty {
            try writeRuns(table, property, owner, &run, at: 0, elements: ListEncoding.runs(new))
        } else {
            guard let (c, offset) = run.locate(index) else { throw damagedList(table, property, owner) }
            _ = try splice(table, property, owner, &run, c, at: offset, removing: 0, inserting: new)
        }
        try store(table, property, owner, run, adding: values.count)
        if wasEmpty { try mark(table, property, owner: owner, nonEmpty: true) }
        for v in values { try transaction.links.changeOccurrences(of: v, table, property, in: owner, by: 1) }
        try recordModified(table, owner, property)
    }

    /// Removes element `index` of `owner`'s list `property` and returns it (deleting it if it
    /// is an embedded object).
    @discardableResult
    package func remove(_ table: Table, _ property: PropertySchema, owner: ObjectKey, at index: Int) throws(StorageError) -> Value {
        let removed = try removeElement(table, property, owner: owner, at: index)
        try transaction.objects.releaseEmbedded(table, property, CollectionOfOne(removed))
        return removed
    }

    /// Moves element `from` of `owner`'s list `property` to `to`; an embedded object stays.
    package func move(_ table: Table, _ property: PropertySchema, owner: ObjectKey, from: Int, to: Int) throws(StorageError) {
        try insertElements(table, property, owner: owner, [try removeElement(table, property, owner: owner, at: from)], at: to)
    }

    /// Exchanges elements `i` and `j` of `owner`'s list `property`; embedded objects stay.
    package func swapAt(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ i: Int, _ j: Int) throws(StorageError) {
        let a = try value(table, property, owner: owner, at: i), b = try value(table, property, owner: owner, at: j)
        try replaceElement(table, property, owner: owner, at: i, with: b, owning: false)
        try replaceElement(table, property, owner: owner, at: j, with: a, owning: false)
    }

    /// Removes element `index` and returns it, as it is.
    private func removeElement(_ table: Table, _ property: PropertySchema, owner: ObjectKey, at index: Int) throws(StorageError) -> Value {
        var run = try run(table, property, owner, at: index)
        guard let (c, offset) = run.locate(index) else { throw damagedList(table, property, owner) }
        let removed = decode(try splice(table, property, owner, &run, c, at: offset, removing: 1, inserting: [])[0], property)
        try store(table, property, owner, run, adding: -1)
        if run.directory.total == 1 { try mark(table, property, owner: owner, nonEmpty: false) }  // the last one
        try transaction.links.changeOccurrences(of: removed, table, property, in: owner, by: -1)
        try recordModified(table, owner, property)
        return removed
    }

    /// Replaces element `index` of `owner`'s list `property` with `value` (deleting the old
    /// element if it is an embedded object).
    package func replace(_ table: Table, _ property: PropertySchema, owner: ObjectKey, at index: Int, with value: Value) throws(StorageError) {
        try replaceElement(table, property, owner: owner, at: index, with: value, owning: true)
    }

    /// Replaces element `index` with `value`; when `owning`, an embedded object put in must be
    /// free (the one already there is not: putting it back is refused, as RealmSwift refuses
    /// it) and the one taken out is deleted.
    private func replaceElement(_ table: Table, _ property: PropertySchema, owner: ObjectKey, at index: Int, with value: Value,
                                owning: Bool) throws(StorageError) {
        try checkListValue(table, property, value)
        var run = try run(table, property, owner, at: index)
        guard let (c, offset) = run.locate(index) else { throw damagedList(table, property, owner) }
        let old = try element(table, property, owner, chunk: run.chunks[c].id, at: offset)
        if owning { try transaction.objects.claimEmbedded(table, property, CollectionOfOne(value)) }
        _ = try splice(table, property, owner, &run, c, at: offset, removing: 1, inserting: [ListEncoding.element(value, of: property.type)])
        try store(table, property, owner, run, adding: 0)
        try transaction.links.changeOccurrences(of: old, table, property, in: owner, by: -1)
        try transaction.links.changeOccurrences(of: value, table, property, in: owner, by: 1)
        try recordModified(table, owner, property)
        if owning && old != value { try transaction.objects.releaseEmbedded(table, property, CollectionOfOne(old)) }
    }

    /// Empties `owner`'s list `property` (deleting the embedded objects it held; a map loses
    /// its keys too). `ownerStays` is false when the owner is deleted next, whose row then
    /// need not record that the list is empty.
    package func removeAll(_ table: Table, _ property: PropertySchema, owner: ObjectKey, ownerStays: Bool = true) throws(StorageError) {
        let removed = try removeElements(table, property, owner: owner, marking: ownerStays)
        try transaction.objects.releaseEmbedded(table, property, removed)
    }

    /// Empties `owner`'s list `property` and returns the objects it held (none for a list of
    /// values; every element for a list of mixed values), without deleting the embedded ones;
    /// when `marking`, the owner's row records that the list is empty.
    private func removeElements(_ table: Table, _ property: PropertySchema, owner: ObjectKey, marking: Bool) throws(StorageError) -> [Value] {
        let (dir, chunks, nodes) = try layout(table, property, owner)
        if dir.total == 0 { return [] }
        let removed = property.canHoldLinks ? try values(table, property, owner: owner) : []
        for v in removed { try transaction.links.changeOccurrences(of: v, table, property, in: owner, by: -1) }
        try deleteEntries(table, property, owner, nodes: nodes, chunks: chunks)
        if property.isMap { try deleteEntry(table, property, key: Self.mapKeysKey(owner)) }
        if marking { try mark(table, property, owner: owner, nonEmpty: false) }
        try recordModified(table, owner, property)
        return removed
    }

    /// Replaces the elements of `owner`'s list `property` with `values` (backlinks follow);
    /// the embedded objects it held and `values` does not are deleted.
    package func rewrite(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ values: [Value]) throws(StorageError) {
        // Links are checked before the list changes: an element it holds whose row is gone is
        // damage, not a link asked for to nothing.
        if property.type == .link {
            for value in values {
                do throws(StorageError) {
                    try transaction.objects.checkLinkTarget(table, property, value)
                } catch where error.code == .invalidInput {
                    if try self.values(table, property, owner: owner).contains(value) { throw damagedList(table, property, owner) }
                    throw error
                }
            }
        }
        // The row records the list as empty in between, or the refill would read it as hidden.
        let removed = try removeElements(table, property, owner: owner, marking: true)
        try insert(table, property, owner: owner, values, at: 0)
        try transaction.objects.releaseEmbedded(table, property, removed.filter { !values.contains($0) })
    }

    /// Records `owner`'s list `property` as modified, and the owners of `owner` when it is an
    /// embedded object.
    private func recordModified(_ table: Table, _ owner: ObjectKey, _ property: PropertySchema) throws(StorageError) {
        transaction.record(table) { $0.recordModify(owner, property: property.id) }
        if table.schema.isEmbedded { try transaction.objects.recordOwnersModified(table, owner) }
    }

    /// The owners that have a non-empty list `property`, in key order.
    func owners(_ table: Table, _ property: PropertySchema) throws(StorageError) -> [ObjectKey] {
        guard let db = table.lists[property.id] else { return [] }
        let txn = transaction.lmdb
        var owners: [ObjectKey] = []
        try StorageError.translating("Reading the lists of '\(table.name).\(property.name)'") {
            try txn.withCursor(db) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    if e.key.count == 8 { owners.append(try ObjectKeyCoding.decode(e.key)) }
                    entry = try cursor.next()
                }
            }
        }
        return owners
    }

    /// Empties every list `property` of the class and its backlinks, recording each owner
    /// as modified and its list as empty.
    func removeAll(_ table: Table, _ property: PropertySchema) throws(StorageError) {
        let owners = try owners(table, property)
        guard let db = table.lists[property.id] else { return }
        try transaction.recordOldLists(table, property)
        if property.type == .mixed {
            for owner in owners {
                for v in try values(table, property, owner: owner) { try transaction.links.changeOccurrences(of: v, table, property, in: owner, by: -1) }
            }
        }
        let txn = transaction.lmdb
        try StorageError.translating("Clearing the lists of '\(table.name).\(property.name)'") { try txn.empty(db) }
        try transaction.links.removeAll(table, property)
        for owner in owners { try mark(table, property, owner: owner, nonEmpty: false) }
        transaction.record(table) { c in for owner in owners { c.recordModify(owner, property: property.id) } }
    }
}

extension StorageTransaction {
    /// The list properties of this transaction's objects.
    @inlinable package var lists: ListStore { ListStore(self) }
}
