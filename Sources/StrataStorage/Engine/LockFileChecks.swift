import Glibc

/// The two lock files beside a database (`FILE-lock`, LMDB's; `FILE.lock`, the coordination
/// file): each is used only as a regular file that is no symbolic link, LMDB's is created
/// with its blocks allocated, and both are removed again when an open finds that the file is
/// not a database (so that looking at a wrong file leaves nothing behind).
enum LockFileChecks {
    /// LMDB's lock file for the database at `databasePath`.
    static func lmdbLockPath(forDatabaseAt databasePath: String) -> String { databasePath + "-lock" }

    /// The bytes LMDB's lock file needs for `readers` reader slots: a 64-byte slot each
    /// after two 64-byte header lines (`MDB_txninfo`), rounded up to 4 KiB.
    static func lmdbLockSize(readers: Int) -> Int {
        let page = 4096
        return (readers * 64 + 128 + page - 1) / page * page
    }

    /// The error for a lock file that is not a regular file Strata may use, naming it.
    static func notRegular(_ path: String, _ why: String) -> StorageError {
        StorageError(.incompatibleLockFile, "Cannot use the lock file '\(path)': \(why); a lock file must be a regular file, so remove it (when no process of the database is running) and open again")
    }

    /// Whether LMDB's lock file could be opened for writing.
    enum Access { case writable, notWritable(exists: Bool) }

    /// Prepares LMDB's lock file before LMDB opens it: refuses a symbolic link or anything
    /// but a regular file (naming it), and creates it 0666 masked by the umask with the
    /// blocks of `readers` reader slots allocated, so that LMDB's writes through its mapping
    /// of it cannot fault (`SIGBUS`) on a full file system: that is `.outOfDiskSpace` here.
    /// A file it creates gets `mode` exactly, when one is given.
    static func prepareLMDBLockFile(databasePath: String, readers: Int, mode: mode_t?) throws -> Access {
        let path = lmdbLockPath(forDatabaseAt: databasePath)
        let type = SystemCalls.fileType(atPath: path)
        let exists = type != nil
        if type == S_IFLNK { throw notRegular(path, "it is a symbolic link") }
        if let type, type != S_IFREG { throw notRegular(path, "it is not a regular file") }
        let fd: Int32
        do {
            fd = try SystemCalls.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode: 0o666)
        } catch where [EACCES, EPERM, EROFS].contains(error.code) {
            return .notWritable(exists: exists)
        } catch where error.code == ELOOP {
            throw notRegular(path, "it is a symbolic link")
        } catch {
            throw StorageError(.fileAccess, "Opening the lock file '\(path)' failed: \(error.reason)")
        }
        // Closing is safe: this process has no environment of the file open (POSIX would
        // drop that environment's locks on the file).
        defer { SystemCalls.close(fd) }
        do {
            guard try SystemCalls.isRegularFile(fd, path: path) else { throw notRegular(path, "it is not a regular file") }
            if !exists, let mode { try SystemCalls.setMode(fd, mode, path: path) }
            let size = lmdbLockSize(readers: readers)
            if try SystemCalls.size(of: fd, path: path) < size { try SystemCalls.allocate(fd, length: size, path: path) }
        } catch let error as Errno {
            if error.code == ENOSPC || error.code == EDQUOT {
                if !exists { SystemCalls.remove(path) }
                throw StorageError(.outOfDiskSpace, "Creating the lock file '\(path)' failed: no space left on device; free some space and open again")
            }
            throw StorageError(.fileAccess, "Preparing the lock file '\(path)' failed: \(error.reason)")
        }
        return .writable
    }

    /// The lock files of the database at `databasePath` that do not exist yet.
    static func missing(forDatabaseAt databasePath: String) -> [String] {
        [lmdbLockPath(forDatabaseAt: databasePath), CoordinationFile.path(forDatabaseAt: databasePath)].filter {
            SystemCalls.fileType(atPath: $0) == nil
        }
    }

    /// Removes lock files an open created for a file it then found not to be a database.
    static func remove(_ paths: [String]) {
        for path in paths { SystemCalls.remove(path) }
    }
}
