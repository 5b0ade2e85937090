import Foundation
import StrataStorage
import Synchronization

/// A database: the entry point for reading and writing objects (RealmSwift's `Realm`).
///
/// A `Realm` value is a handle to the instance for its configuration on the current thread
/// (one per thread per configuration). It reads one snapshot of the file until `refresh()`
/// or a write; objects and results it returns are confined to its thread.
public struct Realm {
    let core: RealmCore

    init(core: RealmCore) { self.core = core }

    /// The schema of the classes this Realm manages.
    public var schema: Schema {
        core.confinement.check()
        var stored = core.reading { try core.transaction().schema }
        if configuration.objectTypes != nil {
            let names = Set(core.checkedClasses.map(\.name))
            stored.classes = stored.classes.filter { names.contains($0.key) }
        }
        return Schema(stored: stored)
    }

    /// The configuration this Realm was opened with.
    public var configuration: Configuration { core.configuration }

    /// Whether the Realm holds no objects at all.
    public var isEmpty: Bool {
        core.confinement.check()
        return core.reading {
            let txn = try core.transaction()
            return try txn.schema.classes.keys.allSatisfy { name in try txn.table(name).map(txn.rows.count) ?? 0 == 0 }
        }
    }

    /// Opens the default configuration. With `queue`, see `init(configuration:queue:)`.
    public init(queue: DispatchQueue? = nil) throws {
        try self.init(configuration: .defaultConfiguration, queue: queue)
    }

    /// Opens (creating if needed) the Realm described by `configuration`, or returns this
    /// thread's open instance of it. Throws `Realm.Error`: `.fileNotFound` (missing directory,
    /// or a missing file opened read-only), `.fileOperationFailed` (a path under something
    /// that is not a directory, such as `/dev/null/foo`), `.fileAccess` (a directory in the way),
    /// `.invalidInput` (`deleteRealmIfMigrationNeeded` together with `readOnly`),
    /// `.filePermissionDenied`, `.invalidDatabase` (not a Strata file, truncated),
    /// `.unsupportedFileFormatVersion`, `.schemaMismatch` (listing each difference).
    ///
    /// With `queue` (a serial queue; call this from a block running on it), the instance is
    /// confined to the queue instead of the current thread: any block on the queue may use it,
    /// one instance per queue and configuration, and its notifications and asynchronous-write
    /// completions are delivered on the queue. A write must end in the block that began it.
    public init(configuration: Configuration, queue: DispatchQueue? = nil) throws {
        if let queue {
            dispatchPrecondition(condition: .onQueue(queue))
            core = try RealmCache.core(for: configuration, queue: queue)
        } else {
            core = try RealmCache.core(for: configuration)
        }
    }

    /// Opens the Realm at `fileURL` with the default configuration's other settings.
    public init(fileURL: URL) throws {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    /// The version of the snapshot this Realm reads: the number of the newest commit in it.
    public var version: UInt64 {
        core.confinement.check()
        return core.version
    }

    /// Whether commits made by other threads and processes move this Realm to the newest
    /// version on its thread's next run-loop turn (then observers are notified). When off,
    /// `observe` blocks get `.refreshRequired` instead and the Realm stays on its version
    /// until `refresh()`. On by default.
    public var autorefresh: Bool {
        get { core.confinement.check(); return core.autorefresh }
        nonmutating set {
            core.confinement.check()
            precondition(!(newValue && core.isFrozen), "Auto-refresh cannot be enabled for frozen Realms.")
            core.autorefresh = newValue
        }
    }

    /// Moves this Realm to the newest version. Returns whether the version changed; if it did,
    /// its observers are told what changed before this returns, as RealmSwift's are.
    @discardableResult
    public func refresh() -> Bool {
        core.confinement.check()
        if core.writes.isInWriteTransaction { return false }
        let before = core.version
        core.endTransaction()
        guard core.version != before else { return false }
        core.notifications.deliver(core)
        return true
    }

    /// Releases the snapshot this Realm holds (so the file can reuse the space of older
    /// versions), cancelling an open write. Every object and collection obtained from this
    /// Realm so far is invalidated (`isInvalidated`); the next read starts from the newest
    /// version. Does nothing on a frozen Realm.
    public func invalidate() {
        core.confinement.check()
        core.invalidate()
    }

    /// Whether a file exists for `config`.
    public static func fileExists(for config: Configuration) -> Bool {
        config.path.map { FileManager.default.fileExists(atPath: $0) } ?? false
    }

    /// Deletes the database file, LMDB's `FILE-lock` and the reserved `FILE.lock`. Returns
    /// whether anything existed. Throws `.alreadyOpen` while a Realm of the file is open in
    /// this process, or while another process has it open (LMDB's lock file says so).
    @discardableResult
    public static func deleteFiles(for config: Configuration) throws -> Bool {
        guard let path = config.path else { return false }
        return try translatingErrors(path: path) { try StorageFile.deleteFiles(path: path) }
    }

    /// Writes a compacted copy of the file to `fileURL`, which must not exist (`.fileExists`).
    /// The copy is one consistent version (the newest committed), even while other processes
    /// write.
    ///
    /// With the key this Realm was opened with (nil for a plain file), it is made with LMDB's
    /// compacting copy, so its records are as they are and it holds no free pages but the few
    /// of the change that makes it a file of its own (below). With
    /// another key it is encrypted with that key, and with nil it is a plain copy: every
    /// record is opened and sealed again, the indexes are built again, and the history is
    /// kept (docs/ENCRYPTION.md, "Copies with another key"). Either way the copy is a file of
    /// its own (a new file id; not a replication origin, though a follower of the origin can
    /// start from it: docs/REPLICATION.md).
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        core.confinement.check()
        let destination = fileURL.standardizedFileURL.path
        try translatingErrors(path: destination) {
            if encryptionKey == core.configuration.encryptionKey { return try core.file.writeCompactedCopy(to: destination, asNewFile: true) }
            try core.file.writeCopy(to: destination, encryptionKey: try EncryptionKey(encryptionKey))
        }
    }

