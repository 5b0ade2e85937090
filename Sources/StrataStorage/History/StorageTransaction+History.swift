import LMDB

/// Reading the retained history entries (`strata.history`) of a snapshot.
extension StorageTransaction {
    /// How many entries are retained, and the oldest and newest retained versions.
    package func historyBounds() throws -> (count: Int, oldest: UInt64?, newest: UInt64?) {
        guard let db = historyDatabase else { return (0, nil, nil) }
        return try lmdbCall("Reading the history of '\(file.path)'") {
            try lmdb.withCursor(db) { cursor in
                let oldest = try cursor.first().map { Self.historyVersion(ofKey: $0.key) }
                let newest = try cursor.last().map { Self.historyVersion(ofKey: $0.key) }
                return (try lmdb.count(db), oldest, newest)
            }
        }
    }

    /// The entry of `version`, or nil when it is not retained (or never existed).
    package func historyEntry(_ version: UInt64) throws -> HistoryEntry? {
        guard let db = historyDatabase else { return nil }
        var key = version.bigEndian
        return try lmdbCall("Reading history entry \(version) of '\(file.path)'") {
            try withUnsafeBytes(of: &key) { k -> HistoryEntry? in
                guard let bytes = try lmdb.get(db, key: k) else { return nil }
                return try Self.decode(bytes, version, file.path)
            }
        }
    }

    /// Calls `body` with each retained entry whose version is above `since` (all when nil),
    /// newest first or oldest first, until it returns false.
    package func forEachHistoryEntry(after since: UInt64?, newestFirst: Bool,
                                     _ body: (HistoryEntry) throws -> Bool) throws {
        guard let db = historyDatabase else { return }
        let context = "Reading the history of '\(file.path)'"
        if !newestFirst && since == .max { return }
        try lmdbCall(context) {
            try lmdb.withCursor(db) { cursor in
                var entry: Cursor.Entry?
                if newestFirst {
                    entry = try cursor.last()
                } else {
                    var start = ((since ?? 0) &+ 1).bigEndian
                    entry = try withUnsafeBytes(of: &start) { try cursor.seek(atLeast: $0) }
                }
                while let current = entry {
                    let version = Self.historyVersion(ofKey: current.key)
                    if let since, version <= since { return }
                    guard try body(try Self.decode(current.value, version, file.path)) else { return }
                    entry = newestFirst ? try cursor.previous() : try cursor.next()
                }
            }
        }
    }

    /// The version a history key stands for (0 for a key of another size).
    static func historyVersion(ofKey key: UnsafeRawBufferPointer) -> UInt64 {
        key.count == 8 ? UInt64(bigEndian: key.loadUnaligned(as: UInt64.self)) : 0
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, _ version: UInt64, _ path: String) throws -> HistoryEntry {
        guard let entry = HistoryEntry(decoding: bytes) else {
            throw StorageError(.invalidDatabase, "'\(path)' is damaged: the history entry of version \(version) does not decode")
        }
        return entry
    }
}
