import CStrataSync
import LMDB

/// Telling a rolled-back file: LMDB opens whichever of its two meta pages has the higher
/// transaction id, so damage to the older one can make it open the commit before the newest
/// without a word. The `.lock` file, which LMDB does not control, keeps the newest version
/// committed to the database, with the database's file id (meta `fileID`, random, written by
/// the first commit) so that another database created at the same path starts afresh.
extension StorageFile {
    /// Records in the `.lock` file that `version` of the database `fileID` is committed
    /// (right after the LMDB commit).
    func recordCommitted(_ version: UInt64, fileID: UInt64?) {
        guard let coordination, coordination.isWritable, let fileID else { return }
        let mapping = coordination.mapping
        if mapping.load64(CoordinationLayout.fileIDOffset) == fileID {
            strata_max64(mapping.word64(CoordinationLayout.fileVersionOffset), version)
        } else {
            // The first commit recorded for this database: the version first, then the id it
            // counts for, so that no opener pairs this id with another database's version.
            mapping.store64(CoordinationLayout.fileVersionOffset, version)
            mapping.store64(CoordinationLayout.fileIDOffset, fileID)
        }
    }

    /// Throws `.invalidDatabase` when the newest commit LMDB opens is older than the newest
    /// version the `.lock` file recorded for this database. Nothing to compare without a
    /// `.lock` file, or for a file with no file id (older Strata wrote it).
    func checkNotRolledBack() throws(StorageError) {
        guard let coordination else { return }
        // Read before the snapshot: a version is recorded after its commit, so the snapshot
        // sees every version recorded by then.
        let mapping = coordination.mapping
        let recordedID = mapping.load64(CoordinationLayout.fileIDOffset)
        let recorded = mapping.load64(CoordinationLayout.fileVersionOffset)
        let context = "Reading '\(path)'"
        let (fileID, newest) = try StorageError.translating(context) { () throws -> (UInt64?, UInt64) in
            let txn = try Transaction(environment, readOnly: true)
            defer { txn.abort() }
            guard let meta = try txn.openDatabase(MetaKeys.database) else { return (nil, 0) }
            let id: UInt64? = try MetaKeys.readInteger(txn, meta, MetaKeys.fileID)
            return (id, try HistoryStore.newestVersion(txn, meta: meta, history: try txn.openDatabase(MetaKeys.history), context))
        }
        guard let fileID else { return }
        state.withLock { $0.fileID = fileID }
        guard recordedID == fileID, recorded > newest else { return }
        throw StorageError(.invalidDatabase, "'\(path)' is damaged: it opens at version \(newest), but version \(recorded) was committed to it (recorded in '\(coordination.path)'); the newest commits are lost or a meta page is damaged; run `strata check \(path)`. If an older copy of the file was put back on purpose, delete '\(coordination.path)' while no process has the file open")
    }

    /// The database's file id, once known (nil before the first commit).
    var knownFileID: UInt64? { state.withLock { $0.fileID } }

    /// Remembers the database's file id read by a commit.
    func rememberFileID(_ id: UInt64) { state.withLock { $0.fileID = id } }
}
