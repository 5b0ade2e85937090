import Foundation
import LMDB

/// Reads and writes the stored schema (JSON under the meta key `schema`), with a cache of the
/// last decoded bytes so that a new snapshot does not decode an unchanged schema again.
/// In a file of format 3 or later the record is sealed (`Checksum`), and verified before it is
/// decoded (the cache holds verified bytes only); in an encrypted file it is encrypted
/// (`RecordCrypto`), class and property names with it.
package enum SchemaStore {
    /// The meta database's name as the additional data of the encrypted schema.
    static let metaName = RecordCipher.name(MetaKeys.database)

    static func load(_ txn: Transaction, _ meta: Database, sealRequired: Bool, crypto: RecordCrypto?,
                     cache file: StorageFile) throws(StorageError) -> FileSchema {
        // The stored record is copied only when it is not the one decoded last.
        var cached: FileSchema?
        let bytes: [UInt8]? = try StorageError.translating("Reading the schema of '\(file.path)'") {
            try MetaKeys.withKey(MetaKeys.schema) { (k) throws(LMDBError) -> [UInt8]? in
                guard let stored = try txn.get(meta, key: k) else { return nil }
                cached = file.cachedSchema(for: stored)
                return cached == nil ? Array(stored) : []
            }
        }
        if let cached { return cached }
        guard let bytes else { return FileSchema() }
        func damaged() -> StorageError { StorageError(.invalidDatabase, "'\(file.path)' is damaged: its stored schema \(sealRequired ? "does not match its checksum or " : "")cannot be read; run `strata check \(file.path)`") }
        let json = bytes.withUnsafeBytes { stored in
            Array(MetaKeys.schema.utf8).withUnsafeBytes { key in
                if let crypto { return crypto.withOpened(metaName, key: key, stored) { $0.map { Data($0) } } }
                return Checksum.opened(stored, Checksum.metaSeed, key: key, required: sealRequired).map { Data($0) }
            }
        }
        guard let json, let schema = self.schema(json: [UInt8](json)) else { throw damaged() }
        file.cacheSchema(schema, for: bytes)
        return schema
    }

    /// The stored form of `schema` before it is sealed: JSON, an array of classes.
    package static func json(_ schema: FileSchema) throws(StorageError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do { return [UInt8](try encoder.encode(schema.sorted)) } catch {
            throw StorageError(.fail, "The schema cannot be encoded: \(error)")
        }
    }

    /// The schema stored as `json` (`json(_:)`), nil when it does not decode.
    package static func schema(json: [UInt8]) -> FileSchema? {
        guard let classes = try? JSONDecoder().decode([ClassSchema].self, from: Data(json)) else { return nil }
        return FileSchema(classes: Dictionary(classes.map { ($0.name, $0) }) { a, _ in a })
    }

    /// Writes `schema`, sealed when `sealed` (a file of format 3 or later), encrypted with
    /// `crypto` in an encrypted file.
    static func save(_ schema: FileSchema, _ txn: Transaction, _ meta: Database, sealed: Bool, crypto: RecordCrypto?) throws {
        let json = try self.json(schema)
        let key = Array(MetaKeys.schema.utf8)
        let record = if let crypto {
            key.withUnsafeBytes { k in json.withUnsafeBytes { crypto.seal(metaName, key: k, $0) } }
        } else {
            sealed ? key.withUnsafeBytes { Checksum.sealed(json, Checksum.metaSeed, key: $0) } : json
        }
        try key.withUnsafeBytes { k in
            try record.withUnsafeBytes { try txn.put(meta, key: k, value: $0) }
        }
    }
}

