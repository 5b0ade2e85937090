import LMDB

/// The retained history entries of a file in one transaction (`strata.history`, keyed by
/// version, big endian): read by snapshots, appended to (and trimmed) by each commit.
package struct HistoryStore {
    @usableFromInline let transaction: StorageTransaction

    @usableFromInline init(_ transaction: StorageTransaction) { self.transaction = transaction }

    private var path: String { transaction.file.path }

    /// The history database, if the file has one yet.
    package var database: Database? { transaction.database(MetaKeys.history) }

    /// How many entries are retained, and the oldest and newest retained versions.
    package func bounds() throws(StorageError) -> (count: Int, oldest: UInt64?, newest: UInt64?) {
        guard let db = database else { return (0, nil, nil) }
        let txn = transaction.lmdb
        return try StorageError.translating("Reading the history of '\(path)'") {
            try txn.withCursor(db) { cursor in
                let oldest = try cursor.first().map { Self.version(ofKey: $0.key) }
                let newest = try cursor.last().map { Self.version(ofKey: $0.key) }
                return (try txn.count(db), oldest, newest)
            }
        }
    }

    /// The entry of `version`, or nil when it is not retained (or never existed).
    package func entry(_ version: UInt64) throws(StorageError) -> HistoryEntry? {
        guard let db = database else { return nil }
        var key = version.bigEndian
        let path = self.path
        return try StorageError.translating("Reading history entry \(version) of '\(path)'") {
            try withUnsafeBytes(of: &key) { k -> HistoryEntry? in
                guard let bytes = try transaction.lmdb.get(db, key: k) else { return nil }
                return try decode(bytes, key: k, version)
            }
        }
    }

    /// Calls `body` with each retained entry whose version is above `since` (all when nil),
    /// newest first or oldest first, until it returns false.
    package func forEach(after since: UInt64?, newestFirst: Bool, _ body: (HistoryEntry) throws -> Bool) throws {
        guard let db = database else { return }
        if !newestFirst && since == .max { return }
        let path = self.path
        try StorageError.translatingLMDBErrors("Reading the history of '\(path)'") {
            try transaction.lmdb.withCursor(db) { cursor in
                var entry: Cursor.Entry?
                if newestFirst {
                    entry = try cursor.last()
                } else {
                    var start = ((since ?? 0) &+ 1).bigEndian
                    entry = try withUnsafeBytes(of: &start) { try cursor.seek(atLeast: $0) }
                }
                while let current = entry {
                    let version = Self.version(ofKey: current.key)
                    if let since, version <= since { return }
                    guard try body(try decode(current.value, key: current.key, version)) else { return }
                    entry = newestFirst ? try cursor.previous() : try cursor.next()
                }
            }
        }
    }

    /// Writes the entry of a commit, then removes what `retention` no longer keeps.
    func append(_ entry: HistoryEntry, keeping retention: HistoryRetentionPolicy, _ context: @autoclosure () -> String) throws(StorageError) {
        guard let db = database else { throw StorageError(.fail, "\(context()): no history database") }
        var key = entry.version.bigEndian
        let crypto = transaction.crypto
        let record = withUnsafeBytes(of: &key) { k in
            if let crypto { return entry.encoded().withUnsafeBytes { crypto.seal(Self.historyName, key: k, $0) } }
            return entry.encoded(sealedFor: transaction.seals ? k : nil)
        }
        let txn = transaction.lmdb
        try StorageError.translating(context()) {
            try withUnsafeBytes(of: &key) { k in
                try record.withUnsafeBytes { try txn.put(db, key: k, value: $0) }
            }
            try Self.trim(txn, db, retention, now: entry.time) { oldest in
                // An encrypted entry's time is read once it is decrypted.
                guard let crypto else { return HistoryEntry.header(oldest.value)?.time }
                return crypto.withOpened(Self.historyName, key: oldest.key, oldest.value) { $0.flatMap { HistoryEntry.header($0)?.time } }
            }
        }
    }

    /// Removes up to `HistoryRetentionPolicy.removalsPerCommit` of the oldest entries that
    /// `policy` does not keep, as of `now` (seconds since 1970). Returns how many it removed.
    @discardableResult
    private static func trim(_ txn: Transaction, _ db: Database, _ policy: HistoryRetentionPolicy, now: Double,
                             time: (Cursor.Entry) -> Double?) throws -> Int {
        if policy.keepsEverything { return 0 }
        var remaining = try txn.count(db)
        if let keep = policy.keepCount, policy.keepAge == nil, remaining <= keep,
           remaining <= policy.maximumCount ?? .max { return 0 }
        return try txn.withCursor(db) { cursor in
            var removed = 0
            while removed < HistoryRetentionPolicy.removalsPerCommit, remaining > 1, let oldest = try cursor.first() {
                let overCap = remaining > (policy.maximumCount ?? .max)
                if !overCap {
                    if let keep = policy.keepCount, remaining <= keep { break }
                    if let age = policy.keepAge {
                        // An entry that does not decode is removed, not kept forever.
                        if let time = time(oldest), time >= now - age { break }
                    }
                    if policy.keepCount == nil && policy.keepAge == nil { break }
                }
                try cursor.deleteCurrent()
                remaining -= 1
                removed += 1
            }
            return removed
        }
    }

    /// The version of the newest commit `txn` sees: the key of the newest history entry
    /// (retention always keeps it), or the meta `version` of a format 1 file, whichever is
    /// higher (they agree in a file only this code wrote); 0 before the first commit.
    static func newestVersion(_ txn: Transaction, meta: Database?, history: Database?,
                              _ context: @autoclosure () -> String) throws(StorageError) -> UInt64 {
        try StorageError.translating(context()) {
            let counted: UInt64 = try meta.flatMap { try MetaKeys.readInteger(txn, $0, MetaKeys.version) } ?? 0
            guard let history else { return counted }
            let newest = try txn.withCursor(history) { try $0.last() }.map { version(ofKey: $0.key) } ?? 0
            return max(counted, newest)
        }
    }

    /// The version a history key stands for (0 for a key of another size).
    static func version(ofKey key: UnsafeRawBufferPointer) -> UInt64 {
        key.count == 8 ? UInt64(bigEndian: key.loadUnaligned(as: UInt64.self)) : 0
    }

    /// The history database's name as the additional data of its encrypted entries.
    static let historyName = RecordCipher.name(MetaKeys.history)

    /// The entry stored as `stored` under `key`, its seal verified or decrypted.
    private func decode(_ stored: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, _ version: UInt64) throws(StorageError) -> HistoryEntry {
        let sealRequired = transaction.seals
        let entry: HistoryEntry? = if let crypto = transaction.crypto {
            crypto.withOpened(Self.historyName, key: key, stored) { $0.flatMap { HistoryEntry(decoding: $0) } }
        } else {
            HistoryEntry.opened(stored, key: key, sealRequired: sealRequired).flatMap { HistoryEntry(decoding: $0) }
        }
        guard let entry, entry.version == version else {
            throw StorageError(.invalidDatabase, "'\(path)' is damaged: the history entry of version \(version) \(sealRequired ? "does not match its checksum or " : "")does not decode; run `strata check \(path)`")
        }
        return entry
    }
}

extension StorageTransaction {
    /// The retained history entries of the file.
    @inlinable package var history: HistoryStore { HistoryStore(self) }
}
