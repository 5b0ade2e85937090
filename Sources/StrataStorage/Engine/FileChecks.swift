import Foundation
import Glibc
import LMDB

/// The checks that turn a bad path or a bad file into a clear error before LMDB maps it.
enum FileChecks {
    /// The smallest page LMDB writes (its meta pages are one page each).
    private static let minimumPageSize = 4096

    /// Checks the path itself: its directory exists, it is not a directory, and a read-only
    /// open finds a non-empty file.
    static func checkBeforeOpen(path: String, readOnly: Bool) throws {
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            throw StorageError(.fileNotFound, "Cannot open '\(path)': the directory '\(directory)' does not exist (Strata does not create directories)")
        }
        if !directory.isEmpty, !isDirectory.boolValue {
            // RealmSwift's words, about the `.lock` file it opens first (Strata's is beside the
            // database too).
            throw StorageError(.fileOperationFailed, "Failed to open file at path '\(path).lock': parent path is not a directory",
                               path: path + ".lock")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw StorageError(.fileAccess, "Cannot open '\(path)': it is a directory, not a database file")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size == 0, readOnly {
                throw StorageError(.invalidDatabase, "Cannot open '\(path)' read-only: the file is empty (a new database can only be created read-write)")
            }
            // Smaller than the two meta pages every database begins with (RealmSwift's words).
            if size > 0, size < 2 * minimumPageSize {
                throw StorageError(.invalidDatabase, "Failed to open Realm file at path '\(path)': file is non-empty but too small (\(size) bytes) to be a valid Realm.")
            }
            if size > 0 { try checkMetaPageSizes(path: path) }
        } else if readOnly {
            // RealmSwift's words: the file a read-only open needs does not exist.
            throw StorageError(.fileNotFound, "Failed to open Realm file at path '\(path)': No such file or directory")
        }
    }

    /// Checks the page size each LMDB meta page names (at byte 40, after its magic number at
    /// byte 16), which LMDB divides by before it checks it: a damaged one (0) would end the
    /// process with SIGFPE. The first meta page says where the second one is. A page without
    /// the magic number is left to LMDB, which refuses it as not an LMDB file.
    private static func checkMetaPageSizes(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }  // LMDB's own open reports why
        defer { close(fd) }
        var offset = 0
        for meta in 0..<2 {
            var header = [UInt8](repeating: 0, count: 48)
            guard pread(fd, &header, header.count, off_t(offset)) == header.count else { return }
            func word(_ at: Int) -> UInt32 { header[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
            guard word(16) == 0xBEEF_C0DE else { return }
            let pageSize = Int(word(40))
            guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else {
                throw StorageError(.invalidDatabase, "Cannot open '\(path)': the file is damaged: its meta page \(meta) names a page size of \(pageSize) bytes; run `strata check \(path)`")
            }
            offset = pageSize
        }
    }

    /// Checks what LMDB cannot: a meta page naming a transaction past any count is damaged,
    /// and a file shorter than the pages its header claims is truncated (mapping it would
    /// fault on the missing pages).
    /// The header is read before the size: another process's commit between the two only
    /// grows the file (its pages are written before its header), so a live file never looks
    /// truncated.
    static func checkAfterOpen(_ environment: Environment, path: String) throws {
        // LMDB counts transactions from 1; a damaged meta page can name one past 2^63, which
        // LMDB then opens as the newest.
        let newest = environment.newestMetaTransactionID
        if newest < 0 {
            throw StorageError(.invalidDatabase, "Cannot open '\(path)': the file is damaged: its newest meta page names transaction \(UInt(bitPattern: newest)); run `strata check \(path)`")
        }
        let used = environment.usedBytes
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw StorageError(.fileAccess, "Cannot open '\(path)': reading its size failed: \(String(cString: strerror(errno)))")
        }
        if Int(st.st_size) < used, st.st_size > 0 {
            throw StorageError(.invalidDatabase, "Cannot open '\(path)': the file is truncated (\(st.st_size) bytes on disk, \(used) in use)")
        }
    }

    /// Allows a read-only open without LMDB's lock file (`MDB_NOLOCK`, after `error`) only
    /// where no process can be writing: the file system is read-only, or the lock file does
    /// not exist (no process has the file open) and cannot be created. A lock file this user
    /// may only read belongs to processes that may be writing: reading without registering
    /// in it would let them reuse pages a snapshot here still reads, so that is refused.
    static func checkReadingWithoutLockFile(path: String, error: LMDBError, access: LockFileChecks.Access) throws {
        guard error.code != EROFS, case .notWritable(exists: true) = access else { return }
        let lock = LockFileChecks.lmdbLockPath(forDatabaseAt: path)
        throw StorageError(.filePermissionDenied, "Cannot open '\(path)' read-only: this user may not write its lock file '\(lock)', where every reader registers the snapshot it reads so that writers keep its pages; give this user write access to it (Strata creates its files 0666 masked by the umask: with umask 002, a group shares them)", underlying: error)
    }

    /// Translates an LMDB open failure into a storage error naming the path.
    static func openError(_ error: LMDBError, path: String) -> StorageError {
        switch error.code {
        case EACCES, EPERM, EROFS:
            return StorageError(.filePermissionDenied, "Cannot open '\(path)': permission denied", underlying: error)
        case ENOENT:
            return StorageError(.fileNotFound, "Cannot open '\(path)': no such file", underlying: error)
        case EISDIR:
            return StorageError(.fileAccess, "Cannot open '\(path)': it is a directory", underlying: error)
        case ENOMEM:
            return StorageError(.addressSpaceExhausted, "Cannot open '\(path)': the process has no address space left to map it; close other files, or raise the limit (ulimit -v)", underlying: error)
        case ENOSPC, EDQUOT:
            return StorageError(.outOfDiskSpace, "Cannot open '\(path)': no space left on device; free some space and open again", underlying: error)
        case EINVAL:
            return StorageError(.invalidDatabase, "Cannot open '\(path)': not a Strata database (the file is damaged or of another kind)", underlying: error)
        default:
            if error == .invalid || error == .versionMismatch {
                return StorageError(.invalidDatabase, "Cannot open '\(path)': not a Strata database (\(error.message))", underlying: error)
            }
            return StorageError.lmdb(error, "Cannot open '\(path)'")
        }
    }
}
