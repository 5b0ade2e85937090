import LMDB

/// The largest string or data value, in bytes.
package let maximumValueSize = 16 << 20

/// The writes of whole objects in one write transaction, each across the stores it touches:
/// an insert writes the row, its index entries and backlinks and records the change; a
/// delete first nullifies the links and list elements that point at the object, then removes
/// its lists, backlinks, index entries and row.
package struct ObjectWrites {
    @usableFromInline let transaction: StorageTransaction

    @usableFromInline init(_ transaction: StorageTransaction) { self.transaction = transaction }

    /// Inserts a new object from `values` (indexed by property id) and returns its key.
    /// Throws `.invalidInput` for a duplicate primary key or an oversized value.
    package func insert(_ table: Table, values: [Value]) throws(StorageError) -> ObjectKey {
        for i in values.indices { try Self.checkSize(table, values[i]) }
        for link in table.links { try checkLinkTarget(table, link, values[link.id]) }
        for p in table.mixedProperties { try checkMixedValue(table, p, values[p.id]) }
        for link in table.embeddedRelationships where link.isToOneLink { try claimEmbedded(table, link, CollectionOfOne(values[link.id])) }
        let key = try newKey(table, values)
        let append = key > (try transaction.rows.lastKey(table))
        var k = ObjectKeyCoding.encode(key)
        let txn = transaction.lmdb
        let crypto = transaction.crypto
        try StorageError.translating("Inserting into '\(table.name)'") {
            do {
                try withUnsafeBytes(of: &k) { kb in
                    try RowEncoder.withEncoded(values, table.mixedSlots, seal: transaction.rowSeal(table, key)) { row in
                        let flags: PutFlags = append ? .append : .noOverwrite
                        if let crypto {
                            try crypto.seal(table.rowsName, key: kb, row).withUnsafeBytes { try txn.put(table.rows, key: kb, value: $0, flags: flags) }
                        } else {
                            try txn.put(table.rows, key: kb, value: row, flags: flags)
                        }
                    }
                }
            } catch let e as LMDBError where e == .keyExists {
                throw duplicatePrimaryKey(table, values)
            }
        }
        if append { transaction.keys.last[table.name] = key }
        for property in table.indexedProperties {
            try transaction.indexes.add(table, property, values[property.id], key)
        }
        for link in table.links {
            if case .link(let target) = values[link.id] { try transaction.links.add(table, link, target: target, origin: key) }
        }
        for p in table.mixedProperties { try transaction.links.changeOccurrences(of: values[p.id], table, p, in: key, by: 1) }
        transaction.record(table) { $0.recordInsert(key) }
        return key
    }

    /// Sets properties of object `key`. Index entries follow; unchanged values are skipped
    /// when `onlyIfDifferent` (RealmSwift's `.modified` policy). `current` is the object's row
    /// when the caller read it in this transaction after its last write (so it is still
    /// valid), which saves reading it again.
    package func update(_ table: Table, _ key: ObjectKey, _ changes: [(PropertySchema, Value)],
                        onlyIfDifferent: Bool = false, current: RowView? = nil) throws(StorageError) {
        let old = try currentRow(table, key, current)
        // The new values by property id: a short list (usually one), searched linearly, sorted
        // by id for the encoder.
        var gathered: [(id: Int, value: Value)] = []
        gathered.reserveCapacity(changes.count)
        for (property, value) in changes {
            try checkPrimaryKey(table, property, old, value)
            if onlyIfDifferent, old.value(property) == value { continue }
            if let i = gathered.firstIndex(where: { $0.id == property.id }) {
                gathered[i].value = value
            } else {
                gathered.append((property.id, value))
            }
        }
        if gathered.isEmpty { return }
        try write(table, key, old, gathered.count > 1 ? gathered.sorted { $0.id < $1.id } : gathered)
    }

    /// Sets property `property` of object `key` (a setter's write: `update` with no list of
    /// changes made).
    package func update(_ table: Table, _ key: ObjectKey, _ property: PropertySchema, to value: Value,
                        current: RowView? = nil) throws(StorageError) {
        let old = try currentRow(table, key, current)
        try checkPrimaryKey(table, property, old, value)
        try write(table, key, old, CollectionOfOne((id: property.id, value: value)))
    }

    /// The row of object `key`: `current` when given, else read; throws if it was deleted.
    private func currentRow(_ table: Table, _ key: ObjectKey, _ current: RowView?) throws(StorageError) -> RowView {
        let row = if let current { current } else { try transaction.rows.read(table, key) }
        guard let row else {
            throw StorageError(.invalidInput, "The '\(table.name)' object was deleted")
        }
        return row
    }

    /// Throws when `value` would change primary key `property` of the object whose row is `old`.
    private func checkPrimaryKey(_ table: Table, _ property: PropertySchema, _ old: RowView, _ value: Value) throws(StorageError) {
        if property.isPrimaryKey, old.value(property) != value {
            throw StorageError(.invalidInput, "Primary key can't be changed after an object is inserted: '\(table.name).\(property.name)'")
        }
    }

    /// Writes object `key`'s row `old` with the values `newValues` (by ascending property id,
    /// each once), then its index entries, backlinks and the change.
    private func write<Changes: RandomAccessCollection<(id: Int, value: Value)>>(
        _ table: Table, _ key: ObjectKey, _ old: RowView, _ newValues: Changes
    ) throws(StorageError) where Changes.Index == Int {
        try transaction.recordOldRow(table, key, old)
        func newValue(_ id: Int) -> Value? { newValues.first { $0.id == id }?.value }
        for change in newValues { try Self.checkSize(table, change.value) }
        var remixed: [(PropertySchema, old: Value, new: Value)] = []
        for p in table.mixedProperties {
            guard let new = newValue(p.id) else { continue }
            try checkMixedValue(table, p, new)
            let oldValue = old.value(p)
            if oldValue != new { remixed.append((p, oldValue, new)) }
        }
        var relinked: [(PropertySchema, old: Value, new: Value)] = []
        for link in table.links {
            guard let new = newValue(link.id) else { continue }
            try checkLinkTarget(table, link, new)
            let oldValue = old.value(link)
            if oldValue != new { try claimEmbedded(table, link, CollectionOfOne(new)) }
            relinked.append((link, oldValue, new))
        }
        let slotCount = max(table.slotCount, newValues.reduce(0) { max($0, $1.id) } + 1)
        var oldIndexed: [(PropertySchema, Value)] = []
        for property in table.indexedProperties where newValue(property.id) != nil {
            oldIndexed.append((property, old.value(property)))
        }
        var k = ObjectKeyCoding.encode(key)
        let txn = transaction.lmdb
        try StorageError.translating("Updating '\(table.name)'") {
            try withUnsafeBytes(of: &k) { kb in
                // The row is copied before the put, which may move the page it lies in.
                let crypto = transaction.crypto
                func put(_ row: UnsafeRawBufferPointer) throws {
                    if let crypto {
                        try crypto.seal(table.rowsName, key: kb, row).withUnsafeBytes { try txn.put(table.rows, key: kb, value: $0) }
                    } else {
                        try txn.put(table.rows, key: kb, value: row)
                    }
                }
                let seal = transaction.rowSeal(table, key)
                if slotCount == old.slotCount, try RowEncoder.withPatched(old, replacing: newValues, table.mixedSlots, seal: seal, put) != nil { return }
                try RowEncoder.withEncoded(slotCount: slotCount, in: old, replacing: newValues, table.mixedSlots, seal: seal, put)
            }
        }
        for (property, oldValue) in oldIndexed {
            try transaction.indexes.remove(table, property, oldValue, key)
            try transaction.indexes.add(table, property, newValue(property.id)!, key)
        }
        for (link, oldValue, newValue) in relinked where oldValue != newValue {
            if case .link(let target) = oldValue { try transaction.links.remove(table, link, target: target, origin: key) }
            if case .link(let target) = newValue { try transaction.links.add(table, link, target: target, origin: key) }
        }
        for (p, oldValue, newValue) in remixed {
            try transaction.links.changeOccurrences(of: oldValue, table, p, in: key, by: -1)
            try transaction.links.changeOccurrences(of: newValue, table, p, in: key, by: 1)
        }
        transaction.record(table) { c in for (id, _) in newValues { c.recordModify(key, property: id) } }
        for (link, oldValue, newValue) in relinked where oldValue != newValue { try releaseEmbedded(table, link, CollectionOfOne(oldValue)) }
        if table.schema.isEmbedded { try recordOwnersModified(table, key) }
    }

    /// Deletes object `key` and its index entries. Returns false if it did not exist.
    @discardableResult
    package func delete(_ table: Table, _ key: ObjectKey) throws(StorageError) -> Bool {
        guard let row = try transaction.rows.read(table, key) else { return false }
        try transaction.recordOldRow(table, key, row)
        try unlinkIncoming(table, key)
        try unlistIncoming(table, key)
        try clearTypedLinks(to: table, key)
        for list in table.listProperties { try transaction.lists.removeAll(table, list, owner: key, ownerStays: false) }
        guard let old = try transaction.rows.read(table, key) else { return false }
        for link in table.links {
            if case .link(let target) = old.value(link) { try transaction.links.remove(table, link, target: target, origin: key) }
        }
        for p in table.mixedProperties { try transaction.links.changeOccurrences(of: old.value(p), table, p, in: key, by: -1) }
        for link in table.embeddedRelationships where link.isToOneLink { try releaseEmbedded(table, link, CollectionOfOne(old.value(link))) }
        var indexed: [(PropertySchema, Value)] = []
        for property in table.indexedProperties {
            indexed.append((property, old.value(property)))
        }
        try transaction.rows.remove(table, key)
        for (property, value) in indexed { try transaction.indexes.remove(table, property, value, key) }
        transaction.record(table) { $0.recordDelete(key) }
        return true
    }

    /// Deletes every object of the class in one step (`mdb_drop` of its databases), recorded
    /// in history as one "cleared" change rather than a key per object.
    package func deleteAll(_ table: Table) throws(StorageError) {
        try transaction.recordOldClass(table)
        try deleteAllOwned(table)
        try unlinkAllIncoming(table)
        try unlistAllIncoming(table)
        try clearAllTypedLinks(to: table)
        try forgetTypedLinks(from: table)
        try transaction.rows.removeAll(table)
        transaction.keys.last[table.name] = 0
        transaction.record(table) { $0.recordClear() }
    }

    /// Throws unless a mixed value's link is typed and names an existing object of a class
    /// that is not embedded (RealmSwift keeps embedded objects out of mixed values).
    func checkMixedValue(_ table: Table, _ property: PropertySchema, _ value: Value) throws(StorageError) {
        switch value {
        case .link:
            throw StorageError(.invalidInput, "'\(table.name).\(property.name)' is mixed: a link it holds must name its class")
        case .typedLink(let className, let key):
            guard let target = try transaction.table(className) else {
                throw StorageError(.invalidInput, "'\(table.name).\(property.name)' cannot hold a '\(className)' object: the file has no such class")
            }
            if target.schema.isEmbedded {
                throw StorageError(.invalidInput, "'\(table.name).\(property.name)' cannot hold an embedded '\(className)' object: a mixed value holds only objects that are not embedded")
            }
            if try transaction.rows.read(target, key) == nil {
                throw StorageError(.invalidInput, "'\(table.name).\(property.name)' cannot hold '\(className)' object \(key): it does not exist")
            }
        default: return
        }
    }

    /// Throws `.invalidInput` when `value` is a string or data value over `maximumValueSize`.
    @inline(__always)
    static func checkSize(_ table: Table, _ value: Value) throws(StorageError) {
        let size: Int
        switch value {
        case .string(let s): size = s.utf8.count
        case .data(let d): size = d.count
        default: return
        }
        if size > maximumValueSize { throw oversized(table, size) }
    }

    /// The error for a value of `size` bytes over `maximumValueSize`.
    private static func oversized(_ table: Table, _ size: Int) -> StorageError {
        StorageError(.invalidInput, "A value of \(size) bytes for '\(table.name)' is over the \(maximumValueSize >> 20) MiB limit for strings and data")
    }

    /// Throws unless `value` is null or the key of an existing object of the link's target
    /// class: `.invalidInput`, or `.invalidDatabase` when the object's row is gone but the
    /// file still refers to it (a list being rewritten holds it, and its row was damaged).
    func checkLinkTarget(_ origin: Table, _ property: PropertySchema, _ value: Value) throws(StorageError) {
        guard case .link(let key) = value else { return }
        if let name = property.linkTarget, let target = try transaction.table(name) {
            if try transaction.rows.read(target, key) != nil { return }
            if try transaction.rows.isKnownWithoutRow(target, key) { throw transaction.rows.damaged(target, key) }
        }
        throw StorageError(.invalidInput, "'\(origin.name).\(property.name)' cannot link to \(property.linkTarget ?? "?") object \(key): it does not exist")
    }

    /// The key of a new object: its integer primary key when keys are primary keys, otherwise
    /// the class's next key. Throws for a primary key that is too long or already taken.
    private func newKey(_ table: Table, _ values: [Value]) throws(StorageError) -> ObjectKey {
        if let pk = table.primaryKey, !IndexKey.isExact(values[pk.id]) {
            throw StorageError(.invalidInput, "The primary key of a '\(table.name)' object is \(IndexKey.maxLength - 1) bytes or longer; primary keys must be shorter")
        }
        if table.keysArePrimaryKeys, let pk = table.primaryKey, case .int(let i) = values[pk.id] {
            return ObjectKeyCoding.key(forIntegerPrimaryKey: i)
        }
        if let pk = table.primaryKey, try !transaction.indexes.lookup(table, pk, equalTo: values[pk.id]).isEmpty {
            throw duplicatePrimaryKey(table, values)
        }
        let next: UInt64
        if let n = transaction.keys.next[table.name] {
            next = n
        } else {
            next = max(try transaction.meta.storedNextKey(table.name) ?? 1, try transaction.rows.lastKey(table) &+ 1)
        }
        transaction.keys.next[table.name] = next + 1
        return next
    }

    private func duplicatePrimaryKey(_ table: Table, _ values: [Value]) -> StorageError {
        let pk = table.primaryKey!
        return StorageError(.invalidInput, "Attempting to create an object of type '\(table.name)' with an existing primary key value '\(describe(values[pk.id]))'")
    }
}

extension StorageTransaction {
    /// The writes of whole objects, across the stores.
    @inlinable package var objects: ObjectWrites { ObjectWrites(self) }
}
