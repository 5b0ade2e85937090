import Foundation
import LMDB

/// A read snapshot or the write transaction of a file, with the stored schema it sees.
///
/// Row bytes handed out (`RowView`) point into the memory map: valid until the transaction
/// ends, and in a write transaction until its next write (`writeCount` tells callers when
/// cached views went stale). Errors are `StorageError`s.
package final class StorageTransaction {
    package let file: StorageFile
    package let lmdb: Transaction
    package let isWrite: Bool
    /// The schema stored in the file, as of this transaction.
    package private(set) var schema: StoredSchema
    /// The version this transaction reads: the number of the newest commit it sees.
    package private(set) var version: UInt64
    /// What this write transaction has changed so far.
    package private(set) var changes = ChangeSet()
    /// Incremented on every write; cached row views from an earlier count are stale.
    package private(set) var writeCount: UInt64 = 0
    /// The text stored in the history entry of this commit, if any.
    package var commitDescription: String?

    var pending: [String: Database] = [:]
    private var tables: [String: Table] = [:]
    var meta: Database?
    var sequences: [String: UInt64] = [:]
    var lastKeys: [String: ObjectKey] = [:]
    private var schemaChanged = false

    init(file: StorageFile, write: Bool) throws {
        self.file = file
        self.isWrite = write
        do {
            lmdb = try Transaction(file.environment, readOnly: !write)
            meta = try file.database(MetaKeys.database, in: lmdb, create: write, pending: &pending)
        } catch let error as LMDBError {
            throw StorageError.lmdb(error, "Beginning a \(write ? "write" : "read") transaction on '\(file.path)'")
        }
        if let meta {
            version = MetaKeys.readInteger(lmdb, meta, MetaKeys.version) ?? 0
            schema = try SchemaStore.load(lmdb, meta, cache: file)
        } else {
            version = 0
            schema = StoredSchema()
        }
    }

    /// Wraps LMDB errors raised by `body` with `context`.
    @inline(__always)
    func lmdbCall<T>(_ context: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LMDBError {
            throw StorageError.lmdb(error, context())
        }
    }

    /// The table of the class named `name`, or nil if the file has no such class.
    package func table(_ name: String) throws -> Table? {
        if let t = tables[name] { return t }
        guard let classSchema = schema.classes[name] else { return nil }
        let table = try lmdbCall("Opening the tables of '\(name)'") { () throws -> Table in
            var rows: Database?
            var indexes: [Int: Database] = [:]
            for spec in Table.databases(for: classSchema) {
                guard let db = try file.database(spec.name, in: lmdb, create: isWrite, flags: spec.flags, pending: &pending) else {
                    throw StorageError(.invalidDatabase, "'\(file.path)' is damaged: the database '\(spec.name)' is missing")
                }
                if let p = spec.property { indexes[p] = db } else { rows = db }
            }
            return Table(schema: classSchema, rows: rows!, indexes: indexes)
        }
        tables[name] = table
        return table
    }

    /// Adds classes to (or replaces classes in) the stored schema, creating their databases.
    package func store(classes: [ClassSchema]) throws {
        precondition(isWrite, "schema changes need a write transaction")
        for c in classes {
            schema.classes[c.name] = c
            tables[c.name] = nil
            _ = try table(c.name)
        }
        schemaChanged = true
        writeCount &+= 1
    }

    /// Ends a read transaction (or abandons a write one).
    package func abort() { lmdb.abort() }

    /// Commits the write: the history entry, the new version and the data, in one LMDB commit
    /// (durable when this returns unless the file was opened without sync). Returns the new
    /// version, or the old one if nothing changed.
    @discardableResult
    package func commit(processName: String, pid: Int32) throws -> UInt64 {
        precondition(isWrite, "only a write transaction commits")
        if changes.isEmpty && !schemaChanged && commitDescription == nil {
            lmdb.abort()
            return version
        }
        let newVersion = version + 1
        try lmdbCall("Committing to '\(file.path)'") {
            guard let meta else { throw StorageError(.fail, "no meta database") }
            if version == 0 { try MetaKeys.writeInteger(lmdb, meta, MetaKeys.format, StorageFile.formatVersion) }
            if schemaChanged { try SchemaStore.save(schema, lmdb, meta) }
            for (name, next) in sequences { try MetaKeys.writeInteger(lmdb, meta, MetaKeys.sequencePrefix + name, next) }
            let entry = HistoryEntry(version: newVersion, time: Date().timeIntervalSince1970, pid: pid,
                                     processName: processName, description: commitDescription, changes: changes)
            let history = try file.database(MetaKeys.history, in: lmdb, create: true, pending: &pending)!
            var key = newVersion.bigEndian
            let record = entry.encoded()
            try withUnsafeBytes(of: &key) { k in
                try record.withUnsafeBytes { try lmdb.put(history, key: k, value: $0) }
            }
            try MetaKeys.writeInteger(lmdb, meta, MetaKeys.version, newVersion)
            try lmdb.commit()
        }
        file.adopt(pending)
        version = newVersion
        return newVersion
    }

    /// Records a change of `table` (used by the row operations).
    func record(_ table: Table, _ change: (inout ClassChanges) -> Void) {
        change(&changes.classes[table.name, default: ClassChanges()])
        writeCount &+= 1
    }
}
