import LMDB

extension MetaStore {
    /// The file's replication origin id (meta `replicationOrigin`, UTF-8 text), given by its
    /// first push to PostgreSQL; nil before that (docs/REPLICATION.md).
    package var replicationOrigin: String? {
        get throws(StorageError) { try text(MetaKeys.replicationOrigin, "Reading the replication origin of '\(transaction.file.path)'") }
    }

    /// Stores the file's replication origin id (committed with the rest of this write).
    package func setReplicationOrigin(_ origin: String) throws(StorageError) {
        try setText(MetaKeys.replicationOrigin, origin, "Writing the replication origin of '\(transaction.file.path)'")
    }
}

extension MetaStore {
    /// The origin whose commits this file replays (meta `replicationFollows`), nil for a file
    /// that follows none: a follower is written only by replaying (`StorageTransaction.replay`).
    package var replicationFollows: String? {
        get throws(StorageError) { try text(MetaKeys.replicationFollows, "Reading the replication settings of '\(transaction.file.path)'") }
    }

    /// The newest origin version a follower holds (meta `replicationApplied`), 0 for none.
    package var replicationApplied: UInt64 {
        get throws(StorageError) { try integer(MetaKeys.replicationApplied, "Reading the replication settings of '\(transaction.file.path)'") ?? 0 }
    }

    /// When the newest origin version a follower holds was committed on the origin (meta
    /// `replicationAppliedTime`, seconds since 1970), nil for none.
    package var replicationAppliedTime: Double? {
        get throws(StorageError) {
            let bits: UInt64? = try integer(MetaKeys.replicationAppliedTime, "Reading the replication settings of '\(transaction.file.path)'")
            return bits.map { Double(bitPattern: $0) }
        }
    }

    /// Records that this file follows `origin` and holds its version `applied`, committed
    /// there at `time` (committed with the rest of this write).
    func setReplicationFollows(_ origin: String, applied: UInt64, committedAt time: Double) throws(StorageError) {
        let context = "Writing the replication settings of '\(transaction.file.path)'"
        try setText(MetaKeys.replicationFollows, origin, context)
        try setInteger(MetaKeys.replicationApplied, applied, context)
        try setInteger(MetaKeys.replicationAppliedTime, time.bitPattern, context)
    }
}

extension MetaStore {
    /// The UTF-8 text stored under meta `key`, nil when there is none.
    private func text(_ key: String, _ context: @autoclosure () -> String) throws(StorageError) -> String? {
        guard let db = transaction.database(MetaKeys.database) else { return nil }
        let bytes = try StorageError.translating(context()) { try MetaKeys.readBytes(transaction.lmdb, db, key) }
        return bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Stores `text` as UTF-8 under meta `key` (committed with the rest of this write).
    private func setText(_ key: String, _ text: String, _ context: String) throws(StorageError) {
        guard let db = transaction.database(MetaKeys.database) else { throw StorageError(.fail, "\(context): the file has no meta database") }
        transaction.changedMeta = true
        try StorageError.translating(context) { try MetaKeys.writeBytes(transaction.lmdb, db, key, Array(text.utf8)) }
    }
}

extension MetaKeys {
    /// UTF-8: the id under which the file's commits are pushed to PostgreSQL.
    static let replicationOrigin = "replicationOrigin"
    /// UTF-8: the origin whose commits a follower replays.
    static let replicationFollows = "replicationFollows"
    /// u64 LE: the newest origin version a follower holds.
    static let replicationApplied = "replicationApplied"
    /// f64 LE: when that version was committed on the origin, seconds since 1970.
    static let replicationAppliedTime = "replicationAppliedTime"
}
