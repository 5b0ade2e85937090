import Foundation
import Glibc
import LMDB
import Synchronization

/// One open database file in this process: the LMDB environment, its database handles and
/// the tables bound to the stored schema. Shared by every `Realm` instance of the file in
/// the process (LMDB allows one environment per file per process), found through `open`.
package final class StorageFile: @unchecked Sendable {
    // Sendable invariant: `Environment`, `DatabaseHandles`, `CoordinationFile` and
    // `CommitNotifier` are thread-safe; the rest is in `state`, behind its mutex.
    package let environment: Environment
    package let path: String
    package let isReadOnly: Bool
    let handles: DatabaseHandles
    /// What this process's threads change on the file, one at a time.
    let state = Mutex(SharedState())
    /// The `.lock` coordination file (nil in a read-only directory that has none).
    package let coordination: CoordinationFile?
    /// The key and ciphers of an encrypted file; nil for a plain one.
    package let encryption: FileEncryption?
    /// Whether a transaction found the file's key marker to match the key (set once the file
    /// has a format; a marker never changes after, so later transactions skip the check).
    let keyMarkerVerified = Atomic<Bool>(false)

    /// The file's mutable state in this process, guarded by `state`.
    struct SharedState {
        /// The stored schema bytes decoded last, and what they decoded to.
        var schemaCache: ([UInt8], FileSchema)?
        /// The history retention this process's commits apply.
        var retention = HistoryRetentionPolicy.default
        /// The versions this process's snapshots pin.
        let pins = VersionPins()
        /// `maximumNumberOfActiveVersions` of the configurations that opened the file.
        var activeVersionLimit: Int?
        /// When this process last freed the registry slots of dead processes.
        var lastReclaim = Date.distantPast
        /// The database's file id (meta `fileID`), once read.
        var fileID: UInt64?
        /// What transactions of the newest snapshot known read as they begin.
        var snapshotFacts: SnapshotFacts?
    }
    /// Wakes this process's listeners when any process commits (started on first use).
    let notifier = CommitNotifier()
    /// This process's write transactions on the file, which a task may wait out without
    /// blocking (`WriteTurns.waitForTurn`).
    package let writeTurns = WriteTurns()

    /// The history retention this process's commits apply (set by each open of a configuration).
    package var historyRetention: HistoryRetentionPolicy {
        get { state.withLock { $0.retention } }
        set { state.withLock { $0.retention = newValue } }
    }

    /// The format version this code writes. Files with a higher one are refused. Format 4
    /// nests the directory of a long list; format 3 seals every record with a checksum;
    /// format 2 keeps the newest version as the last key of the history alone; format 1 files
    /// also keep it in the meta `version` key. An older file keeps its format, and this code
    /// writes it as that format's Strata did, so that older Strata may still open it
    /// (docs/FILE-FORMAT.md, "Meta", "Checksums" and "Lists").
    package static let formatVersion: UInt32 = 4
    /// The first format whose records are all sealed.
    package static let sealedFormat: UInt32 = 3
    /// The first format whose long lists have nested directories.
    package static let nestedListsFormat: UInt32 = 4

    /// The files open in this process, by device and inode.
    private static let registry = Mutex<[String: Weak]>([:])
    private struct Weak { weak var file: StorageFile? }

    /// How to open a file.
    package struct Options: Sendable {
        package var readOnly = false
        package var syncOnCommit = true
        /// The permissions of lock files this open creates; nil: 0666 masked by the umask.
        package var lockFileMode: mode_t?
        /// The key of an encrypted file (a new file is created encrypted); nil for a plain file.
        package var encryptionKey: EncryptionKey?
        package init(readOnly: Bool = false, syncOnCommit: Bool = true, lockFileMode: mode_t? = nil, encryptionKey: EncryptionKey? = nil) {
            self.readOnly = readOnly
            self.syncOnCommit = syncOnCommit
            self.lockFileMode = lockFileMode
            self.encryptionKey = encryptionKey
        }
    }

    /// Opens the file at `path` (creating it unless read-only), or returns the instance this
    /// process already has open. Throws a `StorageError` naming the path and the problem:
    /// missing directory, a directory in the way, permissions, not a Strata file, truncated,
    /// newer format.
    ///
    /// A read-only instance can outlive its last Realm for a moment (another thread, such as
    /// the notifier, still holding it): a read-write open waits up to 200 ms for it to go
    /// before failing.
    package static func open(path: String, options: Options) throws -> StorageFile {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        for _ in 0..<200 {
            if let file = try openOrReuse(path, options, failOnConflict: false) { return file }
            usleep(1_000)
        }
        return try openOrReuse(path, options, failOnConflict: true)!
    }

    /// The instance open for `path`, or a new one; nil (or with `failOnConflict`, an error)
    /// when a read-write open finds a read-only instance.
    private static func openOrReuse(_ path: String, _ options: Options, failOnConflict: Bool) throws -> StorageFile? {
        try registry.withLock { registry throws -> StorageFile? in
            if let key = identity(of: path), let file = registry[key]?.file {
                if file.isReadOnly && !options.readOnly {
                    guard failOnConflict else { return nil }
                    throw StorageError(.fileAccess, "'\(path)' is already open read-only in this process; open it read-write first (LMDB allows one environment per file per process)")
                }
                try EncryptionChecks.checkKey(options.encryptionKey, of: file)
                return file
            }
            let created = LockFileChecks.missing(forDatabaseAt: path)
            let file: StorageFile
            do {
                file = try StorageFile(path: path, options: options)
            } catch let error as StorageError where error.code == .invalidDatabase || error.code == .unsupportedFileFormatVersion {
                LockFileChecks.remove(created)  // the file is not one to open: leave nothing behind
                throw error
            }
            if let key = identity(of: path) { registry[key] = Weak(file: file) }
            StorageLog.record(.info, "Opened '\(path)'\(options.readOnly ? " read-only" : "")")
            return file
        }
    }

    /// The instance this process has open for `path`, if any (nil also when the file does not
    /// exist).
    package static func openInstance(path: String) -> StorageFile? {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        return registry.withLock { registry in identity(of: path).flatMap { registry[$0]?.file } }
    }

    /// Runs `body` while no file of this process opens or closes through `open`.
    static func withRegistryLock<T>(_ body: () throws -> T) throws -> T {
        try registry.withLock { _ in try body() }
    }

    /// The file's device and inode, so that links to one file share one environment.
    private static func identity(of path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return "\(st.st_dev):\(st.st_ino)"
    }

    private init(path: String, options: Options) throws {
        try FileChecks.checkBeforeOpen(path: path, readOnly: options.readOnly)
        var envOptions = Environment.Options()
        envOptions.readOnly = options.readOnly
        envOptions.noSync = !options.syncOnCommit
        let lockAccess = try LockFileChecks.prepareLMDBLockFile(databasePath: path, readers: Int(envOptions.maxReaders),
                                                                mode: options.lockFileMode)
        do {
            environment = try Environment(path: path, options: envOptions)
        } catch let error where options.readOnly && (error.code == EACCES || error.code == EROFS) {
            try FileChecks.checkReadingWithoutLockFile(path: path, error: error, access: lockAccess)
            envOptions.noLock = true
            do { environment = try Environment(path: path, options: envOptions) } catch { throw FileChecks.openError(error, path: path) }
        } catch {
            throw FileChecks.openError(error, path: path)
        }
        self.path = path
        self.isReadOnly = options.readOnly
        encryption = try options.encryptionKey.map { (key) throws(StorageError) in try FileEncryption(key) }
        handles = DatabaseHandles(environment: environment)
        coordination = try CoordinationFile.open(databasePath: path, register: true, mode: options.lockFileMode)
        let staleReaders = environment.clearStaleReaders()
        if staleReaders > 0 {
            StorageLog.record(.info, "Cleared \(staleReaders) LMDB reader slot\(staleReaders == 1 ? "" : "s") of processes that died with '\(path)' open")
        }
        try FileChecks.checkAfterOpen(environment, path: path)
        try checkFormat()
        try checkMainDatabase()
        try EncryptionChecks.checkMarker(of: self)
        try checkNotRolledBack()
        try openDatabases()
        notifier.file = self
    }

    /// Opens the file's own databases (creating them in a new writable file) and every
    /// table of the stored schema, so that transactions can use them.
    private func openDatabases() throws(StorageError) {
        let context = "Opening the databases of '\(path)'"
        try handles.open([(MetaKeys.database, []), (MetaKeys.history, []), (MetaKeys.typedLinks, [.duplicateSort])],
                         create: !isReadOnly, context: context)
        let txn = try StorageError.translating(context) { try Transaction(environment, readOnly: true) }
        defer { txn.abort() }
        if let meta = handles.snapshot()[MetaKeys.database] {
            let format: UInt32 = try StorageError.translating(context) { try MetaKeys.readInteger(txn, meta, MetaKeys.format) } ?? Self.formatVersion
            let crypto = try encryption.map { (e) throws(StorageError) in try RecordCrypto(e) }
            let schema = try SchemaStore.load(txn, meta, sealRequired: format >= Self.sealedFormat, crypto: crypto, cache: self)
            try handles.open(Table.databases(for: schema), create: false, context: context)
        }
    }

    /// Reads every entry of LMDB's main database, where each table's root is recorded: LMDB
    /// looks tables up there without Strata seeing the pages, so a page of it out of its
    /// place (an older version of it, whose roots name the tables as they were) is found
    /// here, by the checks every entry read passes (`ReadBounds`), before any table is used.
    private func checkMainDatabase() throws(StorageError) {
        try StorageError.translating("Reading '\(path)'") {
            let txn = try Transaction(environment, readOnly: true)
            defer { txn.abort() }
            _ = try txn.withCursor(Database(handle: 1)) { try $0.scan(from: nil) { _, _ in true } }
        }
    }

    /// Verifies that the file is an empty new environment or a Strata database this code reads.
    private func checkFormat() throws(StorageError) {
        try StorageError.translating("Reading '\(path)'") {
            let txn = try Transaction(environment, readOnly: true)
            defer { txn.abort() }
            guard let meta = try txn.openDatabase(MetaKeys.database) else {
                let entries = try txn.count(Database(handle: 1))
                if entries == 0 { return }  // a new file: initialised by the first write
                throw StorageError(.invalidDatabase, "'\(path)' is an LMDB environment but not a Strata database")
            }
            let format: UInt32 = try MetaKeys.readInteger(txn, meta, MetaKeys.format) ?? 0
            if format > Self.formatVersion {
                throw StorageError(.unsupportedFileFormatVersion, "'\(path)' uses file format \(format); this version of Strata reads up to format \(Self.formatVersion)")
            }
            // An empty meta database: another process created the file and has not committed
            // to it yet (the format marker comes with the first commit).
            if try format == 0 && txn.count(meta) > 0 {
                throw StorageError(.invalidDatabase, "'\(path)' has no Strata format marker")
            }
        }
    }

    /// Begins a read transaction on the newest version.
    package func beginRead() throws(StorageError) -> StorageTransaction {
        try StorageTransaction(file: self, write: false)
    }

    /// Begins the write transaction (waiting for any other writer, in any process).
    package func beginWrite() throws(StorageError) -> StorageTransaction {
        if isReadOnly { throw StorageError(.fileAccess, "'\(path)' is open read-only: writes are not allowed") }
        return try StorageTransaction(file: self, write: true)
    }

    /// The decoded schema if `bytes` (the stored record, in the map) are the ones decoded last:
    /// compared in place with `memcmp`, since every transaction begins by asking.
    func cachedSchema(for bytes: UnsafeRawBufferPointer) -> FileSchema? {
        state.withLock { state in
            guard let (b, s) = state.schemaCache, b.count == bytes.count else { return nil }
            let same = b.withUnsafeBytes { cached in bytes.count == 0 || memcmp(cached.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
            return same ? s : nil
        }
    }

    /// Remembers the schema decoded from `bytes`.
    func cacheSchema(_ schema: FileSchema, for bytes: [UInt8]) {
        state.withLock { $0.schemaCache = (bytes, schema) }
    }
}
