import CLMDB
import CStrataFaultGuard
import Glibc

/// An error returned by an LMDB call, translated once from its `MDB_*` or errno code.
///
/// Higher layers wrap it with context (the file, the table); the `message` is `mdb_strerror`'s.
package struct LMDBError: Error, Equatable, CustomStringConvertible {
    /// The raw return code: an `MDB_*` constant, an errno value, or `STRATA_LMDB_FAULT`.
    package let code: Int32
    /// For `faulted`, what stopped LMDB: the signal, or its assertion's text.
    private let faultReason: String?

    package init(_ code: Int32) {
        self.code = code
        faultReason = code == STRATA_LMDB_FAULT ? String(cString: strata_fault_guard_reason()) : nil
    }

    /// Errors are equal when their codes are.
    package static func == (a: LMDBError, b: LMDBError) -> Bool { a.code == b.code }

    /// `MDB_KEYEXIST`: the key/data pair already exists (with `MDB_NOOVERWRITE`/`MDB_NODUPDATA`).
    package static let keyExists = LMDBError(MDB_KEYEXIST)
    /// `MDB_NOTFOUND`: no matching key.
    package static let notFound = LMDBError(MDB_NOTFOUND)
    /// `MDB_MAP_FULL`: the environment's map size is reached; grow it and retry.
    package static let mapFull = LMDBError(MDB_MAP_FULL)
    /// `MDB_MAP_RESIZED`: another process grew the map; adopt the new size and retry.
    package static let mapResized = LMDBError(MDB_MAP_RESIZED)
    /// `MDB_INVALID`: the file is not an LMDB environment.
    package static let invalid = LMDBError(MDB_INVALID)
    /// `MDB_VERSION_MISMATCH`: the file was written by an incompatible LMDB version.
    package static let versionMismatch = LMDBError(MDB_VERSION_MISMATCH)
    /// `MDB_READERS_FULL`: every reader slot is taken.
    package static let readersFull = LMDBError(MDB_READERS_FULL)
    /// `MDB_DBS_FULL`: more named databases than `maxDatabases`.
    package static let databasesFull = LMDBError(MDB_DBS_FULL)
    /// `MDB_BAD_VALSIZE`: a key is empty or longer than the maximum key size.
    package static let badValueSize = LMDBError(MDB_BAD_VALSIZE)
    /// A page LMDB followed is not what the B-tree says it is: the file is damaged.
    package static let corrupted = LMDBError(MDB_CORRUPTED)
    /// A page number points past the file's last page: the file is damaged.
    package static let pageNotFound = LMDBError(MDB_PAGE_NOTFOUND)
    /// A page with less room than its header says (`MDB_PAGE_FULL`, which LMDB calls an
    /// internal error): only a damaged page's bounds say so.
    package static let pageFull = LMDBError(MDB_PAGE_FULL)
    /// A B-tree deeper than LMDB's cursors follow (`MDB_CURSOR_FULL`, 32 levels): a real
    /// tree is never near it, so its pages loop, and the file is damaged.
    package static let cursorFull = LMDBError(MDB_CURSOR_FULL)
    /// LMDB faulted or failed one of its own assertions reading a page (`CStrataFaultGuard`):
    /// the file is damaged where LMDB does not check it.
    package static let faulted = LMDBError(STRATA_LMDB_FAULT)

    /// `mdb_strerror`'s text for the code, or what stopped LMDB for `faulted`.
    package var message: String {
        if let faultReason { return "LMDB stopped on a damaged page: \(faultReason)" }
        return String(cString: mdb_strerror(code))
    }

    package var description: String { "LMDB error \(code): \(message)" }
}

/// Runs an LMDB call and throws its non-zero return code as an `LMDBError`.
@inline(__always)
package func check(_ rc: Int32) throws(LMDBError) {
    if rc != 0 { throw LMDBError(rc) }
}
