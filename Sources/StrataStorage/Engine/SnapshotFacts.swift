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
}

extension StorageFile {
    /// The facts of `snapshot` when they are the ones kept.
    func facts(ofSnapshot snapshot: Int) -> SnapshotFacts? {
        state.withLock { state in state.snapshotFacts.flatMap { $0.snapshot == snapshot ? $0 : nil } }
    }

    /// Keeps `facts` unless the kept ones are of a newer snapshot.
    func keep(_ facts: SnapshotFacts) {
        state.withLock { state in
            if let kept = state.snapshotFacts, kept.snapshot > facts.snapshot { return }
            state.snapshotFacts = facts
        }
    }
}
