import Foundation
import Glibc
import StrataStorage

/// Opening a file for a configuration: in-memory paths, compaction on launch, deleting a file
/// that needs a migration, checking the schema and its version, migrating, and noticing later
/// that another process (or thread) migrated the file under an open instance.
extension RealmCore {
    /// What the configuration asks of the stored schema.
    struct SchemaDecision {
        /// The stored schema version (0 when the file has classes but no version).
        var fileVersion: UInt64
        /// A file with no classes and no schema version: it takes the configuration's.
        var isNew: Bool
        /// Differences between the configured classes and the stored ones, one line each.
        var differences: [String]
        /// Configured classes the file does not have.
        var missing: [ModelClass]

        init(_ infos: [ModelClass], _ stored: FileSchema, storedVersion: UInt64?) {
            fileVersion = storedVersion ?? 0
            isNew = stored.classes.isEmpty && storedVersion == nil
            differences = SchemaDifferences.lines(infos, stored)
            missing = infos.filter { stored.classes[$0.name] == nil }
        }

        /// Whether opening with `version` needs a migration (or, with
        /// `deleteRealmIfMigrationNeeded`, a new file).
        func needsMigration(_ version: UInt64) -> Bool {
            !isNew && (version != fileVersion || !differences.isEmpty)
        }
    }

    /// The classes a configuration names, or every model class the program declares.
    static func configuredClasses(_ configuration: Realm.Configuration) throws -> [ModelClass] {
        try (configuration.objectTypes.map { try $0.map(ModelClass.of) } ?? ModelClass.defaultSchema)
            .filter { $0.type != DynamicObject.self }
    }

    /// Opens the file of `configuration` at `path`: compacts it first when
    /// `shouldCompactOnLaunch` says so (only when no Realm has it open, here or in another
    /// process), and deletes and recreates it when `deleteRealmIfMigrationNeeded` is set and
    /// the configuration would need a migration (refused while it is open elsewhere).
    static func openFile(_ configuration: Realm.Configuration, path: String) throws -> StorageFile {
        do {
            return try openStandardized(configuration, path: path)
        } catch let error as Realm.Error {
            throw error.naming(configuration.fileURL?.path, insteadOf: path)
        }
    }

    /// `openFile` at `path`, the configuration's file URL standardized.
    private static func openStandardized(_ configuration: Realm.Configuration, path: String) throws -> StorageFile {
        if let seed = configuration.seedFilePath, configuration.inMemoryIdentifier == nil { try SeedFile.copy(seed, to: path) }
        return try translatingErrors(path: path) {
            let options = StorageFile.Options(readOnly: configuration.readOnly,
                                              syncOnCommit: configuration.syncOnCommit && configuration.inMemoryIdentifier == nil,
                                              lockFileMode: configuration.lockFilePermissions.map { mode_t(truncatingIfNeeded: $0) },
                                              encryptionKey: try EncryptionKey(configuration.encryptionKey))
            if let decide = configuration.shouldCompactOnLaunch, !configuration.readOnly {
                if try StorageFile.compactIfWanted(path: path, syncOnCommit: options.syncOnCommit, encryptionKey: options.encryptionKey,
                                                   decide: decide) {
                    Logger.shared.log(.info, "Compacted '\(path)' on launch (shouldCompactOnLaunch)")
                }
            }
            var file: StorageFile? = try StorageFile.open(path: path, options: options)
            if configuration.deleteRealmIfMigrationNeeded {
                let infos = try configuredClasses(configuration)
                let decision = try { () throws -> SchemaDecision in
                    let txn = try file!.beginRead()
                    defer { txn.abort() }
                    return SchemaDecision(infos, txn.schema, storedVersion: try txn.meta.schemaVersion)
                }()
                if decision.needsMigration(configuration.schemaVersion) {
                    file = nil
                    try StorageFile.deleteFiles(path: path)
                    Logger.shared.log(.info, "Deleted '\(path)' because its schema needed a migration (deleteRealmIfMigrationNeeded)")
                    file = try StorageFile.open(path: path, options: options)
                }
            }
            if !configuration.readOnly { file!.historyRetention = configuration.historyRetention.policy }
            return file!
        }
    }