    /// Writes a compacted copy to the file of `configuration` (see `writeCopy(toFile:)`).
    public func writeCopy(configuration: Realm.Configuration) throws {
        guard let url = configuration.fileURL else {
            throw Error(.fail, "writeCopy(configuration:) needs a configuration with a fileURL")
        }
        try writeCopy(toFile: url, encryptionKey: configuration.encryptionKey)
    }
}

extension Realm: Equatable {
    /// Same underlying instance (Realm caches one instance per thread and configuration).
    public static func == (lhs: Realm, rhs: Realm) -> Bool { lhs.core === rhs.core }
}

extension Realm {
    /// What a `Realm.observe` block is told.
    @frozen public enum Notification: String {
        /// Data changed: a refresh (auto or manual) or a local commit.
        case didChange = "RLMRealmDidChangeNotification"
        /// Another thread committed while `autorefresh` is off.
        case refreshRequired = "RLMRealmRefreshRequiredNotification"
    }
}

/// The per-thread instances: one `RealmCore` per configuration path on each thread.
enum RealmCache {
    private static let key = "strata.realms"

    static func core(for configuration: Realm.Configuration) throws -> RealmCore {
        let cache = box()
        let id = cacheKey(configuration)
        if let token = cache.cores[id]?.token, let core = token.core { return try checkedKey(core, configuration) }
        let core = try RealmCore(configuration: configuration)
        cache.cores[id] = Weak(token: core.token)
        return core
    }

    /// `core`, once `configuration`'s encryption key is found to be the one its file is open
    /// with (the cache key leaves the key out).
    private static func checkedKey(_ core: RealmCore, _ configuration: Realm.Configuration) throws -> RealmCore {
        if core.configuration.encryptionKey == configuration.encryptionKey { return core }
        try translatingErrors(path: core.path) {
            try core.file.checkEncryptionKey(try EncryptionKey(configuration.encryptionKey))
        }
        return core
    }

    /// Queue-confined and actor-isolated instances, held weakly by the instance itself: one
    /// may be released on any thread while another looks it up, which a weak reference
    /// (unlike the token's unowned one) survives.
    private static let ownedCores = Mutex<[String: WeakCore]>([:])
    private struct WeakCore { weak var core: RealmCore? }

    /// The instance confined to `queue` (called on the queue).
    static func core(for configuration: Realm.Configuration, queue: DispatchQueue) throws -> RealmCore {
        let marker = QueueMarker.of(queue)
        return try core(for: configuration, owner: .queue(queue, marker), id: "queue \(ObjectIdentifier(marker)) ")
    }

    /// The instance isolated to `actor` (called isolated to it).
    static func core(for configuration: Realm.Configuration, actor: isolated any Actor) throws -> RealmCore {
        try core(for: configuration, owner: .actor(ActorReference(actor)), id: "actor \(ObjectIdentifier(actor)) ")
    }

    /// The instance for `owner`, whose identity `id` begins the cache key. A cached instance
    /// whose actor is gone is not reused, even if a new actor has the same identity.
    private static func core(for configuration: Realm.Configuration, owner: Confinement.Owner, id: String) throws -> RealmCore {
        let key = id + cacheKey(configuration)
        if let core = ownedCores.withLock({ $0[key]?.core }), !isOrphaned(core) { return try checkedKey(core, configuration) }
        let core = try RealmCore(configuration: configuration, owner: owner)
        ownedCores.withLock { cores in
            cores = cores.filter { $0.value.core != nil }
            cores[key] = WeakCore(core: core)
        }
        return core
    }

    /// Whether `core` was isolated to an actor that is gone.
    private static func isOrphaned(_ core: RealmCore) -> Bool {
        if case .actor = core.confinement.owner { return core.confinement.actor == nil }
        return false
    }

    private static func cacheKey(_ configuration: Realm.Configuration) -> String {
        (configuration.path ?? configuration.inMemoryIdentifier.map { "memory:" + $0 } ?? "") + (configuration.readOnly ? "#ro" : "")
    }

    /// This thread's cache.
    private static func box() -> Box {
        let dictionary = Thread.current.threadDictionary
        if let cache = dictionary[key] as? Box { return cache }
        let cache = Box()
        dictionary[key] = cache
        return cache
    }

    /// Instances live while a `Realm`, object or result uses them; then their snapshot goes.
    private struct Weak { weak var token: RealmCore.Token? }

    private final class Box: NSObject {
        var cores: [String: Weak] = [:]
    }
}
