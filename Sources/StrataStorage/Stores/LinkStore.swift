import LMDB

/// The stored backlinks of every class in one transaction (docs/FILE-FORMAT.md, "Links"):
/// `backlinks.<Origin>.<property>` maps each target key to the origin objects that link to it
/// (duplicate-sorted), written with the links themselves, so that inverse relationships are
/// looked up (and counted) in O(log n) rather than found by scanning. For a to-one link an
/// entry's value is the origin key; for a list of objects it is the owner key and how many
/// times the list holds the target (4 bytes, big endian).
package struct LinkStore {
    @usableFromInline let transaction: StorageTransaction

    @usableFromInline init(_ transaction: StorageTransaction) { self.transaction = transaction }

    /// The keys of the objects of `origin` whose link `property` points at `target`, ascending.
    package func origins(_ origin: Table, _ property: PropertySchema, linkingTo target: ObjectKey) throws(StorageError) -> [ObjectKey] {
        try withCursor(origin, property, at: target) { cursor, entry in
            var keys: [ObjectKey] = []
            var entry = entry
            while let e = entry {
                keys.append(try ObjectKeyCoding.decode(e.value))
                entry = try cursor.nextDuplicate()
            }
            return keys
        } ?? []
    }

    /// The objects of `origin` whose link or list `property` points at `target`, ascending,
    /// each with the number of times it does (1 for a to-one link; a list's stored count).
    package func occurrences(_ origin: Table, _ property: PropertySchema, of target: ObjectKey) throws(StorageError) -> [(origin: ObjectKey, count: Int)] {
        try withCursor(origin, property, at: target) { cursor, entry in
            var found: [(origin: ObjectKey, count: Int)] = []
            var entry = entry
            while let e = entry {
                let count = e.value.count == 12 ? Int(UInt32(bigEndian: e.value.loadUnaligned(fromByteOffset: 8, as: UInt32.self))) : 1
                found.append((try ObjectKeyCoding.decode(e.value), count))
                entry = try cursor.nextDuplicate()
            }
            return found
        } ?? []
    }

    /// How many objects of `origin` link to `target` through `property`, in O(log n).
    package func originCount(_ origin: Table, _ property: PropertySchema, linkingTo target: ObjectKey) throws(StorageError) -> Int {
        try withCursor(origin, property, at: target) { cursor, entry in entry == nil ? 0 : try cursor.duplicateCount() } ?? 0
    }

    /// What `body` makes of a cursor over the backlinks of `property` and its entry at
    /// `target` (nil when no object links to it); nil when the property has no backlinks
    /// database. The result is returned rather than written to a variable the closure
    /// captures, which would be boxed on the heap.
    private func withCursor<R>(_ origin: Table, _ property: PropertySchema, at target: ObjectKey,
                               _ body: (borrowing Cursor, Cursor.Entry?) throws -> R) throws(StorageError) -> R? {
        guard let db = origin.backlinks[property.id] else { return nil }
        var k = ObjectKeyCoding.encode(target)
        let txn = transaction.lmdb
        return try StorageError.translating("Reading the backlinks of '\(origin.name).\(property.name)'") {
            try txn.withCursor(db) { cursor in
                try withUnsafeBytes(of: &k) { try body(cursor, try cursor.find($0)) }
            }
        }
    }

    /// Every entry of the backlinks of `property` (target key, origin key), in target order.
    func all(_ origin: Table, _ property: PropertySchema) throws(StorageError) -> [(target: ObjectKey, origin: ObjectKey)] {
        guard let db = origin.backlinks[property.id] else { return [] }
        let txn = transaction.lmdb
        var entries: [(target: ObjectKey, origin: ObjectKey)] = []
        try StorageError.translating("Reading the backlinks of '\(origin.name).\(property.name)'") {
            try txn.withCursor(db) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    entries.append((try ObjectKeyCoding.decode(e.key), try ObjectKeyCoding.decode(e.value)))
                    entry = try cursor.next()
                }
            }
        }
        return entries
    }

    /// Records that `originKey`'s link `property` now points at `target`.
    func add(_ origin: Table, _ property: PropertySchema, target: ObjectKey, origin originKey: ObjectKey) throws(StorageError) {
        let txn = transaction.lmdb
        try withEntry(origin, property, target, originKey) { db, k, v in try txn.put(db, key: k, value: v) }
    }

    /// Records that `originKey`'s link `property` no longer points at `target`.
    func remove(_ origin: Table, _ property: PropertySchema, target: ObjectKey, origin originKey: ObjectKey) throws(StorageError) {
        let txn = transaction.lmdb
        try withEntry(origin, property, target, originKey) { db, k, v in _ = try txn.delete(db, key: k, value: v) }
    }

    private func withEntry(_ origin: Table, _ property: PropertySchema, _ target: ObjectKey, _ originKey: ObjectKey,
                           _ body: (Database, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws(StorageError) {
        guard let db = origin.backlinks[property.id] else { return }
        var k = ObjectKeyCoding.encode(target), v = ObjectKeyCoding.encode(originKey)
        try StorageError.translating("Updating the backlinks of '\(origin.name).\(property.name)'") {
            try withUnsafeBytes(of: &k) { kb in try withUnsafeBytes(of: &v) { vb in try body(db, kb, vb) } }
        }
    }

    /// Adds `delta` occurrences of `target` in `owner`'s list `property` to the backlinks.
    func changeOccurrences(_ table: Table, _ property: PropertySchema, of target: ObjectKey,
                           in owner: ObjectKey, by delta: Int) throws(StorageError) {
        guard let db = table.backlinks[property.id] else { return }
        var key = ObjectKeyCoding.encode(target)
        var probe: [UInt8] = []
        IndexKey.appendBigEndian(owner, to: &probe)
        probe += [0, 0, 0, 0]
        let txn = transaction.lmdb
        try StorageError.translating("Updating the backlinks of '\(table.name).\(property.name)'") {
            try withUnsafeBytes(of: &key) { k in
                try txn.withCursor(db) { cursor in
                    var count = 0
                    // `find` first: a search that lands on a damaged page is caught before the put.
                    if try cursor.find(k) != nil, let e = try probe.withUnsafeBytes({ try cursor.seek(key: k, valueAtLeast: $0) }), e.value.count == 12,
                       try ObjectKeyCoding.decode(e.value) == owner {
                        count = Int(UInt32(bigEndian: e.value.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
                        try cursor.deleteCurrent()
                    }
                    count += delta
                    guard count > 0 else { return }
                    var value = Array(probe.prefix(8))
                    withUnsafeBytes(of: UInt32(count).bigEndian) { value.append(bytes: $0) }
                    try value.withUnsafeBytes { try txn.put(db, key: k, value: $0) }
                }
            }
        }
    }

    /// Counts `value` in or out of the backlinks of `owner`'s `property`: a link of a list of
    /// objects, or a typed link held by a mixed value (`TypedLinkStore`); other values have none.
    func changeOccurrences(of value: Value, _ table: Table, _ property: PropertySchema,
                           in owner: ObjectKey, by delta: Int) throws(StorageError) {
        switch value {
        case .link(let target): try changeOccurrences(table, property, of: target, in: owner, by: delta)
        case .typedLink(let className, let target):
            try transaction.typedLinks.changeOccurrences(table, property, of: className, target, in: owner, by: delta)
        default: return
        }
    }

    /// Writes the entry saying that `owner`'s list `property` holds `target` `count` times
    /// (rebuilding the backlinks of a list).
    func setOccurrences(_ table: Table, _ property: PropertySchema, of target: ObjectKey,
                        in owner: ObjectKey, count: Int) throws(StorageError) {
        guard let db = table.backlinks[property.id] else { return }
        var key: [UInt8] = [], value: [UInt8] = []
        IndexKey.appendBigEndian(target, to: &key)
        IndexKey.appendBigEndian(owner, to: &value)
        withUnsafeBytes(of: UInt32(count).bigEndian) { value.append(bytes: $0) }
        let txn = transaction.lmdb
        try StorageError.translating("Rebuilding the backlinks of '\(table.name).\(property.name)'") {
            try key.withUnsafeBytes { k in try value.withUnsafeBytes { try txn.put(db, key: k, value: $0) } }
        }
    }

    /// Empties the backlinks of `property` (before they are rebuilt, or with the lists they
    /// stand for).
    func removeAll(_ table: Table, _ property: PropertySchema) throws(StorageError) {
        guard let db = table.backlinks[property.id] else { return }
        let txn = transaction.lmdb
        try StorageError.translating("Rebuilding the backlinks of '\(table.name).\(property.name)'") { try txn.empty(db) }
    }
}

extension StorageTransaction {
    /// The stored backlinks of this transaction's classes.
    @inlinable package var links: LinkStore { LinkStore(self) }
}
