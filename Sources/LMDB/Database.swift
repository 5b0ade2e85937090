import CLMDB

/// A named database (LMDB "DBI") inside an environment: a B+tree of sorted keys.
///
/// The handle stays valid for the environment's lifetime once the transaction that opened
/// it has committed (LMDB's rule for `mdb_dbi_open`).
package struct Database: Hashable, Sendable {
    package let handle: MDB_dbi

    package init(handle: MDB_dbi) { self.handle = handle }

    /// How a database stores its entries (`mdb_dbi_open` flags).
    package struct Flags: OptionSet, Sendable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Create the database if it does not exist (`MDB_CREATE`).
        package static let create = Flags(rawValue: UInt32(MDB_CREATE))
        /// Several sorted values per key (`MDB_DUPSORT`).
        package static let duplicateSort = Flags(rawValue: UInt32(MDB_DUPSORT))
        /// With `duplicateSort`: every value has the same size (`MDB_DUPFIXED`).
        package static let duplicateFixed = Flags(rawValue: UInt32(MDB_DUPFIXED))
    }
}

/// Flags for `Transaction.put` (`mdb_put`).
package struct PutFlags: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Fail with `MDB_KEYEXIST` if the key exists (`MDB_NOOVERWRITE`).
    package static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// For duplicate-sorted databases: fail if the pair exists (`MDB_NODUPDATA`).
    package static let noDuplicateData = PutFlags(rawValue: UInt32(MDB_NODUPDATA))
    /// The key is greater than every key in the database (`MDB_APPEND`): fast, dense pages.
    package static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
}

/// Wraps bytes as an `MDB_val` for the duration of `body`.
@inline(__always)
func withValue<R>(_ bytes: UnsafeRawBufferPointer, _ body: (inout MDB_val) throws(LMDBError) -> R) throws(LMDBError) -> R {
    var val = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
    return try body(&val)
}

extension MDB_val {
    /// The value's bytes; valid only until the transaction ends or writes again.
    @inline(__always)
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: mv_data, count: mv_size) }

    /// `bytes`, checked against `bounds` when there are any (`ReadBounds`).
    @inline(__always)
    func bytes(within bounds: ReadBounds?) throws(LMDBError) -> UnsafeRawBufferPointer {
        guard let bounds else { return bytes }
        return try bounds.bytes(self)
    }
}
