import Foundation
import LMDB

/// A read snapshot or the write transaction of a file, with the stored schema it sees: the
/// owner of one LMDB transaction, read and written through its stores (`rows`, `indexes`,
/// `links`, `lists`, `history`, `meta`), with the writes that span several stores in
/// `objects` (and a migration's in `migration`).
///
/// Row bytes handed out (`RowView`) point into the memory map: valid until the transaction
/// ends, and in a write transaction until its next write (`changeCounter` tells callers
/// when cached views went stale). Errors are `StorageError`s.
///
/// One thread uses it at a time (a frozen Realm's shared snapshot is filled before it is
/// shared and serialises its LMDB calls), so the state its reads and writes touch on every
/// call is not checked for exclusive access at run time (`@exclusivity(unchecked)`).
package final class StorageTransaction {
    package let file: StorageFile
    /// The LMDB transaction operations go through (a nested one inside `atomically`).
    @exclusivity(unchecked) package private(set) var lmdb: Transaction
    package let isWrite: Bool
    /// The schema stored in the file, as of this transaction.
    package internal(set) var schema: FileSchema
    /// The version this transaction reads: the number of the newest commit it sees.
    @exclusivity(unchecked) package private(set) var version: UInt64
    /// Whether the file is of format 3 or later (or new), whose records are all sealed with a
    /// checksum: this transaction seals what it writes and requires a seal on what it reads.
    /// In an older file it writes records unsealed, as older Strata does (docs/FILE-FORMAT.md,
    /// "Checksums").
    @usableFromInline package let seals: Bool
    /// The file's format (`StorageFile.formatVersion` for a new file).
    let format: UInt32
    /// The LMDB snapshot this transaction reads, or a write builds on (`SnapshotFacts`).
    let snapshot: Int
    /// Whether this write changed a meta record (`MetaStore.setInteger`, `setText`): its
    /// `settings` are read from its own meta records, not the snapshot's.
    var changedMeta = false
    /// Whether the file is of format 4 or later (or new), where a long list's directory nests
    /// (docs/FILE-FORMAT.md, "Lists"); an older file's lists keep flat directories.
    let nestsLists: Bool
    /// The cipher and decryption memory of an encrypted file, whose records are sealed with
    /// AES-256-GCM instead of a checksum (docs/ENCRYPTION.md); nil for a plain file.
    package let crypto: RecordCrypto?
    /// What this write transaction has changed so far.
    package internal(set) var changes: ChangeSet {
        get {
            settleRecentChanges()
            return recorded
        }
        set {
            recent = nil
            recorded = newValue
        }
    }
    /// The changes recorded so far but `recent`'s.
    @exclusivity(unchecked) private var recorded = ChangeSet()
    /// The class whose change was recorded last and its changes, kept out of `recorded`: a
    /// run of changes to one class (an insert loop) records each with a comparison of names,
    /// not a hash of one (`record`).
    @exclusivity(unchecked) private var recent: (name: String, changes: ClassChanges)?
    /// Bumped on every write: cached row views from an earlier count are stale. Set by the
    /// owner that caches row views; nil for one that does not.
    @exclusivity(unchecked) package var changeCounter: ChangeCounter?
    /// The text stored in the history entry of this commit, if any.
    package var commitDescription: String?
    /// Which history entries the commit keeps (a bounded number of older ones are removed);
    /// nil: the file's `historyRetention`.
    package var historyRetention: HistoryRetentionPolicy?

    /// What a row written for object `key` of `table` is sealed for where records are
    /// sealed; nil otherwise (`RowEncoder`).
    func rowSeal(_ table: Table, _ key: ObjectKey) -> RowSeal? { seals && crypto == nil ? RowSeal(seed: table.rowSeed, key: key) : nil }

    /// Handles usable in this transaction: those visible when it began.
    let handles: [String: Database]
    /// Handles this write transaction created (visible to others once it commits).
    @exclusivity(unchecked) var created: [String: Database] = [:]
    /// Whether this write holds the file's lease to create databases (until it ends).
    var isCreating = false
    /// The tables opened so far, by class name.
    @exclusivity(unchecked) var tables: [String: Table] = [:]
    /// Whether this write changed the stored schema.
    var schemaChanged = false
    /// The object keys this write hands out.
    @exclusivity(unchecked) var keys = KeyCounters()
    /// The before-images this write has recorded (`StorageTransaction+OldValues.swift`).
    @exclusivity(unchecked) var oldValues = ObjectImages()
    /// Whether this write records before-images: nil until its first change asks the meta.
    @exclusivity(unchecked) var oldValuesEnabled: Bool?
    /// Whether this commit's new values are the whole file (the commit that makes the file a
    /// replication origin: `StorageTransaction+NewValues.swift`).
    var newValuesAreSnapshot = false
    /// Whether this write is a migration (`discardChanges`), which its entry says.
    var isMigration = false
    /// The history extensions of the origin commit this write replays on a follower, which
    /// its entry keeps instead of its own old and new values (`StorageTransaction+Replay.swift`).
    var replayedExtensions: [HistoryEntry.Extension]?

    /// Whether this read snapshot is counted in the file's pins (until it ends).
    private var isPinned = false
    /// A write's place among the file's writes in this process, from before it waits for
    /// LMDB's write lock until it commits or is abandoned.
    private var turn: WriteTurns.Turn?

    init(file: StorageFile, write: Bool) throws(StorageError) {
        self.file = file
        self.isWrite = write
        if write {
            turn = file.writeTurns.take()
            try file.checkRoomForNewVersion()
            file.reclaimDeadProcessesIfDue()
        }
        crypto = try file.encryption.map { (e) throws(StorageError) in try RecordCrypto(e) }
        let facts: SnapshotFacts
        (lmdb, handles, facts) = try Self.begin(file, crypto, write: write)
        schema = facts.schema
        version = facts.version
        format = facts.format
        snapshot = facts.snapshot
        seals = format >= StorageFile.sealedFormat
        nestsLists = format >= StorageFile.nestedListsFormat
        if !write {
            file.pin(version, transaction: lmdb.id)
            isPinned = true
        }
    }

    /// Begins an LMDB transaction that can use every table of the schema it sees. A
    /// transaction can use only handles opened before it began: when another process added
    /// classes, their tables are opened and the transaction begins again (nothing was read).
    private static func begin(_ file: StorageFile, _ crypto: RecordCrypto?, write: Bool) throws(StorageError)
        -> (Transaction, [String: Database], SnapshotFacts) {
        func context() -> String { "Beginning a \(write ? "write" : "read") transaction on '\(file.path)'" }
        for _ in 0..<4 {
            let handles = file.handles.snapshot()
            let txn = try StorageError.translating(context()) { try Transaction(file.environment, readOnly: !write) }
            let snapshot = write ? txn.id - 1 : txn.id
            let facts: SnapshotFacts
            if let known = file.facts(ofSnapshot: snapshot) {
                facts = known
            } else {
                facts = try readFacts(of: snapshot, txn, handles, file, crypto, context())
            }
            let missing = file.handles.missing(of: facts.schema, in: handles)
            if missing.isEmpty { return (txn, handles, facts) }
            txn.abort()
            try file.handles.open(missing, create: false, context: context())
        }
        throw StorageError(.fail, "\(context()): the tables of new classes could not be opened")
    }

    /// Reads the facts of `snapshot` through `txn` (checking the key of an encrypted file the
    /// first time the file has a format), and keeps them for the file's next transactions.
    private static func readFacts(of snapshot: Int, _ txn: Transaction, _ handles: [String: Database], _ file: StorageFile,
                                  _ crypto: RecordCrypto?, _ context: @autoclosure () -> String) throws(StorageError) -> SnapshotFacts {
        let meta = handles[MetaKeys.database]
        // A file with no format yet is new: its first commit makes it the current format.
        let format: UInt32? = try meta.flatMap { (meta) throws(StorageError) in
            try StorageError.translating(context()) { try MetaKeys.readInteger(txn, meta, MetaKeys.format) }
        }
        let seals = (format ?? StorageFile.formatVersion) >= StorageFile.sealedFormat
        // Another process may have created the file since this one opened it.
        if let meta, format != nil, !file.keyMarkerVerified.load(ordering: .acquiring) {
            let marker = try StorageError.translating(context()) { try MetaKeys.readBytes(txn, meta, MetaKeys.encryption) }
            try EncryptionChecks.check(marker, file)
            file.keyMarkerVerified.store(true, ordering: .releasing)
        }
        let schema = try meta.map { (meta) throws(StorageError) in try SchemaStore.load(txn, meta, sealRequired: seals, crypto: crypto, cache: file) } ?? FileSchema()
        let version = try HistoryStore.newestVersion(txn, meta: meta, history: handles[MetaKeys.history], context())
        let facts = SnapshotFacts(snapshot: snapshot, version: version, format: format ?? StorageFile.formatVersion, schema: schema)
        file.keep(facts)
        return facts
    }

    deinit {
        if isCreating { file.handles.endCreating(committed: nil) }
        unpin()
    }

    private func unpin() {
        guard isPinned else { return }
        isPinned = false
        file.unpin(version)
    }

    /// Whether this transaction sees the newest commit of any process (false when that cannot
    /// be read: a new snapshot then finds out).
    package var isNewest: Bool { (try? file.environment.newestTransactionID()) == lmdb.id }

    /// The handle of the database named `name`, if this transaction can use it.
    func database(_ name: String) -> Database? { handles[name] ?? created[name] }

    /// Runs `body` so that it changes everything or nothing: inside a nested LMDB transaction
    /// that joins this one if `body` returns and vanishes, with this transaction's own
    /// bookkeeping, if it throws.
    package func atomically<T>(_ body: () throws -> T) throws -> T {
        precondition(isWrite, "only a write transaction nests")
        let parent = lmdb
        lmdb = try beginNested(in: parent)
        savepoints.append(Savepoint(parent: parent, bookkeeping: bookkeeping, outer: setAsideChanges()))
        defer {
            lmdb = savepoints.removeLast().parent
            changeCounter?.bump()  // rows read inside may have moved or vanished
        }
        do {
            let result = try body()
            try keepInnermost()
            return result
        } catch {
            discardInnermost()
            throw error
        }
    }

    /// Inside `atomically`: ends what its body has written so far, joining this transaction
    /// when `keeping` and discarded otherwise, and goes on in a new nested transaction, as if
    /// the body began here (what it writes next is kept or discarded as the body ends).
    package func restartAtomically(keeping: Bool) throws {
        precondition(!savepoints.isEmpty, "only inside atomically")
        if keeping { try keepInnermost() } else { discardInnermost() }
        let last = savepoints.count - 1
        lmdb = savepoints[last].parent
        savepoints[last].bookkeeping = bookkeeping
        savepoints[last].outer = setAsideChanges()
        changeCounter?.bump()
        lmdb = try beginNested(in: savepoints[last].parent)
    }

    /// Where an `atomically` began: the transaction it nests in, and what it restores when
    /// its body throws.
    private struct Savepoint {
        let parent: Transaction
        var bookkeeping: Bookkeeping
        /// The changes recorded before the body, set aside while it records its own.
        var outer: ChangeSet
    }

    private typealias Bookkeeping = (keys: KeyCounters, tables: [String: Table], created: [String: Database],
                                     schema: FileSchema, schemaChanged: Bool)

    /// One per `atomically` running, the innermost last.
    @exclusivity(unchecked) private var savepoints: [Savepoint] = []

    private var bookkeeping: Bookkeeping {
        get { (keys, tables, created, schema, schemaChanged) }
        set { (keys, tables, created, schema, schemaChanged) = newValue }
    }

    private func beginNested(in parent: Transaction) throws -> Transaction {
        try StorageError.translating("Beginning a nested transaction on '\(file.path)'") { try Transaction(nestedIn: parent) }
    }

    /// The changes recorded so far, set aside (not copied) so that recording starts empty.
    /// (Keeping a copy to restore would make the first change in a body copy every key
    /// recorded so far: quadratic over a write of many graph adds.)
    private func setAsideChanges() -> ChangeSet {
        var outer = ChangeSet()
        settleRecentChanges()
        swap(&outer, &recorded)
        return outer
    }

    /// Commits the innermost nested transaction into its parent, its changes joining those
    /// set aside.
    private func keepInnermost() throws {
        try StorageError.translating("Committing a nested transaction on '\(file.path)'") { try lmdb.commit() }
        settleRecentChanges()
        let last = savepoints.count - 1
        var outer = ChangeSet()
        swap(&outer, &savepoints[last].outer)
        swap(&outer, &recorded)
        recorded.absorb(outer)
    }

    /// Aborts the innermost nested transaction, restoring what was recorded before it.
    private func discardInnermost() {
        let last = savepoints.count - 1
        if lmdb !== savepoints[last].parent { lmdb.abort() }
        changes = savepoints[last].outer
        savepoints[last].outer = ChangeSet()
        bookkeeping = savepoints[last].bookkeeping
    }

    /// Ends a read transaction (or abandons a write one).
    package func abort() {
        lmdb.abort()
        turn?.end()
        endCreating(committed: false)
        unpin()
    }

    /// Gives back the lease to create databases, publishing those created when `committed`.
    func endCreating(committed: Bool) {
        guard isCreating else { return }
        isCreating = false
        file.handles.endCreating(committed: committed ? created : nil)
    }

    /// Commits the write: the history entry, the new version and the data, in one LMDB commit
    /// (durable when this returns unless the file was opened without sync). Returns the new
    /// version, or the old one if nothing changed.
    @discardableResult
    package func commit(processName: String, pid: Int32) throws(StorageError) -> UInt64 {
        precondition(isWrite, "only a write transaction commits")
        if changes.isEmpty && !schemaChanged && commitDescription == nil {
            abort()
            return version
        }
        let newVersion = version + 1
        if replayedExtensions == nil, let origin = try settings.replicationFollows {
            throw StorageError(.invalidInput, "'\(file.path)' is a follower of replication origin \(origin): only the commits it replays from the origin's log are written to it (strata replicate follow)")
        }
        let format = try meta.prepareCommit(of: newVersion, commitContext)
        var pagesBefore: [UInt8] = []
        Varint.append(UInt64(file.environment.usedBytes / file.environment.pageSize), to: &pagesBefore)
        var extensions = [HistoryEntry.Extension(tag: HistoryEntry.Extension.pagesBeforeTag, bytes: pagesBefore)]
        if isMigration { extensions.append(HistoryEntry.Extension(tag: HistoryEntry.Extension.migrationTag, bytes: [])) }
        if let replayed = replayedExtensions {
            extensions += replayed
        } else {
            let old = try oldValuesForEntry()?.encoded()
            extensions += try newValuesExtensions()
            if let old { extensions.insert(HistoryEntry.Extension(tag: HistoryEntry.Extension.oldValuesTag, bytes: old), at: 0) }
        }
        // The before-images are in the extensions now: freed before the entry is encoded
        // (a cleared class's can be tens of megabytes).
        oldValues = ObjectImages()
        let entry = HistoryEntry(version: newVersion, time: Date().timeIntervalSince1970, pid: pid,
                                 processName: processName, description: commitDescription, changes: changes,
                                 extensions: extensions)
        try history.append(entry, keeping: historyRetention ?? file.historyRetention, commitContext)
        try meta.finishCommit(of: newVersion, format: format, commitContext)
        let settings = try settings
        var fileID = file.knownFileID
        if fileID == nil { fileID = try meta.fileID }
        let made = lmdb.id
        try finishCommit(as: newVersion, schemaVersion: settings.schemaVersion, fileID: fileID)
        // The snapshot this commit made holds what this write began with but the version,
        // unless the write changed the stored schema (read again, as it is stored).
        if !schemaChanged { file.keep(SnapshotFacts(snapshot: made, version: newVersion, format: format, schema: schema, settings: settings)) }
        return newVersion
    }

    /// The meta records a commit asks, as this transaction sees them: the snapshot's, read
    /// once per snapshot, until this write changes a meta record.
    var settings: CommitSettings {
        get throws(StorageError) {
            if !changedMeta, let known = file.settings(ofSnapshot: snapshot) { return known }
            let read = try CommitSettings(meta)
            if !changedMeta { file.keep(read, ofSnapshot: snapshot) }
            return read
        }
    }

    /// What a commit's errors say it was doing (made only when one is thrown).
    private var commitContext: String { "Committing to '\(file.path)'" }

    /// Commits the LMDB transaction, then tells the file and gives back the lease to create
    /// databases; from now on this transaction reads `newVersion`.
    private func finishCommit(as newVersion: UInt64, schemaVersion: UInt64?, fileID: UInt64?) throws(StorageError) {
        defer { turn?.end() }  // LMDB's write lock is given back, committed or not
        let made = lmdb.id
        do {
            try StorageError.translating(commitContext) { try lmdb.commit() }
        } catch {
            endCreating(committed: false)
            throw error
        }
        file.didCommit(version: newVersion, transaction: made, schemaVersion: schemaVersion, fileID: fileID)
        endCreating(committed: true)
        version = newVersion
    }

    /// Commits a copy made by `StorageFile.writeCopy(to:encryptionKey:)` into this new file,
    /// whose history the copy wrote up to `version`: the meta records of a first commit and the
    /// data, without a history entry of its own.
    func commitCopy(of version: UInt64) throws(StorageError) {
        precondition(isWrite && self.version == 0, "a copy is committed into a new file")
        _ = try meta.prepareCommit(of: 1, commitContext)
        try finishCommit(as: version, schemaVersion: try meta.schemaVersion, fileID: try meta.fileID)
    }

    /// Forgets the changes recorded so far (a migration commits without per-class change sets,
    /// and without before-images: the versions before it cannot be rebuilt; on a replication
    /// origin its new values are the whole file, which followers start again from).
    package func discardChanges() {
        changes = ChangeSet()
        oldValues.giveUp()
        newValuesAreSnapshot = true
        isMigration = true
    }

    /// Records a change of `table` (used by the stores' writes).
    func record(_ table: Table, _ change: (inout ClassChanges) -> Void) {
        if recent?.name != table.name {
            settleRecentChanges()
            recent = (table.name, recorded.classes.removeValue(forKey: table.name) ?? ClassChanges())
        }
        change(&recent!.changes)
        changeCounter?.bump()
    }

    /// Moves the changes of the class recorded last into `recorded`.
    private func settleRecentChanges() {
        guard let (name, changes) = recent else { return }
        recent = nil
        recorded.classes[name] = changes
    }
}
