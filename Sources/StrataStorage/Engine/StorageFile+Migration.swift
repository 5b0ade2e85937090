import Foundation
import Glibc
import LMDB

/// File-level work around migrations: whether other processes use a file, deleting it,
/// compacting it on open, and compacted copies.
///
/// "Another process has the file open" is read from LMDB's lock file: every process with the
/// environment open holds a shared `fcntl` lock on byte 0 of `FILE-lock` for as long as it
/// has it open (`mdb_env_open`'s `mdb_env_excl_lock`). `F_GETLK` asks whether a conflicting
/// lock exists without taking one. POSIX drops all of a process's locks on a file when any
/// descriptor of it is closed, so the check is only made while this process does not have
/// the environment open itself.
extension StorageFile {
    /// The process id of another process that has the file at `path` open, or nil (also when
    /// there is no lock file: no process has it open). Throws when that cannot be told.
    package static func otherProcessUsing(path: String) throws -> Int32? {
        let lockPath = LockFileChecks.lmdbLockPath(forDatabaseAt: path)
        let fd: Int32
        do {
            fd = try SystemCalls.open(lockPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        } catch where error.code == ENOENT {
            return nil
        } catch {
            throw StorageError(.fileAccess, "Cannot tell whether another process has '\(path)' open: \(error)")
        }
        defer { SystemCalls.close(fd) }
        do {
            return try SystemCalls.lockHolder(fd, byte: 0, path: lockPath)
        } catch {
            throw StorageError(.fileAccess, "Cannot tell whether another process has '\(path)' open: \(error)")
        }
    }

    /// How long a file stays "open in this process" after its last Realm closed before
    /// `checkNotInUse` refuses: a notification being delivered on the Realm's queue, or the
    /// notifier thread reading the newest version, may hold it for a moment longer.
    static let closingGraceMilliseconds = 300

    /// Refuses (`.alreadyOpen`, naming who) when the file is open in this process or another.
    package static func checkNotInUse(path: String, doing what: String) throws {
        if !isClosedHere(path: path, waitingMilliseconds: closingGraceMilliseconds) {
            throw StorageError(.alreadyOpen, "Cannot \(what) '\(path)': it is open in this process; close every Realm of it first")
        }
        if let pid = try otherProcessUsing(path: path) {
            throw StorageError(.alreadyOpen, "Cannot \(what) '\(path)': it is open in another process (pid \(pid))")
        }
    }

    /// Whether no `StorageFile` of `path` is alive in this process, waiting up to
    /// `milliseconds` for the last one to go.
    private static func isClosedHere(path: String, waitingMilliseconds milliseconds: Int) -> Bool {
        for _ in 0..<milliseconds {
            if openInstance(path: path) == nil { return true }
            usleep(1000)
        }
        return openInstance(path: path) == nil
    }

    /// Deletes the file, its LMDB lock file and the reserved `.lock` file. Returns whether
    /// any existed. Refuses while the file is open here or in another process.
    @discardableResult
    package static func deleteFiles(path: String) throws -> Bool {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        try checkNotInUse(path: path, doing: "delete")
        var existed = false
        for p in [path, path + "-lock", path + ".lock"] where FileManager.default.fileExists(atPath: p) {
            do { try FileManager.default.removeItem(atPath: p) } catch {
                throw StorageError(.fileOperationFailed, "Cannot delete '\(p)': \(error.localizedDescription)")
            }
            existed = true
        }
        return existed
    }

    /// Bytes of the file and bytes in use (pages below the high-water mark minus the pages on
    /// LMDB's free list).
    package func sizes() throws -> (total: Int, used: Int) {
        let total: Int
        do { total = try SystemCalls.size(atPath: path) } catch {
            throw StorageError(.fileAccess, "Cannot read the size of '\(path)': \(error.reason)")
        }
        let freePages = try freePageCount()
        return (total, max(0, environment.usedBytes - freePages * environment.pageSize))
    }

    /// Bytes that old snapshots keep from reuse: the pages freed by LMDB transaction
    /// `transaction` and later, which a writer may not reuse while a snapshot of
    /// `transaction` is open (LMDB reuses only pages freed before its oldest reader).
    package func bytesHeld(bySnapshotOf transaction: Int) throws(StorageError) -> Int {
        try freePageCount(freedFrom: transaction) * environment.pageSize
    }

    /// The pages on LMDB's free list freed by transaction `first` or later.
    private func freePageCount(freedFrom first: Int = 0) throws(StorageError) -> Int {
        var pages = 0
        try StorageError.translating("Reading the free pages of '\(path)'") {
            let txn = try Transaction(environment, readOnly: true)
            defer { txn.abort() }
            // The free list is database 0: keys are the freeing transaction's id, values
            // start with their page count (both size_t).
            try txn.withCursor(Database(handle: 0)) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    let freedBy = e.key.count >= MemoryLayout<Int>.size ? e.key.loadUnaligned(as: Int.self) : 0
                    if freedBy >= first, e.value.count >= MemoryLayout<Int>.size { pages += e.value.loadUnaligned(as: Int.self) }
                    entry = try cursor.next()
                }
            }
        }
        return pages
    }

    /// Writes a compacted copy (`mdb_env_copy2` with `MDB_CP_COMPACT`: a consistent snapshot,
    /// while other processes keep writing) to `destination`, which must not exist. `asNewFile`
    /// makes the copy a file of its own: a new file id, and not a replication origin (its
    /// commits record no new values; it keeps the origin id, so a follower can start from it).
    package func writeCompactedCopy(to destination: String, asNewFile: Bool = false) throws {
        let destination = URL(fileURLWithPath: destination).standardizedFileURL.path
        if FileManager.default.fileExists(atPath: destination) {
            throw StorageError(.fileExists, "Cannot write a copy to '\(destination)': the file exists")
        }
        do {
            try environment.copyCompacted(to: destination)
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            if error.code == EEXIST { throw StorageError(.fileExists, "Cannot write a copy to '\(destination)': the file exists") }
            if error.code == ENOENT { throw StorageError(.fileNotFound, "Cannot write a copy to '\(destination)': the directory does not exist") }
            if error.code == EACCES || error.code == EPERM || error.code == EROFS {
                throw StorageError(.filePermissionDenied, "Cannot write a copy to '\(destination)': permission denied")
            }
            throw StorageError.lmdb(error, "Writing a copy of '\(path)' to '\(destination)'")
        }
        if asNewFile { try Self.makeNewFile(destination, encryptionKey: encryption?.key) }
    }

    /// Gives the file at `path` a new file id and stops its commits recording new values,
    /// with no commit of its own. A copy of a file never committed to is left as it is: its
    /// first commit makes it a Strata database with a file id of its own.
    private static func makeNewFile(_ path: String, encryptionKey: EncryptionKey?) throws {
        let txn = try StorageFile.open(path: path, options: Options(encryptionKey: encryptionKey)).beginWrite()
        defer { txn.abort() }
        guard txn.version > 0 else { return }
        try txn.meta.makeNewFile()
        try txn.commitRebuilt(txn.version)
    }

    /// Compacts the file at `path` in place when `decide(totalBytes, usedBytes)` says so and
    /// no one else uses it: a compacted copy beside it replaces it (rename). Returns whether
    /// it did. Does nothing when the file is open in this process, is open in another one
    /// (checked before and again just before the rename), or does not exist.
    /// An encrypted file is opened with `encryptionKey`: the copy keeps its records as they are.
    package static func compactIfWanted(path: String, syncOnCommit: Bool, encryptionKey: EncryptionKey? = nil,
                                        decide: (Int, Int) -> Bool) throws -> Bool {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path), openInstance(path: path) == nil,
              try otherProcessUsing(path: path) == nil else { return false }
        let temporary = path + ".compact-\(ProcessIdentity.current.pid)"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            let file = try StorageFile.open(path: path, options: Options(readOnly: false, syncOnCommit: syncOnCommit, encryptionKey: encryptionKey))
            let (total, used) = try file.sizes()
            guard decide(total, used) else { return false }
            try file.writeCompactedCopy(to: temporary)
        }
        // The environment is closed here (the registry holds it weakly).
        guard openInstance(path: path) == nil, try otherProcessUsing(path: path) == nil else {
            try? FileManager.default.removeItem(atPath: temporary)
            return false
        }
        do {
            try SystemCalls.rename(temporary, to: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw StorageError(.fileOperationFailed, "Cannot replace '\(path)' by its compacted copy: \(error.reason)")
        }
        return true
    }
}
