import Foundation
import LMDB

/// The largest string or data value, in bytes.
package let maximumValueSize = 16 << 20

extension StorageTransaction {
    /// The row of object `key`, or nil if there is none.
    @inline(__always)
    package func row(_ table: Table, _ key: ObjectKey) throws -> RowView? {
        var k = ObjectKeyCoding.encode(key)
        let bytes = try lmdbCall("Reading '\(table.name)'") {
            try withUnsafeBytes(of: &k) { try lmdb.get(table.rows, key: $0) }
        }
        guard let bytes else { return nil }
        guard let row = RowView(bytes) else { throw damagedRow(table, key) }
        return row
    }

    func damagedRow(_ table: Table, _ key: ObjectKey) -> StorageError {
        StorageError(.invalidDatabase, "'\(file.path)' is damaged: the row of '\(table.name)' object \(key) cannot be read")
    }

    /// The key of the object whose primary key is `value`, or nil.
    package func objectKey(_ table: Table, primaryKey value: Value) throws -> ObjectKey? {
        guard let pk = table.primaryKey else { return nil }
        if table.keysArePrimaryKeys {
            guard case .int(let i) = value else { return nil }
            let key = ObjectKeyCoding.key(forIntegerPrimaryKey: i)
            return try row(table, key) == nil ? nil : key
        }
        return try lookup(table, pk, equalTo: value).first
    }

    /// Inserts a new object from `values` (indexed by property id) and returns its key.
    /// Throws `.invalidInput` for a duplicate primary key or an oversized value.
    package func insert(_ table: Table, values: [Value]) throws -> ObjectKey {
        try checkSizes(table, values)
        for link in table.links { try checkLinkTarget(table, link, values[link.id]) }
        let key = try newKey(table, values)
        let row = RowEncoder.encode(values)
        let append = key > (try lastKey(table))
        try lmdbCall("Inserting into '\(table.name)'") {
            var k = ObjectKeyCoding.encode(key)
            do {
                try withUnsafeBytes(of: &k) { kb in
                    try row.withUnsafeBytes { try lmdb.put(table.rows, key: kb, value: $0, flags: append ? .append : .noOverwrite) }
                }
            } catch let e as LMDBError where e == .keyExists {
                throw duplicatePrimaryKey(table, values)
            }
        }
        if append { lastKeys[table.name] = key }
        for property in table.indexedProperties {
            try addIndexEntry(table, property, values[property.id], key)
        }
        for link in table.links {
            if case .link(let target) = values[link.id] { try addBacklink(table, link, target: target, origin: key) }
        }
        record(table) { $0.recordInsert(key) }
        return key
    }

    /// Sets properties of object `key`. Index entries follow; unchanged values are skipped
    /// when `onlyIfDifferent` (RealmSwift's `.modified` policy). `current` is the object's row
    /// when the caller read it in this transaction after its last write (so it is still
    /// valid), which saves reading it again.
    package func update(_ table: Table, _ key: ObjectKey, _ changes: [(PropertySchema, Value)],
                        onlyIfDifferent: Bool = false, current: RowView? = nil) throws {
        guard let old = try current ?? row(table, key) else {
            throw StorageError(.invalidInput, "The '\(table.name)' object was deleted")
        }
        // The new values by property id: a short list (usually one), searched linearly, sorted
        // by id for the encoder.
        var newValues: [(id: Int, value: Value)] = []
        newValues.reserveCapacity(changes.count)
        for (property, value) in changes {
            if property.isPrimaryKey, old.value(property) != value {
                throw StorageError(.invalidInput, "Primary key '\(table.name).\(property.name)' cannot be changed once the object is added")
            }
            if onlyIfDifferent, old.value(property) == value { continue }
            if let i = newValues.firstIndex(where: { $0.id == property.id }) {
                newValues[i].value = value
            } else {
                newValues.append((property.id, value))
            }
        }
        if newValues.isEmpty { return }
        func newValue(_ id: Int) -> Value? { newValues.first { $0.id == id }?.value }
        try checkSizes(table, newValues.lazy.map(\.value))
        var relinked: [(PropertySchema, old: Value, new: Value)] = []
        for link in table.links {
            guard let new = newValue(link.id) else { continue }
            try checkLinkTarget(table, link, new)
            relinked.append((link, old.value(link), new))
        }
        let slotCount = max(table.slotCount, newValues.reduce(0) { max($0, $1.id) } + 1)
        var oldIndexed: [(PropertySchema, Value)] = []
        for (property, _) in changes where table.indexes[property.id] != nil && newValue(property.id) != nil {
            oldIndexed.append((property, old.value(property)))
        }
        newValues.sort { $0.id < $1.id }
        try lmdbCall("Updating '\(table.name)'") {
            var k = ObjectKeyCoding.encode(key)
            try withUnsafeBytes(of: &k) { kb in
                // The row is copied before the put, which may move the page it lies in.
                let put = { (row: UnsafeRawBufferPointer) in try self.lmdb.put(table.rows, key: kb, value: row) }
                if slotCount == old.slotCount, try RowEncoder.withPatched(old, replacing: newValues, put) != nil { return }
                try RowEncoder.encode(slotCount: slotCount, in: old, replacing: newValues).withUnsafeBytes(put)
            }
        }
        for (property, oldValue) in oldIndexed {
            try removeIndexEntry(table, property, oldValue, key)
            try addIndexEntry(table, property, newValue(property.id)!, key)
        }
        for (link, oldValue, newValue) in relinked where oldValue != newValue {
            if case .link(let target) = oldValue { try removeBacklink(table, link, target: target, origin: key) }
            if case .link(let target) = newValue { try addBacklink(table, link, target: target, origin: key) }
        }
        record(table) { c in for (id, _) in newValues { c.recordModify(key, property: id) } }
    }

