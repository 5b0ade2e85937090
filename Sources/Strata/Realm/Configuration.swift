import Foundation
import Synchronization

/// Called once when a file with a lower schema version is opened with a higher `schemaVersion`.
public typealias MigrationBlock = @Sendable (_ migration: Migration, _ oldSchemaVersion: UInt64) -> Void

extension Realm {
    /// Where and how a Realm is opened (RealmSwift's `Realm.Configuration`).
    public struct Configuration: Sendable {
        private static let storedDefault = Mutex(Configuration())

        /// The configuration `Realm()` uses: `default.realm` in the current directory unless
        /// changed.
        public static var defaultConfiguration: Configuration {
            get { storedDefault.withLock { $0 } }
            set { storedDefault.withLock { $0 = newValue } }
        }

        /// Creates a configuration; every argument has RealmSwift's default.
        public init(fileURL: URL? = URL(fileURLWithPath: "default.realm", isDirectory: false),
                    inMemoryIdentifier: String? = nil,
                    encryptionKey: Data? = nil,
                    readOnly: Bool = false,
                    schemaVersion: UInt64 = 0,
                    migrationBlock: MigrationBlock? = nil,
                    deleteRealmIfMigrationNeeded: Bool = false,
                    shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)? = nil,
                    objectTypes: [ObjectBase.Type]? = nil,
                    seedFilePath: URL? = nil) {
            self.fileURL = fileURL
            self.inMemoryIdentifier = inMemoryIdentifier
            if inMemoryIdentifier != nil { self.fileURL = nil }
            self.encryptionKey = encryptionKey
            self.readOnly = readOnly
            self.schemaVersion = schemaVersion
            self.migrationBlock = migrationBlock
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.objectTypes = objectTypes
            self.seedFilePath = seedFilePath
        }

        /// The database file. Setting it clears `inMemoryIdentifier`.
        public var fileURL: URL? {
            didSet { if fileURL != nil { inMemoryIdentifier = nil } }
        }
        /// Named in-memory Realm. Setting it clears `fileURL`.
        public var inMemoryIdentifier: String? {
            didSet { if inMemoryIdentifier != nil { fileURL = nil } }
        }
        /// A 64-byte key for encryption at rest (docs/ENCRYPTION.md): a new file is created
        /// encrypted with it, and an encrypted file opens only with it. Bytes 0..<32 are the
        /// AES-256-GCM key of the records, bytes 32..<64 the HMAC-SHA-256 key of the index keys.
        public var encryptionKey: Data?
        /// Open without writing: `write` throws, the file is never changed.
        public var readOnly: Bool
        /// The schema version of the code's models.
        public var schemaVersion: UInt64
        /// Migrates data from an older schema version.
        public var migrationBlock: MigrationBlock?
        /// Delete the file instead of migrating (not with `readOnly`: opening throws).
        public var deleteRealmIfMigrationNeeded: Bool
        /// Decides from (file size, bytes used) whether to compact when first opened.
        public var shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)?
        /// The classes managed by the Realm (nil: every model class the program declares, as
        /// RealmSwift's default schema).
        public var objectTypes: [ObjectBase.Type]? {
            get { storedObjectTypes?.types }
            set { storedObjectTypes = newValue.map(ObjectTypes.init) }
        }
        private var storedObjectTypes: ObjectTypes?
        /// The most versions this process may pin at once (nil: no limit).
        public var maximumNumberOfActiveVersions: UInt?
        /// A file copied to `fileURL` when it does not exist yet.
        public var seedFilePath: URL?
        /// Strata: flush every commit to disk before `write` returns (default). Turning it off
        /// (LMDB's `MDB_NOSYNC`) is for bulk loads and tests: a crash of the machine (not of the
        /// process) can lose the last commits. Applies from the first open of the file in the
        /// process.
        public var syncOnCommit = true
        /// Strata: which history entries commits keep (docs/HISTORY.md); `.default` keeps the
        /// newest 10,000 or the last 30 days, whichever is more, at most 1,000,000. Per file
        /// and process, the configuration opened last decides.
        public var historyRetention = HistoryRetention.default
        /// Strata: whether commits keep, in their history entries, the old values of what they
        /// change (the before-images `Realm.freeze(atVersion:)`, `strata blame` and `strata
        /// revert` read; docs/HISTORY.md). On by default; turn it off for write-heavy files that
        /// need no past versions. A per-file setting stored in the file: a read-write open
        /// stores its configuration's value, and every process's commits follow the stored
        /// one. Versions before a commit made with it off can no longer be read.
        public var historyRecordsOldValues = true
        /// Strata: the permissions the two lock files (`FILE-lock`, `FILE.lock`) get when this
        /// process creates them; nil (default): 0666 masked by the umask, as the database.
        /// Every reader registers its snapshot in `FILE-lock`, so a user who may only read the
        /// database opens it read-only once the lock files are writable for it: 0o666 lets
        /// every user read a database created 0644 (docs/RELIABILITY.md).
        public var lockFilePermissions: Int?

        /// The file path this configuration names.
        var path: String? { fileURL?.standardizedFileURL.path }
    }
}

/// Class metatypes are immutable values; this box lets `Configuration` stay `Sendable`.
private struct ObjectTypes: @unchecked Sendable {
    // Sendable invariant: metatypes are never mutated.
    let types: [ObjectBase.Type]
}
