import Foundation
import Strata
import StrataStorage

/// Keeps one PostgreSQL table per class in step with a Strata file, an origin or a follower
/// (docs/REPLICATION.md, "Mirror"), so that reporting and other services query its data with
/// SQL. Each `mirror()` reads one snapshot of the file and, in one PostgreSQL transaction,
/// writes the objects the commits since the last mirrored version changed (or every object,
/// the first time and after a schema change) and records that version in `strata_mirror`:
/// a mirror killed at any point leaves PostgreSQL at the last version it committed.
///
/// ```swift
/// let mirror = try ReplicationMirror(configuration: Realm.Configuration(fileURL: url),
///                                    to: "host=/var/run/postgresql dbname=reports")
/// print(try mirror.mirror().version)
/// ```
///
/// Use it from one thread at a time.
public final class ReplicationMirror {
    /// The PostgreSQL schema that holds the tables.
    public let schema: String

    private let file: StorageFile
    private let connection: PostgresConnection

    /// What one `mirror()` did.
    public struct Progress: Sendable, Equatable {
        /// The file version the tables now hold.
        public let version: UInt64
        /// Whether every table was written again (the first time, after a schema change, or
        /// when the file's history no longer holds the commits since the last version).
        public let rebuilt: Bool
        /// How many objects were written or deleted.
        public let objects: Int
    }