    /// Deletes object `key` and its index entries. Returns false if it did not exist.
    @discardableResult
    package func delete(_ table: Table, _ key: ObjectKey) throws -> Bool {
        guard try row(table, key) != nil else { return false }
        try unlinkIncoming(table, key)
        try unlistIncoming(table, key)
        for list in table.listProperties { try listRemoveAll(table, list, owner: key) }
        guard let old = try row(table, key) else { return false }
        for link in table.links {
            if case .link(let target) = old.value(link) { try removeBacklink(table, link, target: target, origin: key) }
        }
        var indexed: [(PropertySchema, Value)] = []
        for property in table.indexedProperties {
            indexed.append((property, old.value(property)))
        }
        try lmdbCall("Deleting from '\(table.name)'") {
            var k = ObjectKeyCoding.encode(key)
            _ = try withUnsafeBytes(of: &k) { try lmdb.delete(table.rows, key: $0) }
        }
        for (property, value) in indexed { try removeIndexEntry(table, property, value, key) }
        record(table) { $0.recordDelete(key) }
        return true
    }

    /// Deletes every object of the class in one step (`mdb_drop` of its databases), recorded
    /// in history as one "cleared" change rather than a key per object.
    package func deleteAll(_ table: Table) throws {
        try unlinkAllIncoming(table)
        try unlistAllIncoming(table)
        try lmdbCall("Clearing '\(table.name)'") {
            try lmdb.empty(table.rows)
            for db in table.indexes.values { try lmdb.empty(db) }
            for db in table.backlinks.values { try lmdb.empty(db) }
            for db in table.lists.values { try lmdb.empty(db) }
        }
        lastKeys[table.name] = 0
        record(table) { $0.recordClear() }
    }

    /// Number of objects of the class.
    package func count(_ table: Table) throws -> Int {
        try lmdbCall("Counting '\(table.name)'") { try lmdb.count(table.rows) }
    }

    /// Calls `body` with each object's key and row, in key order, until it returns false.
    package func forEachRow(_ table: Table, _ body: (ObjectKey, RowView) throws -> Bool) throws {
        try lmdbCall("Scanning '\(table.name)'") {
            try lmdb.withCursor(table.rows) { cursor in
                try cursor.forEach { k, v in
                    guard k.count == 8 else { throw damagedRow(table, 0) }
                    let key = ObjectKeyCoding.decode(k)
                    guard let row = RowView(v) else { throw damagedRow(table, key) }
                    return try body(key, row)
                }
            }
        }
    }

    /// A cursor over every row of the class, in key order. Valid while this transaction is
    /// open and (in a write) until its next write.
    package func scan(_ table: Table) -> RowCursor {
        RowCursor(table, transaction: self)
    }

    func checkSizes(_ table: Table, _ values: some Sequence<Value>) throws {
        for v in values {
            let size: Int
            switch v {
            case .string(let s): size = s.utf8.count
            case .data(let d): size = d.count
            default: continue
            }
            if size > maximumValueSize {
                throw StorageError(.invalidInput, "A value of \(size) bytes for '\(table.name)' is over the \(maximumValueSize >> 20) MiB limit for strings and data")
            }
        }
    }

