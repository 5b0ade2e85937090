import Foundation
import LMDB

/// Copies whose records are sealed again for another key: encrypting a plain file,
/// decrypting an encrypted one, or re-keying (docs/ENCRYPTION.md, "Copies with another key").
extension StorageFile {
    /// Writes the newest version of this file to `destination` (which must not exist), every
    /// record opened with this file's key (or checksum) and sealed again for `encryptionKey`
    /// (nil: a plain copy). The copy holds the same objects, lists, backlinks, schema, schema
    /// version and retained history at the same versions; its indexes are built again, since
    /// their keys depend on the key. It gets a new file id. A copy that fails is removed.
    package func writeCopy(to destination: String, encryptionKey: EncryptionKey?) throws {
        let destination = URL(fileURLWithPath: destination).standardizedFileURL.path
        if FileManager.default.fileExists(atPath: destination) {
            throw StorageError(.fileExists, "Cannot write a copy to '\(destination)': the file exists")
        }
        let source = try beginRead()
        defer { source.abort() }
        do {
            let copy = try StorageFile.open(path: destination, options: Options(encryptionKey: encryptionKey))
            let target = try copy.beginWrite()
            try target.store(classes: source.schema.sorted)
            try Self.copyMeta(from: source, to: target)
            for name in source.schema.classes.keys.sorted() {
                guard let from = try source.table(name), let to = try target.table(name) else { continue }
                try Self.copyRows(from, source, to, target)
                try Self.copyLists(from, source, to, target)
                try Self.copyBacklinks(from, source, to, target)
            }
            try Self.copyTypedLinks(source, target)
            try source.history.forEach(after: nil, newestFirst: false) { entry in
                try target.history.append(entry, keeping: .all, "Copying the history of '\(path)'")
                return true
            }
            try target.commitCopy(of: source.version)
        } catch {
            _ = try? Self.deleteFiles(path: destination)
            throw error
        }
    }

    /// The meta values a copy keeps: the schema version, the property-id and key counters,
    /// the replication origin it is a copy of (a follower can start from it), and whether
    /// commits record old values (the format, file id, key check and schema are
    /// written by the copy's own commit).
    private static func copyMeta(from source: StorageTransaction, to target: StorageTransaction) throws {
        guard let from = source.database(MetaKeys.database), let to = target.database(MetaKeys.database) else { return }
        let kept = { (key: String) in
            key == MetaKeys.schemaVersion || key == MetaKeys.oldValues || key == MetaKeys.replicationOrigin
                || key.hasPrefix(MetaKeys.propertyIDPrefix) || key.hasPrefix(MetaKeys.sequencePrefix)
        }
        try StorageError.translating("Copying the meta records of '\(source.file.path)'") {
            try source.lmdb.withCursor(from) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    if kept(String(decoding: e.key, as: UTF8.self)) { try target.lmdb.put(to, key: e.key, value: e.value) }
                    entry = try cursor.next()
                }
            }
        }
    }

    /// Every row, opened and sealed again under its key, and its index entries built again.
    private static func copyRows(_ from: Table, _ source: StorageTransaction, _ to: Table, _ target: StorageTransaction) throws {
        try source.rows.forEach(from) { key, row in
            var bytes = Array(row.bytes)
            bytes[0] &= ~RowEncoder.sealedFlag
            try target.rows.put(to, key, bytes)
            for property in to.indexedProperties { try target.indexes.add(to, property, row.value(property), key) }
            return true
        }
    }

    /// Every list, set and map record (directories, chunks, map keys), opened and sealed again.
    private static func copyLists(_ from: Table, _ source: StorageTransaction, _ to: Table, _ target: StorageTransaction) throws {
        for property in from.listProperties {
            guard let db = from.lists[property.id] else { continue }
            var keys: [ListKey] = []
            try StorageError.translating("Reading the lists of '\(from.name).\(property.name)'") {
                try source.lmdb.withCursor(db) { cursor in
                    try cursor.forEach { k, _ in
                        guard let key = ListKey(k) else {
                            throw StorageError(.invalidDatabase, "'\(source.file.path)' is damaged: the lists of '\(from.name).\(property.name)' hold a key of \(k.count) bytes; run `strata check \(source.file.path)`")
                        }
                        keys.append(key)
                        return true
                    }
                }
            }
            for key in keys {
                let value = try source.lists.read(from, property, key: key) { (bytes) throws(StorageError) in bytes.map { Array($0) } }
                if let value { try target.lists.put(to, property, key: key, value) }
            }
        }
    }

    /// The backlinks of the links mixed values hold, as they are (`TypedLinkStore`).
    private static func copyTypedLinks(_ source: StorageTransaction, _ target: StorageTransaction) throws {
        guard let db = source.database(MetaKeys.typedLinks) else { return }
        let copy = try target.typedLinks.writableDatabase()
        try StorageError.translating("Copying the links held by mixed values") {
            try source.lmdb.withCursor(db) { cursor in
                try cursor.forEach { k, v in try target.lmdb.put(copy, key: k, value: v); return true }
            }
        }
    }

    /// The backlinks, as they are: object keys, the same in both files.
    private static func copyBacklinks(_ from: Table, _ source: StorageTransaction, _ to: Table, _ target: StorageTransaction) throws {
        for (id, db) in from.backlinks {
            guard let copy = to.backlinks[id] else { continue }
            try StorageError.translating("Copying the backlinks of '\(from.name)'") {
                try source.lmdb.withCursor(db) { cursor in
                    try cursor.forEach { k, v in try target.lmdb.put(copy, key: k, value: v); return true }
                }
            }
        }
    }
}
