import LMDB

extension MetaStore {
    /// The file's replication origin id (meta `replicationOrigin`, UTF-8 text), given by its
    /// first push to PostgreSQL; nil before that (docs/REPLICATION.md).
    package var replicationOrigin: String? {
        get throws(StorageError) {
            guard let db = transaction.database(MetaKeys.database) else { return nil }
            let bytes = try StorageError.translating("Reading the replication origin of '\(transaction.file.path)'") {
                try MetaKeys.readBytes(transaction.lmdb, db, MetaKeys.replicationOrigin)
            }
            return bytes.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Stores the file's replication origin id (committed with the rest of this write).
    package func setReplicationOrigin(_ origin: String) throws(StorageError) {
        let context = "Writing the replication origin of '\(transaction.file.path)'"
        guard let db = transaction.database(MetaKeys.database) else { throw StorageError(.fail, "\(context): the file has no meta database") }
        try StorageError.translating(context) { try MetaKeys.writeBytes(transaction.lmdb, db, MetaKeys.replicationOrigin, Array(origin.utf8)) }
    }
}

extension MetaKeys {
    /// UTF-8: the id under which the file's commits are pushed to PostgreSQL.
    static let replicationOrigin = "replicationOrigin"
}
