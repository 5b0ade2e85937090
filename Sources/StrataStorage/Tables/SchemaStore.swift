import Foundation
import LMDB

/// Reads and writes the stored schema (JSON under the meta key `schema`), with a cache of the
/// last decoded bytes so that a new snapshot does not decode an unchanged schema again.
enum SchemaStore {
    static func load(_ txn: Transaction, _ meta: Database, cache file: StorageFile) throws(StorageError) -> FileSchema {
        let bytes: [UInt8]? = try StorageError.translating("Reading the schema of '\(file.path)'") {
            try MetaKeys.withKey(MetaKeys.schema) { (k) throws(LMDBError) in try txn.get(meta, key: k).map { Array($0) } }
        }
        guard let bytes else { return FileSchema() }
        if let cached = file.cachedSchema(for: bytes) { return cached }
        guard let classes = try? JSONDecoder().decode([ClassSchema].self, from: Data(bytes)) else {
            throw StorageError(.invalidDatabase, "'\(file.path)' is damaged: its stored schema cannot be read")
        }
        let schema = FileSchema(classes: Dictionary(uniqueKeysWithValues: classes.map { ($0.name, $0) }))
        file.cacheSchema(schema, for: bytes)
        return schema
    }

    static func save(_ schema: FileSchema, _ txn: Transaction, _ meta: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(schema.sorted)
        var key = MetaKeys.schema
        try key.withUTF8 { k in
            try data.withUnsafeBytes { try txn.put(meta, key: UnsafeRawBufferPointer(k), value: $0) }
        }
    }
}

