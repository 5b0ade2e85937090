import Foundation
import Glibc
import LMDB

/// One open database file in this process: the LMDB environment, its database handles and
/// the tables bound to the stored schema. Shared by every `Realm` instance of the file in
/// the process (LMDB allows one environment per file per process), found through `open`.
package final class StorageFile: @unchecked Sendable {
    // Sendable invariant: `Environment` is thread-safe; `handles` and `tables` are only
    // touched under `lock`.
    package let environment: Environment
    package let path: String
    package let isReadOnly: Bool
    private let lock = NSLockLite()
    private var handles: [String: Database] = [:]
    private var schemaCache: ([UInt8], StoredSchema)?

    /// The format version this code writes. Files with a higher one are refused.
    package static let formatVersion: UInt32 = 1

    private static let registryLock = NSLockLite()
    nonisolated(unsafe) private static var registry: [String: Weak] = [:]
    private struct Weak { weak var file: StorageFile? }

    /// How to open a file.
    package struct Options: Sendable {
        package var readOnly = false
        package var syncOnCommit = true
        package init(readOnly: Bool = false, syncOnCommit: Bool = true) {
            self.readOnly = readOnly
            self.syncOnCommit = syncOnCommit
        }
    }

    /// Opens the file at `path` (creating it unless read-only), or returns the instance this
    /// process already has open. Throws a `StorageError` naming the path and the problem:
    /// missing directory, a directory in the way, permissions, not a Strata file, truncated,
    /// newer format.
    package static func open(path: String, options: Options) throws -> StorageFile {
        let key = URL(fileURLWithPath: path).standardizedFileURL.path
        registryLock.lock()
        defer { registryLock.unlock() }
        if let file = registry[key]?.file { return file }
        let file = try StorageFile(path: key, options: options)
        registry[key] = Weak(file: file)
        return file
    }

    private init(path: String, options: Options) throws {
        try FileChecks.checkBeforeOpen(path: path, readOnly: options.readOnly)
        var envOptions = Environment.Options()
        envOptions.readOnly = options.readOnly
        envOptions.noSync = !options.syncOnCommit
        do {
            environment = try Environment(path: path, options: envOptions)
        } catch {
            throw FileChecks.openError(error, path: path)
        }
        self.path = path
        self.isReadOnly = options.readOnly
        environment.clearStaleReaders()
        try FileChecks.checkAfterOpen(environment, path: path)
        try checkFormat()
    }

    /// Verifies that the file is an empty new environment or a Strata database this code reads.
    private func checkFormat() throws {
        do {
            let txn = try Transaction(environment, readOnly: true)
            defer { txn.abort() }
            guard let meta = try txn.openDatabase(MetaKeys.database) else {
                let entries = try txn.count(Database(handle: 1))
                if entries == 0 { return }  // a new file: initialised by the first write
                throw StorageError(.invalidDatabase, "'\(path)' is an LMDB environment but not a Strata database")
            }
            let format: UInt32 = MetaKeys.readInteger(txn, meta, MetaKeys.format) ?? 0
            if format > Self.formatVersion {
                throw StorageError(.unsupportedFormat, "'\(path)' uses file format \(format); this version of Strata reads up to format \(Self.formatVersion)")
            }
            if format == 0 {
                throw StorageError(.invalidDatabase, "'\(path)' has no Strata format marker")
            }
        } catch let error as StorageError {
            throw error
        } catch let error as LMDBError {
            throw StorageError.lmdb(error, "Reading '\(path)'")
        } catch {
            throw StorageError(.fail, "Reading '\(path)': \(error)")
        }
    }

    /// Begins a read transaction on the newest version.
    package func beginRead() throws -> StorageTransaction {
        try StorageTransaction(file: self, write: false)
    }

    /// Begins the write transaction (waiting for any other writer, in any process).
    package func beginWrite() throws -> StorageTransaction {
        if isReadOnly { throw StorageError(.fileAccess, "'\(path)' is open read-only: writes are not allowed") }
        return try StorageTransaction(file: self, write: true)
    }

    /// The handle of the named database, opening it in `txn` if this process has not yet.
    /// Returns nil when it does not exist and `create` is false. Handles created by a write
    /// transaction are remembered only once it commits (LMDB closes them on abort).
    func database(_ name: String, in txn: Transaction, create: Bool = false,
                  flags: Database.Flags = [], pending: inout [String: Database]) throws(LMDBError) -> Database? {
        if let db = lock.withLock({ handles[name] }) { return db }
        if let db = pending[name] { return db }
        lock.lock()
        defer { lock.unlock() }
        guard let db = try txn.openDatabase(name, flags: create ? flags.union(.create) : flags) else { return nil }
        if txn.isReadOnly { handles[name] = db } else { pending[name] = db }
        return db
    }

    /// Remembers handles opened by a write transaction that committed.
    func adopt(_ pending: [String: Database]) {
        lock.withLock { handles.merge(pending) { a, _ in a } }
    }

    /// The decoded schema if `bytes` are the ones decoded last.
    func cachedSchema(for bytes: [UInt8]) -> StoredSchema? {
        lock.withLock {
            guard let (b, s) = schemaCache, b == bytes else { return nil }
            return s
        }
    }

    /// Remembers the schema decoded from `bytes`.
    func cacheSchema(_ schema: StoredSchema, for bytes: [UInt8]) {
        lock.withLock { schemaCache = (bytes, schema) }
    }

    /// Forgets handles of databases a committed write dropped.
    func forget(_ names: [String]) {
        lock.withLock { for n in names { handles[n] = nil } }
    }
}
