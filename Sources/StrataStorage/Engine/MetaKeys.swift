import LMDB

/// The keys of the `strata.meta` database (docs/FILE-FORMAT.md, "Meta").
package enum MetaKeys {
    /// The meta database's name.
    static let database = "strata.meta"
    /// The history database's name.
    static let history = "strata.history"
    /// The backlinks of links held by mixed values (`TypedLinkStore`).
    static let typedLinks = "strata.typedlinks"
    /// u32 LE: the file format version.
    static let format = "format"
    /// u64 LE: the version of the newest commit.
    static let version = "version"
    /// u64 LE: a random id of the database, written by its first commit (format 3).
    static let fileID = "fileID"
    /// An encrypted file's marker: the scheme byte, then the key check (`FileEncryption`).
    static let encryption = "encryption"
    /// JSON: the stored schema, an array of classes.
    static let schema = "schema"
    /// u64 LE: the schema version set by the configuration (migrations).
    static let schemaVersion = "schemaVersion"
    /// Prefix of u64 LE: the next object key of a class without an integer primary key.
    static let sequencePrefix = "seq."

    /// The rows database of a class.
    static func rows(_ className: String) -> String { "rows.\(className)" }
    /// The backlinks database of a link property (by its stable id): target key → origin keys.
    static func backlinks(_ className: String, _ propertyID: Int) -> String { "backlinks.\(className).\(propertyID)" }
    /// The database of a list property (by its stable id): directories and chunks by owner key.
    static func list(_ className: String, _ propertyID: Int) -> String { "list.\(className).\(propertyID)" }
    /// The index database of a property (by its stable id).
    static func index(_ className: String, _ propertyID: Int) -> String { "index.\(className).\(propertyID)" }

    /// Reads a little-endian integer value.
    static func readInteger<T: FixedWidthInteger>(_ txn: Transaction, _ db: Database, _ key: String) throws(LMDBError) -> T? {
        try withKey(key) { (k) throws(LMDBError) -> T? in
            guard let bytes = try txn.get(db, key: k), bytes.count == MemoryLayout<T>.size else { return nil }
            return T(littleEndian: bytes.loadUnaligned(as: T.self))
        }
    }

    /// Writes a little-endian integer value.
    static func writeInteger<T: FixedWidthInteger>(_ txn: Transaction, _ db: Database, _ key: String, _ value: T) throws(LMDBError) {
        var v = value.littleEndian
        try withKey(key) { (k) throws(LMDBError) in
            try withUnsafeBytes(of: &v) { (b) throws(LMDBError) in try txn.put(db, key: k, value: b) }
        }
    }

    /// Reads a value as bytes.
    static func readBytes(_ txn: Transaction, _ db: Database, _ key: String) throws(LMDBError) -> [UInt8]? {
        try withKey(key) { (k) throws(LMDBError) in try txn.get(db, key: k).map { Array($0) } }
    }

    /// Writes a value of bytes.
    static func writeBytes(_ txn: Transaction, _ db: Database, _ key: String, _ value: [UInt8]) throws(LMDBError) {
        try withKey(key) { (k) throws(LMDBError) in
            try value.withUnsafeBytes { v in Result { () throws(LMDBError) in try txn.put(db, key: k, value: v) } }.get()
        }
    }

    /// Calls `body` with the UTF-8 bytes of `key`, passing on the LMDB error it throws.
    static func withKey<R>(_ key: String, _ body: (UnsafeRawBufferPointer) throws(LMDBError) -> R) throws(LMDBError) -> R {
        var key = key
        return try key.withUTF8 { k in Result { () throws(LMDBError) in try body(UnsafeRawBufferPointer(k)) } }.get()
    }
}
