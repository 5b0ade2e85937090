import Foundation

/// What a file does with its coordination file: publishing commits and pins, bounding the
/// active versions, freeing the entries of dead processes, and waking listeners on commits.
extension StorageFile {
    /// `maximumNumberOfActiveVersions`: the most distinct versions this process may pin at
    /// once, counting the one a write creates; nil for no bound. Writes enforce it (a read
    /// never fails for it: reads have no way to report an error).
    package var maximumActiveVersions: Int? {
        get { state.withLock { $0.activeVersionLimit } }
        set { state.withLock { $0.activeVersionLimit = newValue } }
    }

    /// Records a snapshot of `version` (LMDB transaction `transaction`).
    func pin(_ version: UInt64, transaction: Int) {
        state.withLock {
            $0.pins.pin(version, transaction: transaction)
            publishPins($0.pins)
        }
    }

    /// Removes a snapshot of `version`.
    func unpin(_ version: UInt64) {
        state.withLock {
            $0.pins.unpin(version)
            publishPins($0.pins)
        }
    }

    /// Throws when a write's new version would exceed `maximumActiveVersions`.
    func checkRoomForNewVersion() throws(StorageError) {
        try state.withLock { state throws(StorageError) in
            let pins = state.pins
            if let limit = state.activeVersionLimit, pins.distinctVersions + 1 > limit {
                throw StorageError(.fail, "Number of active versions (\(pins.distinctVersions + 1)) in '\(path)' would exceed maximumNumberOfActiveVersions (\(limit)) with the version this write would create. Pinned in this process (pid \(ProcessIdentity.current.pid)): \(pins.description). Release old Realms, frozen objects or snapshots (invalidate(), or let them go), or raise the limit")
            }
        }
    }

    private func publishPins(_ pins: VersionPins) {
        let state = pins.published
        coordination?.publishPins(oldest: state.oldest, snapshots: state.snapshots)
    }

    /// Publishes a commit (LMDB's `transaction`) to the other processes and tells this
    /// process's listeners (called right after the LMDB commit, on the committing thread);
    /// records the version for the rollback check when the database has a file id.
    func didCommit(version: UInt64, transaction: Int, schemaVersion: UInt64?, fileID: UInt64?) {
        if let fileID { rememberFileID(fileID) }
        recordCommitted(version, fileID: fileID)
        coordination?.publishCommit(version: version, schemaVersion: schemaVersion)
        notifier.commitMadeHere(transaction)
    }

    /// Frees the registry slots (and LMDB reader slots) of processes that died with the file
    /// open; at most once a second, so writers can call it on every write.
    func reclaimDeadProcessesIfDue() {
        let due = state.withLock { state in
            guard Date().timeIntervalSince(state.lastReclaim) >= 1 else { return false }
            state.lastReclaim = Date()
            return true
        }
        guard due, let coordination else { return }
        if coordination.reclaimDeadProcesses() > 0 { environment.clearStaleReaders() }
    }

    /// The processes that have this file open, with the versions they pin.
    package func openProcesses() -> [RegisteredProcess] {
        let processes = coordination?.processes() ?? []
        environment.clearStaleReaders()
        return processes
    }

    /// The processes that have the database at `path` open, read from its coordination file
    /// without opening the database (or through this process's open instance, whose
    /// coordination file must be the only one this process has open: closing a second
    /// descriptor would drop the first one's locks). Empty when there is no coordination file.
    package static func openProcesses(path: String) throws -> [RegisteredProcess] {
        if let file = openInstance(path: path) { return file.openProcesses() }
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: CoordinationFile.path(forDatabaseAt: path)) else { return [] }
        return try withRegistryLock {
            try CoordinationFile.open(databasePath: path, register: false)?.processes() ?? []
        }
    }

    /// Calls `listener.commitObserved()` on the file's notifier thread after every commit, in
    /// any process, while the listener lives.
    package func addCommitListener(_ listener: CommitListener) {
        notifier.add(listener)
    }
}
