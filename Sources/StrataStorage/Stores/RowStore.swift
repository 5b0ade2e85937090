import LMDB

/// The rows of every class in one transaction (`rows.<Class>`: object key, 8 bytes big
/// endian → row, `RowFormat`): reads, scans and the plain row writes. The writes here keep
/// no index, backlink or change set: `ObjectWrites` does that around them.
package struct RowStore {
    @usableFromInline let transaction: StorageTransaction

    @usableFromInline init(_ transaction: StorageTransaction) { self.transaction = transaction }

    /// The row of object `key`, or nil if there is none.
    @inline(__always)
    package func read(_ table: Table, _ key: ObjectKey) throws(StorageError) -> RowView? {
        guard let bytes = try stored(table, key) else { return nil }
        return try view(table, key, bytes)
    }

    /// Whether object `key` has a row: one lookup, the row's bytes neither verified nor
    /// decrypted.
    package func contains(_ table: Table, _ key: ObjectKey) throws(StorageError) -> Bool {
        try stored(table, key) != nil
    }

    /// The bytes stored for object `key` (sealed, or encrypted), or nil if it has no row.
    @inline(__always)
    private func stored(_ table: Table, _ key: ObjectKey) throws(StorageError) -> UnsafeRawBufferPointer? {
        var k = ObjectKeyCoding.encode(key)
        let txn = transaction.lmdb
        return try StorageError.translating("Reading '\(table.name)'") {
            try withUnsafeBytes(of: &k) { try txn.get(table.rows, key: $0) }
        }
    }

    /// The row stored as `bytes` under object `key`, its seal verified (`Checksum`), or
    /// decrypted into the transaction's memory on an encrypted file; throws when it is damaged.
    @inline(__always)
    package func view(_ table: Table, _ key: ObjectKey, _ bytes: UnsafeRawBufferPointer) throws(StorageError) -> RowView {
        var k = ObjectKeyCoding.encode(key)
        return try withUnsafeBytes(of: &k) { k throws(StorageError) in try view(table, key, storedKey: k, bytes) }
    }

    /// `view` for a caller that has the key's stored form, `storedKey` (a cursor walk).
    @inline(__always)
    func view(_ table: Table, _ key: ObjectKey, storedKey: UnsafeRawBufferPointer, _ bytes: UnsafeRawBufferPointer) throws(StorageError) -> RowView {
        if let crypto = transaction.crypto {
            guard let opened = crypto.open(table.rowsName, key: storedKey, bytes), let row = RowView(opened) else { throw damaged(table, key) }
            return row
        }
        guard let row = RowView(stored: bytes, table.rowSeed, key: storedKey, sealRequired: transaction.seals) else {
            throw damaged(table, key)
        }
        return row
    }

    /// The row stored as `bytes` under object `key` of an encrypted file, decrypted into
    /// `block`, which must have room for it (`RowCursor`); throws when it is damaged.
    func view(_ table: Table, _ key: ObjectKey, _ bytes: UnsafeRawBufferPointer, into block: DecryptedRecords) throws(StorageError) -> RowView {
        var k = ObjectKeyCoding.encode(key)
        guard let crypto = transaction.crypto,
              let opened = withUnsafeBytes(of: &k, { crypto.open(table.rowsName, key: $0, bytes, into: block) }),
              let row = RowView(opened) else { throw damaged(table, key) }
        return row
    }

    /// Whether object `key`, whose lookup found no row, is still known to the file: a walk
    /// over the table meets it or meets fewer rows than the table counts (in a read
    /// transaction the walk throws then, `RowCursor`), or a link or list still holds it (its
    /// backlinks say so). A deleted object is none of these, so true means the file is damaged.
    package func isKnownWithoutRow(_ table: Table, _ key: ObjectKey) throws(StorageError) -> Bool {
        let rows = scan(table)
        var met = 0
        while let (k, _) = try rows.next() {
            if k == key { return true }
            met += 1
        }
        if try met != count(table) { return true }
        let schema = transaction.schema
        for (origin, property) in schema.links(to: table.name) + schema.lists(of: table.name) {
            guard let originTable = try transaction.table(origin.name) else { continue }
            if try !transaction.links.origins(originTable, property, linkingTo: key).isEmpty { return true }
        }
        return false
    }

    /// Number of objects of the class.
    package func count(_ table: Table) throws(StorageError) -> Int {
        let txn = transaction.lmdb
        return try StorageError.translating("Counting '\(table.name)'") { try txn.count(table.rows) }
    }

    /// Calls `body` with each object's key and row, in key order, until it returns false; on
    /// an encrypted file a row stays valid as `lifetime` says.
    package func forEach(_ table: Table, rows lifetime: RowLifetime = .transaction,
                         _ body: (ObjectKey, RowView) throws -> Bool) throws {
        let rows = RowCursor(table, transaction: transaction, keepsRows: lifetime == .transaction)
        try StorageError.translatingLMDBErrors("Scanning '\(table.name)'") {
            while let (key, row) = try rows.next() {
                if try !body(key, row) { return }
            }
        }
    }

    /// A cursor over every row of the class, in key order. Valid while this transaction is
    /// open and (in a write) until its next write.
    package func scan(_ table: Table) -> RowCursor {
        RowCursor(table, transaction: transaction, keepsRows: false)
    }

    /// Every object key of the table, in key order.
    package func allKeys(_ table: Table) throws(StorageError) -> [ObjectKey] {
        var keys: [ObjectKey] = []
        let rows = scan(table)
        while let (key, _) = try rows.next() { keys.append(key) }
        return keys
    }

    /// The highest object key of the class when first asked in this transaction, or given to
    /// an object since (0 when it had no rows): a new object whose key is above it is appended.
    /// A deletion does not lower it.
    func lastKey(_ table: Table) throws(StorageError) -> ObjectKey {
        if let k = transaction.keys.last[table.name] { return k }
        let txn = transaction.lmdb
        let k = try StorageError.translating("Reading '\(table.name)'") {
            try txn.withCursor(table.rows) { try $0.last() }.map { try ObjectKeyCoding.decode($0.key) } ?? 0
        }
        transaction.keys.last[table.name] = k
        return k
    }

    /// Writes `row` (encoded without a seal) as the row of object `key`, replacing any row it
    /// had; sealed for `key` in a file whose records are sealed, encrypted in an encrypted one.
    func put(_ table: Table, _ key: ObjectKey, _ row: [UInt8]) throws(StorageError) {
        var k = ObjectKeyCoding.encode(key)
        var bytes = row
        if let crypto = transaction.crypto {
            bytes = row.withUnsafeBytes { r in withUnsafeBytes(of: &k) { crypto.seal(table.rowsName, key: $0, r) } }
        } else if let seal = transaction.rowSeal(table, key) {
            bytes[0] |= RowEncoder.sealedFlag
            seal.append(to: &bytes)
        }
        let txn = transaction.lmdb
        try StorageError.translating("Writing '\(table.name)'") {
            try withUnsafeBytes(of: &k) { kb in try bytes.withUnsafeBytes { try txn.put(table.rows, key: kb, value: $0) } }
        }
    }

    /// Removes the row of object `key`; false if it had none.
    @discardableResult
    func remove(_ table: Table, _ key: ObjectKey) throws(StorageError) -> Bool {
        var k = ObjectKeyCoding.encode(key)
        let txn = transaction.lmdb
        return try StorageError.translating("Deleting from '\(table.name)'") {
            try withUnsafeBytes(of: &k) { try txn.delete(table.rows, key: $0) }
        }
    }

    /// Empties every database of the class (rows, indexes, backlinks, lists) in one
    /// `mdb_drop` each; the class stays in the schema.
    func removeAll(_ table: Table) throws(StorageError) {
        let txn = transaction.lmdb
        try StorageError.translating("Clearing '\(table.name)'") {
            try txn.empty(table.rows)
            for db in table.indexes.values { try txn.empty(db) }
            for db in table.backlinks.values { try txn.empty(db) }
            for db in table.lists.values { try txn.empty(db) }
        }
    }

    /// The error for a row that does not decode or does not match its checksum.
    func damaged(_ table: Table, _ key: ObjectKey) -> StorageError {
        let path = transaction.file.path
        return StorageError(.invalidDatabase, "'\(path)' is damaged: the row of '\(table.name)' object \(key) \(transaction.seals ? "does not match its checksum or " : "")cannot be read; run `strata check \(path)`")
    }
}

extension StorageTransaction {
    /// The rows of this transaction's classes.
    @inlinable package var rows: RowStore { RowStore(self) }
}
