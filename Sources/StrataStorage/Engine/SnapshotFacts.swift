/// What every transaction reads from the meta and history databases as it begins (the
/// newest version, the format, the stored schema), the same for every transaction of one
/// LMDB snapshot: the file keeps them for the newest snapshot it knows, so that the
/// transactions of one snapshot, and a write after this process's own commit, read them once.
///
/// A snapshot is named by its LMDB transaction id, which every commit to the file, by any
/// process, raises by one: a read transaction reads snapshot `mdb_txn_id`, a write builds on
/// snapshot `mdb_txn_id - 1`, and a commit makes snapshot `mdb_txn_id` of the write.
struct SnapshotFacts {
    /// The LMDB transaction id of the snapshot.
    let snapshot: Int
    /// The number of the newest commit the snapshot holds.
    let version: UInt64
    /// The file's format.
    let format: UInt32
    /// The stored schema.
    let schema: FileSchema
    /// The meta records a commit asks, once a write on the snapshot has read them.
    var settings: CommitSettings?
}

/// The meta records every commit asks (docs/FILE-FORMAT.md, "Meta"): the same for every
/// write on one snapshot until a write changes a meta record.
struct CommitSettings {
    /// The schema version (meta `schemaVersion`), nil if none was ever written.
    let schemaVersion: UInt64?
    /// Whether commits record before-images (meta `oldValues`).
    let recordsOldValues: Bool
    /// Whether commits record after-images (meta `newValues`).
    let recordsNewValues: Bool
    /// The replication origin the file follows (meta `replicationFollows`), nil for none.
    let replicationFollows: String?

    /// The settings as `meta`'s transaction sees them.
    init(_ meta: MetaStore) throws(StorageError) {
        schemaVersion = try meta.schemaVersion
        recordsOldValues = try meta.recordsOldValues
        recordsNewValues = try meta.recordsNewValues
        replicationFollows = try meta.replicationFollows
    }
}

extension StorageFile {
    /// The facts of `snapshot` when they are the ones kept.
    func facts(ofSnapshot snapshot: Int) -> SnapshotFacts? {
        state.withLock { state in state.snapshotFacts.flatMap { $0.snapshot == snapshot ? $0 : nil } }
    }

    /// The commit settings kept for `snapshot`, when its facts are the ones kept and a write
    /// read them.
    func settings(ofSnapshot snapshot: Int) -> CommitSettings? {
        state.withLock { state in state.snapshotFacts?.snapshot == snapshot ? state.snapshotFacts?.settings : nil }
    }

    /// Adds `settings` to the kept facts when they are those of `snapshot`.
    func keep(_ settings: CommitSettings, ofSnapshot snapshot: Int) {
        state.withLock { state in
            if state.snapshotFacts?.snapshot == snapshot { state.snapshotFacts?.settings = settings }
        }
    }

    /// Keeps `facts` unless the kept ones are of a newer snapshot.
    func keep(_ facts: SnapshotFacts) {
        state.withLock { state in
            if let kept = state.snapshotFacts, kept.snapshot > facts.snapshot { return }
            state.snapshotFacts = facts
        }
    }
}