    private func newKey(_ table: Table, _ values: [Value]) throws -> ObjectKey {
        if let pk = table.primaryKey, !IndexKey.isExact(values[pk.id]) {
            throw StorageError(.invalidInput, "The primary key of a '\(table.name)' object is \(IndexKey.maxLength - 1) bytes or longer; primary keys must be shorter")
        }
        if table.keysArePrimaryKeys, let pk = table.primaryKey, case .int(let i) = values[pk.id] {
            return ObjectKeyCoding.key(forIntegerPrimaryKey: i)
        }
        if let pk = table.primaryKey, try !lookup(table, pk, equalTo: values[pk.id]).isEmpty {
            throw duplicatePrimaryKey(table, values)
        }
        let next: UInt64
        if let n = sequences[table.name] {
            next = n
        } else {
            let stored: UInt64? = try lmdbCall("Reading '\(table.name)'") { try meta.flatMap { try MetaKeys.readInteger(lmdb, $0, MetaKeys.sequencePrefix + table.name) } }
            next = max(stored ?? 1, try lastKey(table) &+ 1)
        }
        sequences[table.name] = next + 1
        return next
    }

    private func lastKey(_ table: Table) throws -> ObjectKey {
        if let k = lastKeys[table.name] { return k }
        let k = try lmdbCall("Reading '\(table.name)'") { () throws -> ObjectKey in
            try lmdb.withCursor(table.rows) { try $0.last() }.map { ObjectKeyCoding.decode($0.key) } ?? 0
        }
        lastKeys[table.name] = k
        return k
    }

    private func duplicatePrimaryKey(_ table: Table, _ values: [Value]) -> StorageError {
        let pk = table.primaryKey!
        return StorageError(.invalidInput, "Attempting to create an object of type '\(table.name)' with an existing primary key value '\(describe(values[pk.id]))'")
    }
}

/// A short human rendering of a value for error messages.
package func describe(_ value: Value) -> String {
    switch value {
    case .null: "nil"
    case .bool(let b): "\(b)"
    case .int(let i): "\(i)"
    case .float(let f): "\(f)"
    case .double(let d): "\(d)"
    case .string(let s): s.count > 60 ? String(s.prefix(60)) + "…" : s
    case .data(let d): "<\(d.count) bytes>"
    case .date(let d): "\(d)"
    case .uuid(let u): u.uuidString
    case .link(let k): "object \(k)"
    case .objectId(let id): id.stringValue
    case .decimal128(let d): d.text
    }
}

/// Rows of one table in key order (see `StorageTransaction.scan`), read in batches: each
/// batch is one LMDB cursor walk that ends before `next` returns, so no cursor outlives the
/// call that opened it, whatever becomes of the transaction afterwards.
package final class RowCursor {
    private let table: Table
    private let transaction: StorageTransaction
    /// The rows read ahead, and how many of them `next` has handed out.
    @exclusivity(unchecked) private var batch: ContiguousArray<(ObjectKey, RowView)> = []
    @exclusivity(unchecked) private var position = 0
    /// Where the next batch starts; nil once the table's end is reached.
    @exclusivity(unchecked) private var resume: ObjectKey? = 0
    /// An error met while reading ahead, thrown when `next` reaches it.
    @exclusivity(unchecked) private var failure: (any Error)?
    /// Rows per batch: enough that the cursor open and seek of a batch cost little per row.
    private static let batchSize = 128

    init(_ table: Table, transaction: StorageTransaction) {
        self.table = table
        self.transaction = transaction
        batch.reserveCapacity(Self.batchSize)
    }

    /// The next object's key and row, or nil after the last.
    package func next() throws -> (ObjectKey, RowView)? {
        if position == batch.count {
            if failure == nil { readBatch() }
            if position == batch.count {
                guard let failure else { return nil }
                self.failure = nil
                throw failure
            }
        }
        defer { position += 1 }
        return batch[position]
    }

    /// Reads the rows from `resume` on, up to `batchSize`; an error ends the batch early and
    /// is kept in `failure`.
    private func readBatch() {
        batch.removeAll(keepingCapacity: true)
        position = 0
        guard let start = resume else { return }
        resume = nil
        let table = self.table, transaction = self.transaction
        do {
            try transaction.lmdbCall("Scanning '\(table.name)'") {
                try transaction.lmdb.withCursor(table.rows) { cursor in
                    var key = ObjectKeyCoding.encode(start)
                    var entry = try withUnsafeBytes(of: &key) { try cursor.seek(atLeast: $0) }
                    while let (k, v) = entry {
                        guard k.count == 8 else { throw transaction.damagedRow(table, 0) }
                        let key = ObjectKeyCoding.decode(k)
                        guard let row = RowView(v) else { throw transaction.damagedRow(table, key) }
                        batch.append((key, row))
                        if batch.count == Self.batchSize {
                            resume = key == .max ? nil : key + 1
                            return
                        }
                        entry = try cursor.next()
                    }
                }
            }
        } catch {
            failure = error
        }
    }
}
