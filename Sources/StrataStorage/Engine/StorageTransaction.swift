import Foundation
import LMDB

/// A read snapshot or the write transaction of a file, with the stored schema it sees.
///
/// Row bytes handed out (`RowView`) point into the memory map: valid until the transaction
/// ends, and in a write transaction until its next write (`changeCounter` tells callers
/// when cached views went stale). Errors are `StorageError`s.
package final class StorageTransaction {
    package let file: StorageFile
    /// The LMDB transaction operations go through (a nested one inside `atomically`).
    package private(set) var lmdb: Transaction
    package let isWrite: Bool
    /// The schema stored in the file, as of this transaction.
    package private(set) var schema: StoredSchema
    /// The version this transaction reads: the number of the newest commit it sees.
    package private(set) var version: UInt64
    /// What this write transaction has changed so far.
    package private(set) var changes = ChangeSet()
    /// Bumped on every write: cached row views from an earlier count are stale. Set by the
    /// owner that caches row views; nil for one that does not.
    package var changeCounter: ChangeCounter?
    /// The text stored in the history entry of this commit, if any.
    package var commitDescription: String?
    /// Which history entries the commit keeps (a bounded number of older ones are removed);
    /// nil: the file's `historyRetention`.
    package var historyRetention: HistoryRetentionPolicy?

    /// Handles usable in this transaction: those visible when it began.
    private var handles: [String: Database]
    /// Handles this write transaction created (visible to others once it commits).
    private var created: [String: Database] = [:]
    private var isCreating = false
    private var tables: [String: Table] = [:]
    var meta: Database?
    var sequences: [String: UInt64] = [:]
    var lastKeys: [String: ObjectKey] = [:]
    private var schemaChanged = false

    /// Whether this read snapshot is counted in the file's pins (until it ends).
    private var isPinned = false

    init(file: StorageFile, write: Bool) throws {
        self.file = file
        self.isWrite = write
        if write {
            try file.checkRoomForNewVersion()
            file.reclaimDeadProcessesIfDue()
        }
        (lmdb, handles, schema, version) = try Self.begin(file, write: write)
        meta = handles[MetaKeys.database]
        if !write {
            file.pin(version, transaction: lmdb.id)
            isPinned = true
        }
    }

    /// Begins an LMDB transaction that can use every table of the schema it sees. A
    /// transaction can use only handles opened before it began: when another process added
    /// classes, their tables are opened and the transaction begins again (nothing was read).
    private static func begin(_ file: StorageFile, write: Bool) throws
        -> (Transaction, [String: Database], StoredSchema, UInt64) {
        let context = "Beginning a \(write ? "write" : "read") transaction on '\(file.path)'"
        for _ in 0..<4 {
            let handles = file.handles.snapshot()
            let txn = try StorageError.translating(context) { () throws(LMDBError) in
                try Transaction(file.environment, readOnly: !write)
            }
            let meta = handles[MetaKeys.database]
            let schema = try meta.map { (meta) throws(StorageError) in try SchemaStore.load(txn, meta, cache: file) } ?? StoredSchema()
            let version = try newestVersion(txn, meta: meta, history: handles[MetaKeys.history], context)
            let missing = Table.databases(for: schema).filter { handles[$0.name] == nil }
            if missing.isEmpty { return (txn, handles, schema, version) }
            txn.abort()
            try file.handles.open(missing, create: false, context: context)
        }
        throw StorageError(.fail, "\(context): the tables of new classes could not be opened")
    }

    /// The version of the newest commit `txn` sees: the key of the newest history entry
    /// (retention always keeps it), or the meta `version` of a format 1 file, whichever is
    /// higher (they agree in a file only this code wrote); 0 before the first commit.
    private static func newestVersion(_ txn: Transaction, meta: Database?, history: Database?,
                                      _ context: String) throws -> UInt64 {
        do {
            let counted: UInt64 = try meta.flatMap { try MetaKeys.readInteger(txn, $0, MetaKeys.version) } ?? 0
            guard let history else { return counted }
            let newest = try txn.withCursor(history) { try $0.last() }.map { historyVersion(ofKey: $0.key) } ?? 0
            return max(counted, newest)
        } catch let error as LMDBError {
            throw StorageError.lmdb(error, context)
        }
    }

    deinit {
        if isCreating { file.handles.endCreating(committed: nil) }
        unpin()
    }

    private func unpin() {
        guard isPinned else { return }
        isPinned = false
        file.unpin(version)
    }

    /// Whether this transaction sees the newest commit of any process.
    package var isNewest: Bool { lmdb.id == file.environment.lastTransactionID }

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
        guard let classSchema = schema.classes[name], let specs = Table.databases(of: name, in: schema) else { return nil }
        let table = try lmdbCall("Opening the tables of '\(name)'") { () throws -> Table in
            var rows: Database?
            var indexes: [Int: Database] = [:]
            var backlinks: [Int: Database] = [:]
            var lists: [Int: Database] = [:]
            for spec in specs {
                guard let db = handles[spec.name] ?? created[spec.name] else {
                    throw StorageError(.invalidDatabase, "'\(file.path)' is damaged: the database '\(spec.name)' is missing")
                }
                switch spec.role {
                case .rows: rows = db
                case .index(let p): indexes[p] = db
                case .backlinks(let p): backlinks[p] = db
                case .list(let p): lists[p] = db
                }
            }
            return Table(schema: classSchema, rows: rows!, indexes: indexes, backlinks: backlinks, lists: lists)
        }
        tables[name] = table
        return table
    }

    /// Adds classes to (or replaces classes in) the stored schema, creating their databases.
    package func store(classes: [ClassSchema]) throws {
        precondition(isWrite, "schema changes need a write transaction")
        if !isCreating {
            try file.handles.beginCreating()
            isCreating = true
        }
        try lmdbCall("Creating the tables of \(classes.map(\.name))") {
            for c in classes {
                for spec in Table.databases(for: c) where handles[spec.name] == nil && created[spec.name] == nil {
                    created[spec.name] = try lmdb.openDatabase(spec.name, flags: spec.flags.union(.create))
                }
            }
        }
        for c in classes {
            schema.classes[c.name] = c
            tables[c.name] = nil
        }
        schemaChanged = true
        changeCounter?.bump()
    }

    /// Removes classes from the stored schema (a migration's `deleteData` of a class the new
    /// schema no longer has); the caller empties their databases.
    package func removeFromSchema(_ names: [String]) {
        precondition(isWrite, "schema changes need a write transaction")
        for name in names {
            schema.classes[name] = nil
            tables[name] = nil
        }
        schemaChanged = true
        changeCounter?.bump()
    }

    /// Runs `body` so that it changes everything or nothing: inside a nested LMDB transaction
    /// that joins this one if `body` returns and vanishes, with this transaction's own
    /// bookkeeping, if it throws.
    package func atomically<T>(_ body: () throws -> T) throws -> T {
        precondition(isWrite, "only a write transaction nests")
        let parent = lmdb
        let saved = (sequences, lastKeys, tables, created, schema, schemaChanged)
        lmdb = try lmdbCall("Beginning a nested transaction on '\(file.path)'") { try Transaction(nestedIn: parent) }
        // The changes so far are set aside, not copied: `body` records into an empty set,
        // absorbed on success. (Keeping a copy to restore would make the first change in
        // `body` copy every key recorded so far: quadratic over a write of many graph adds.)
        var outer = ChangeSet()
        swap(&outer, &changes)
        defer {
            lmdb = parent
            changeCounter?.bump()  // rows read inside may have moved or vanished
        }
        do {
            let result = try body()
            try lmdbCall("Committing a nested transaction on '\(file.path)'") { try lmdb.commit() }
            swap(&outer, &changes)
            changes.absorb(outer)
            return result
        } catch {
            lmdb.abort()
            changes = outer
            (sequences, lastKeys, tables, created, schema, schemaChanged) = saved
            throw error
        }
    }

    /// Ends a read transaction (or abandons a write one).
    package func abort() {
        lmdb.abort()
        endCreating(committed: false)
        unpin()
    }

    private func endCreating(committed: Bool) {
        guard isCreating else { return }
        isCreating = false
        file.handles.endCreating(committed: committed ? created : nil)
    }

    /// Commits the write: the history entry, the new version and the data, in one LMDB commit
    /// (durable when this returns unless the file was opened without sync). Returns the new
    /// version, or the old one if nothing changed.
    @discardableResult
    package func commit(processName: String, pid: Int32) throws -> UInt64 {
        precondition(isWrite, "only a write transaction commits")
        if changes.isEmpty && !schemaChanged && commitDescription == nil {
            abort()
            return version
        }
        let newVersion = version + 1
        try lmdbCall("Committing to '\(file.path)'") {
            guard let meta else { throw StorageError(.fail, "no meta database") }
            if version == 0 { try MetaKeys.writeInteger(lmdb, meta, MetaKeys.format, StorageFile.formatVersion) }
            let format: UInt32 = try MetaKeys.readInteger(lmdb, meta, MetaKeys.format) ?? StorageFile.formatVersion
            if schemaChanged { try SchemaStore.save(schema, lmdb, meta) }
            for (name, next) in sequences { try MetaKeys.writeInteger(lmdb, meta, MetaKeys.sequencePrefix + name, next) }
            let entry = HistoryEntry(version: newVersion, time: Date().timeIntervalSince1970, pid: pid,
                                     processName: processName, description: commitDescription, changes: changes)
            guard let history = handles[MetaKeys.history] else { throw StorageError(.fail, "no history database") }
            var key = newVersion.bigEndian
            let record = entry.encoded()
            try withUnsafeBytes(of: &key) { k in
                try record.withUnsafeBytes { try lmdb.put(history, key: k, value: $0) }
            }
            try applyHistoryRetention(historyRetention ?? file.historyRetention, history: history, now: entry.time)
            // A format 1 file keeps its version key current, for older Strata; a newer file
            // has its version in the history entry alone (one page fewer per commit).
            if format < 2 { try MetaKeys.writeInteger(lmdb, meta, MetaKeys.version, newVersion) }
            let schemaVersion = try storedSchemaVersion
            do {
                try lmdb.commit()
            } catch {
                endCreating(committed: false)
                throw error
            }
            file.didCommit(version: newVersion, schemaVersion: schemaVersion)
        }
        endCreating(committed: true)
        version = newVersion
        return newVersion
    }

    /// The history database, if the file has one yet.
    package var historyDatabase: Database? { handles[MetaKeys.history] }

    /// Forgets the changes recorded so far (a migration commits without per-class change sets).
    package func discardChanges() { changes = ChangeSet() }

    /// Records a change of `table` (used by the row operations).
    func record(_ table: Table, _ change: (inout ClassChanges) -> Void) {
        change(&changes.classes[table.name, default: ClassChanges()])
        changeCounter?.bump()
    }
}