    /// Checks the configured classes (`infos`) against the stored schema and its version;
    /// adds missing classes, or migrates, in one write transaction that holds the write lock
    /// (a process opening meanwhile waits for it, then sees the result). Throws
    /// `.schemaMismatch` for a lower schema version, for differences without a higher one,
    /// and for a read-only Realm that would need a migration.
    func prepareSchema(_ infos: [ModelClass]) throws {
        let infos = infos.filter { $0.type != DynamicObject.self }
        checkedClasses = infos
        let first = try translatingErrors(path: path) { () throws -> SchemaDecision in
            let txn = try transaction()
            return SchemaDecision(infos, txn.schema, storedVersion: try txn.meta.schemaVersion)
        }
        let wanted = configuration.schemaVersion
        try check(first, wanted)
        let needsWrite = first.needsMigration(wanted) || (!first.missing.isEmpty && !configuration.readOnly)
        if needsWrite {
            endTransaction()
            let txn = try translatingErrors(path: path) { try file.beginWrite() }
            defer { txn.abort() }
            let fresh = SchemaDecision(infos, txn.schema, storedVersion: try txn.meta.schemaVersion)
            try check(fresh, wanted)
            if fresh.needsMigration(wanted) {
                try MigrationContext.run(txn, path: path, infos: infos, oldVersion: fresh.fileVersion, newVersion: wanted,
                                         block: configuration.migrationBlock, processName: Self.processName, pid: getpid())
                Logger.shared.log(.info, "Migrated '\(path)' from schema version \(fresh.fileVersion) to \(wanted)")
            } else if !fresh.missing.isEmpty {
                try translatingErrors(path: path) {
                    try txn.store(classes: fresh.missing.map { try txn.meta.freshIDs($0.schema) })
                    if try txn.meta.schemaVersion == nil { try txn.meta.setSchemaVersion(wanted) }
                    if try txn.meta.recordsOldValues != configuration.historyRecordsOldValues, !configuration.readOnly {
                        try txn.meta.setRecordsOldValues(configuration.historyRecordsOldValues)
                    }
                    try txn.commit(processName: Self.processName, pid: getpid())
                }
            }
        }
        endTransaction()
        validatedSchema = try translatingErrors(path: path) { try transaction().schema }
        endTransaction()  // a Realm just opened has read nothing: its first read starts at the newest version
    }

    private func check(_ decision: SchemaDecision, _ wanted: UInt64) throws {
        if !decision.isNew && wanted < decision.fileVersion {
            throw Realm.Error(.schemaMismatch, "Provided schema version \(wanted) is less than last set version \(decision.fileVersion) of '\(path)': open it with schemaVersion \(decision.fileVersion) or higher", path: path)
        }
        if !decision.differences.isEmpty && wanted == decision.fileVersion {
            throw Realm.Error(.schemaMismatch, "Migration is required due to the following errors:\n- " + decision.differences.joined(separator: "\n- ")
                              + "\n(the file is at schema version \(decision.fileVersion): increase schemaVersion to migrate)", path: path)
        }
        if configuration.readOnly && decision.needsMigration(wanted) {
            throw Realm.Error(.schemaMismatch, "Cannot migrate '\(path)' from schema version \(decision.fileVersion) to \(wanted): the Realm is opened read-only", path: path)
        }
    }

    /// Whether this instance manages class `name`: every stored class, or with
    /// `objectTypes` only those (and their link targets); `deleteAll` leaves the others alone.
    func manages(_ name: String) -> Bool {
        configuration.objectTypes == nil || checkedClasses.contains { $0.name == name }
    }

    /// Called when a new snapshot's stored schema is not the one this instance checked: fine
    /// when only other classes changed (remembered then); otherwise the message saying that a
    /// migration changed the file under this instance.
    func schemaChangeProblem(_ txn: StorageTransaction) throws -> String? {
        var changed: [String] = []
        for binding in bindings.all where txn.schema.classes[binding.info.name] != binding.table.schema {
            changed.append(binding.info.name)
        }
        for info in checkedClasses where !changed.contains(info.name) {
            if let stored = txn.schema.classes[info.name], !SchemaDifferences.lines(code: info.schema, stored: stored).isEmpty {
                changed.append(info.name)
            }
        }
        if changed.isEmpty {
            validatedSchema = txn.schema
            return nil
        }
        let version = try txn.meta.schemaVersion.map { "\($0)" } ?? "0"
        return "The schema of \(changed.sorted().map { "'\($0)'" }.joined(separator: ", ")) in '\(path)' was changed by a migration (in another process or on another thread; the file is now at schema version \(version)). This Realm was opened with the old schema (version \(configuration.schemaVersion)) and cannot read the new one: close every Realm of the file and open it again with the new schemaVersion and models."
    }
}