    /// Connects to PostgreSQL with `conninfo` and opens the file of `configuration` (which
    /// must exist) read-only. The tables go into PostgreSQL schema `schema` (created when
    /// absent); one mirror per schema.
    public init(configuration: Realm.Configuration, to conninfo: String, schema: String = "public") throws {
        guard let url = configuration.fileURL else {
            throw Realm.Error(.invalidInput, "Only a file is mirrored: the configuration names none (an in-memory Realm)")
        }
        let path = url.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Realm.Error(.fileNotFound, "There is no Strata file at '\(path)' to mirror", path: path)
        }
        connection = try PostgresConnection(conninfo)
        self.schema = schema
        file = try translatingErrors(path: path) {
            try StorageFile.open(path: path, options: .init(readOnly: true, encryptionKey: try EncryptionKey(configuration.encryptionKey)))
        }
        try connection.execute("CREATE SCHEMA IF NOT EXISTS \(MirrorTable.quoted(schema))")
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(MirrorTable.quoted(schema)).strata_mirror (
                file text NOT NULL, version bigint NOT NULL, classes text NOT NULL, mirrored timestamptz NOT NULL DEFAULT now())
            """)
    }

    /// Brings the tables to the file's newest version and returns what it did. Throws
    /// `PostgresError` when PostgreSQL refuses (nothing of this round stays) and `Realm.Error`
    /// for the file.
    @discardableResult
    public func mirror() throws -> Progress {
        let txn = try translatingErrors(path: file.path) { try file.beginRead() }
        defer { txn.abort() }
        return try connection.transaction {
            let control = "\(MirrorTable.quoted(schema)).strata_mirror"
            try connection.execute("LOCK TABLE \(control) IN EXCLUSIVE MODE")
            let stored = try connection.execute("SELECT version, classes FROM \(control)").rows.first
            let classes = try translatingErrors(path: file.path) { String(decoding: try SchemaStore.json(txn.schema), as: UTF8.self) }
            let tables = txn.schema.sorted.map { MirrorTable($0, in: schema) }
            let last = stored?[0].flatMap(UInt64.init)
            if let last, last > txn.version {
                throw Realm.Error(.invalidInput, "The mirror in schema '\(schema)' holds version \(last), past the file's newest (\(txn.version)): it mirrors another file", path: file.path)
            }
            var objects = 0
            let rebuilt: Bool
            if let last, stored?[1] == classes, let changed = try changes(txn, after: last) {
                for table in tables {
                    if let change = changed[table.schema.name] { objects += try write(table, change, txn) }
                }
                rebuilt = false
            } else {
                try recreate(tables, previous: stored?[1])
                for table in tables { objects += try write(table, nil, txn) }
                rebuilt = true
            }
            try connection.execute("DELETE FROM \(control)")
            try connection.execute("INSERT INTO \(control) (file, version, classes) VALUES ($1, $2::bigint, $3)",
                                   [.text(file.path), .text(String(txn.version)), .text(classes)])
            return Progress(version: txn.version, rebuilt: rebuilt, objects: objects)
        }
    }

    /// Mirrors now and then every `interval` seconds, calling `mirrored` after each round that
    /// wrote something, until `shouldStop` returns true. A lost PostgreSQL connection is
    /// reported to `failed` and retried; any other failure is thrown.
    public func follow(every interval: TimeInterval = 0.2, until shouldStop: () -> Bool,
                       mirrored: (Progress) -> Void, failed: (Error) -> Void = { _ in }) throws {
        var reconnects = false
        var last: UInt64?
        while !shouldStop() {
            do {
                if reconnects { try connection.reconnect() }
                reconnects = false
                let progress = try mirror()
                if progress.version != last { mirrored(progress) }
                last = progress.version
            } catch let error as PostgresError where error.isConnectionFailure {
                reconnects = true
                failed(error)
            }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    /// What the commits after `version` changed, by class: the keys they touched and whether
    /// they cleared the class. Nil when the history no longer holds them all.
    private func changes(_ txn: StorageTransaction, after version: UInt64) throws -> [String: (keys: Set<ObjectKey>, cleared: Bool)]? {
        if version == txn.version { return [:] }
        guard let oldest = try txn.history.bounds().oldest, oldest <= version + 1 else { return nil }
        var changed: [String: (keys: Set<ObjectKey>, cleared: Bool)] = [:]
        var complete = true
        try txn.history.forEach(after: version, newestFirst: false) { entry in
            if entry.isMigration { complete = false }
            for (name, c) in entry.changes.classes {
                var state = changed[name] ?? ([], false)
                state.cleared = state.cleared || c.cleared
                state.keys.formUnion(c.inserted)
                state.keys.formUnion(c.deleted)
                state.keys.formUnion(c.modified.keys)
                changed[name] = state
            }
            return complete
        }
        return complete ? changed : nil
    }

    /// Drops the tables of the classes in `previous` (the schema last mirrored) and of
    /// `tables`, then creates `tables` with their foreign keys.
    private func recreate(_ tables: [MirrorTable], previous: String?) throws {
        let old = previous.flatMap { SchemaStore.schema(json: Array($0.utf8)) }?.sorted.map { MirrorTable($0, in: schema) } ?? []
        for table in old + tables { try connection.execute("DROP TABLE IF EXISTS \(table.name) CASCADE") }
        for table in tables { try connection.execute(table.create) }
        for table in tables { for statement in table.foreignKeys { try connection.execute(statement) } }
    }

    /// Writes the objects of `table`'s class that `changed` names (every object when nil, or
    /// when the class was cleared): those the snapshot has are upserted, the others deleted.
    /// Returns how many.
    private func write(_ table: MirrorTable, _ changed: (keys: Set<ObjectKey>, cleared: Bool)?, _ txn: StorageTransaction) throws -> Int {
        guard let stored = try translatingErrors(path: file.path, { try txn.table(table.schema.name) }) else { return 0 }
        var rows: [[PostgresParameter]] = []
        var gone: [ObjectKey] = []
        func collection(_ key: ObjectKey) -> (PropertySchema) throws -> String {
            { p in
                let values = try txn.lists.values(stored, p, owner: key)
                guard p.isMap else { return MirrorJSON.array(values, of: p) }
                return MirrorJSON.object(keys: try txn.lists.mapKeys(stored, p, owner: key), values: values, of: p)
            }
        }
        if let changed, !changed.cleared {
            for key in changed.keys.sorted() {
                if let row = try translatingErrors(path: file.path, { try txn.rows.read(stored, key) }) {
                    rows.append(try table.parameters(of: key, row, collection: collection(key)))
                } else {
                    gone.append(key)
                }
            }
        } else {
            if changed != nil { try connection.execute("DELETE FROM \(table.name)") }
            let cursor = txn.rows.scan(stored)
            while let (key, row) = try translatingErrors(path: file.path, { try cursor.next() }) {
                rows.append(try table.parameters(of: key, row, collection: collection(key)))
            }
        }
        try table.delete(gone, on: connection)
        try table.upsert(rows, on: connection)
        return rows.count + gone.count
    }
}
