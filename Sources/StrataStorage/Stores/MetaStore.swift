import LMDB

/// The meta records of a file in one transaction (`strata.meta`, docs/FILE-FORMAT.md,
/// "Meta"): the format, the schema version, property-id high-water marks and the per-class
/// key counters. The stored schema itself is read and written by `SchemaStore`.
package struct MetaStore {
    @usableFromInline let transaction: StorageTransaction

    @usableFromInline init(_ transaction: StorageTransaction) { self.transaction = transaction }

    private var path: String { transaction.file.path }

    /// The meta database; throws when the file has none (it is made when the file is).
    private func database() throws(StorageError) -> Database {
        guard let db = transaction.database(MetaKeys.database) else {
            throw StorageError(.fail, "'\(path)' has no meta database")
        }
        return db
    }

    /// The integer under `key`, or nil when it was never written (or the file has no meta
    /// database yet).
    func integer<T: FixedWidthInteger>(_ key: String, _ context: @autoclosure () -> String) throws(StorageError) -> T? {
        guard let db = transaction.database(MetaKeys.database) else { return nil }
        return try StorageError.translating(context()) { try MetaKeys.readInteger(transaction.lmdb, db, key) }
    }

    func setInteger<T: FixedWidthInteger>(_ key: String, _ value: T, _ context: @autoclosure () -> String) throws(StorageError) {
        let db = try database()
        transaction.changedMeta = true
        try StorageError.translating(context()) { try MetaKeys.writeInteger(transaction.lmdb, db, key, value) }
    }

    /// The schema version stored in the file, or nil if none was ever written.
    package var schemaVersion: UInt64? {
        get throws(StorageError) { try integer(MetaKeys.schemaVersion, "Reading the schema version of '\(path)'") }
    }

    /// Stores the schema version (committed with the rest of this write).
    package func setSchemaVersion(_ version: UInt64) throws(StorageError) {
        precondition(transaction.isWrite, "the schema version is written by a write transaction")
        try setInteger(MetaKeys.schemaVersion, version, "Writing the schema version of '\(path)'")
    }

    /// The lowest property id a new property of class `name` may take: ids are never reused,
    /// not even those of removed properties or of a deleted class (their old slots and index
    /// databases may still exist).
    package func nextPropertyID(_ name: String) throws(StorageError) -> Int {
        let mark: UInt64 = try integer(MetaKeys.propertyIDPrefix + name, "Reading the property ids of '\(name)'") ?? 0
        return max(Int(mark), transaction.schema.classes[name]?.slotCount ?? 0)
    }

    /// Records that ids below `next` are taken in class `name`.
    package func reservePropertyIDs(_ name: String, below next: Int) throws(StorageError) {
        let current: UInt64 = try integer(MetaKeys.propertyIDPrefix + name, "Reading the property ids of '\(name)'") ?? 0
        if UInt64(next) <= current { return }
        try setInteger(MetaKeys.propertyIDPrefix + name, UInt64(next), "Writing the property ids of '\(name)'")
    }

    /// `schema` with its property ids moved above every id the class `schema.name` ever used
    /// in this file (a class stored again after a migration deleted it). Unchanged when the
    /// class never existed.
    package func freshIDs(_ schema: ClassSchema) throws(StorageError) -> ClassSchema {
        let base = try nextPropertyID(schema.name)
        if base == 0 { return schema }
        var result = schema
        for i in result.properties.indices { result.properties[i].id += base }
        return result
    }

    /// The key counter of class `name` as stored by the last commit, or nil.
    func storedNextKey(_ name: String) throws(StorageError) -> UInt64? {
        try integer(MetaKeys.sequencePrefix + name, "Reading '\(name)'")
    }

    /// Writes what a commit keeps in meta before its history entry: the format of a new file,
    /// the schema if it changed and the key counters. Returns the file's format.
    func prepareCommit(of version: UInt64, _ context: @autoclosure () -> String) throws(StorageError) -> UInt32 {
        let db = try database()
        let txn = transaction.lmdb
        return try StorageError.translating(context()) {
            if version == 1 {
                try MetaKeys.writeInteger(txn, db, MetaKeys.format, StorageFile.formatVersion)
                try MetaKeys.writeInteger(txn, db, MetaKeys.fileID, UInt64.random(in: 1 ... .max))
                if let marker = transaction.file.encryption?.marker {
                    try MetaKeys.writeBytes(txn, db, MetaKeys.encryption, marker)
                }
            }
            let format = version == 1 ? StorageFile.formatVersion : transaction.format
            if transaction.schemaChanged { try SchemaStore.save(transaction.schema, txn, db, sealed: transaction.seals, crypto: transaction.crypto) }
            for (name, next) in transaction.keys.next { try MetaKeys.writeInteger(txn, db, MetaKeys.sequencePrefix + name, next) }
            return format
        }
    }

    /// The file's format (meta `format`; a new file's is the current one).
    func format(_ context: @autoclosure () -> String) throws(StorageError) -> UInt32 {
        try integer(MetaKeys.format, context()) ?? StorageFile.formatVersion
    }

    /// The database's file id (meta `fileID`), nil in a file older Strata created.
    var fileID: UInt64? {
        get throws(StorageError) { try integer(MetaKeys.fileID, "Reading the file id of '\(path)'") }
    }

    /// Writes the version key of a format 1 file, kept current for older Strata; a newer file
    /// has its version in the history entry alone (one page fewer per commit).
    func finishCommit(of version: UInt64, format: UInt32, _ context: @autoclosure () -> String) throws(StorageError) {
        if format < 2 { try setInteger(MetaKeys.version, version, context()) }
    }
}

extension StorageTransaction {
    /// The meta records of the file: schema version, property ids, key counters.
    @inlinable package var meta: MetaStore { MetaStore(self) }
}

extension MetaKeys {
    /// Prefix of u64 LE: one above the highest property id class `<Class>` ever used.
    static let propertyIDPrefix = "propertyIDs."
}
