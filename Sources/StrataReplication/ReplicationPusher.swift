import Foundation
import Strata
import StrataStorage

/// Pushes the commits of one Strata file, in version order, to the log table `strata_log` of
/// a PostgreSQL database (docs/REPLICATION.md). PostgreSQL is the truth for where to resume:
/// each push starts after the newest version the log holds for the file's origin, so a
/// pusher killed at any point, or run twice, leaves every version in the log exactly once.
///
/// ```swift
/// let pusher = try ReplicationPusher(configuration: Realm.Configuration(fileURL: url),
///                                    to: "host=/var/run/postgresql dbname=app")
/// let pushed = try pusher.push()         // every retained commit the log does not hold yet
/// print(pushed.origin, pushed.versions ?? 0...0)
/// ```
///
/// A pusher reads the file's history, not its objects, and holds a snapshot only while it
/// reads one batch. Use it from one thread at a time.
public final class ReplicationPusher {
    /// The file's origin id: the `origin` of its rows in `strata_log`.
    public let origin: String
    /// The most commits one PostgreSQL transaction appends.
    public var batchSize = 500

    private let file: StorageFile
    private let log: ReplicationLog

    /// What one push appended.
    public struct Progress: Sendable, Equatable {
        /// The file's origin id.
        public let origin: String
        /// The versions appended, oldest and newest; nil when the log already held them all.
        public let versions: ClosedRange<UInt64>?
        /// The newest version the log holds for the origin after the push (0 for none).
        public let logHolds: UInt64
    }

    /// Connects to PostgreSQL with `conninfo` and opens the file of `configuration` (which
    /// must exist; only its `fileURL` and `encryptionKey` are used). Creates the log tables
    /// when they are absent and gives the file its origin id on its first push (a commit of
    /// its own, described "Replication origin assigned"). The log holds the entries
    /// decrypted, so an encrypted file is refused (`.invalidInput`) unless
    /// `allowingDecryptedLog`. Throws `PostgresError` with PostgreSQL's message when it cannot
    /// connect (before anything is written to the file), and `Realm.Error` for the file.
    public init(configuration: Realm.Configuration, to conninfo: String, allowingDecryptedLog: Bool = false) throws {
        guard let url = configuration.fileURL else {
            throw Realm.Error(.invalidInput, "Only a file is pushed: the configuration names none (an in-memory Realm)")
        }
        let path = url.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Realm.Error(.fileNotFound, "There is no Strata file at '\(path)' to push", path: path)
        }
        guard configuration.encryptionKey == nil || allowingDecryptedLog else {
            throw Realm.Error(.invalidInput, "'\(path)' is encrypted, and the PostgreSQL log would hold its commits decrypted: "
                              + "allow that explicitly (allowingDecryptedLog; strata replicate push --decrypted-log)", path: path)
        }
        log = ReplicationLog(connection: try PostgresConnection(conninfo))
        (file, origin) = try translatingErrors(path: path) {
            let key = try EncryptionKey(configuration.encryptionKey)
            let file = try StorageFile.open(path: path, options: .init(encryptionKey: key))
            return (file, try Self.origin(of: file))
        }
        try log.prepare(origin: origin, path: path)
    }

    /// Appends every retained commit after the log's newest version of this origin, in
    /// batches of `batchSize`, one PostgreSQL transaction each, and returns what it appended.
    /// Throws `ReplicationError.gap` when the history no longer holds the next version the
    /// log needs, `.logAhead` when the log is past the file, and `PostgresError` on a
    /// PostgreSQL failure (what was committed before it stays; the next push resumes there).
    @discardableResult
    public func push() throws -> Progress {
        var last = try log.lastVersion(of: origin)
        var first: UInt64?
        while true {
            let rows = try readRows(after: last)
            guard !rows.isEmpty else { break }
            let appended = try log.append(rows, origin: origin)
            first = first ?? appended.first?.version
            last = try appended.last?.version ?? log.lastVersion(of: origin)
        }
        return Progress(origin: origin, versions: first.map { $0...last }, logHolds: last)
    }

    /// Pushes now and after every commit to the file, from any process, calling `pushed` after
    /// each push that appended something, until `shouldStop` returns true (checked at least
    /// once a second). A lost PostgreSQL connection is reported to `failed` and retried once
    /// a second; any other failure is thrown.
    public func follow(until shouldStop: () -> Bool, pushed: (Progress) -> Void, failed: (Error) -> Void = { _ in }) throws {
        let signal = CommitSignal()
        file.addCommitListener(signal)
        var reconnects = false
        while !shouldStop() {
            do {
                if reconnects { try log.connection.reconnect() }
                reconnects = false
                let progress = try push()
                if progress.versions != nil { pushed(progress) }
            } catch let error as PostgresError where error.isConnectionFailure {
                reconnects = true
                failed(error)
            }
            _ = signal.semaphore.wait(timeout: .now() + 1)
        }
    }

    /// Up to `batchSize` history entries after `version`, oldest first, read in one snapshot
    /// that ends before they are sent.
    private func readRows(after version: UInt64) throws -> [ReplicationLog.Row] {
        let txn = try file.beginRead()
        defer { txn.abort() }
        let bounds = try txn.history.bounds()
        guard let newest = bounds.newest, let oldest = bounds.oldest else {
            if version > 0 { throw ReplicationError.logAhead(origin: origin, logHolds: version, fileNewest: 0) }
            return []
        }
        if version > newest { throw ReplicationError.logAhead(origin: origin, logHolds: version, fileNewest: newest) }
        if oldest > version + 1 { throw ReplicationError.gap(origin: origin, logHolds: version, oldestRetained: oldest) }
        var rows: [ReplicationLog.Row] = []
        var expected = version + 1
        try txn.history.forEach(after: version, newestFirst: false) { entry in
            guard entry.version == expected else { throw ReplicationError.missingEntry(expected: expected, found: entry.version) }
            expected += 1
            rows.append(.init(version: entry.version, time: entry.time, pid: entry.pid, process: entry.processName, entry: entry.encoded()))
            return rows.count < batchSize
        }
        return rows
    }

    /// The origin id of `file`. A file that has none is given one, and made to record the
    /// new values of its commits, in a commit of its own whose new values are the whole file
    /// (the snapshot an empty follower starts from); so is an origin whose commits do not
    /// record them yet. A follower is refused: its commits are another origin's.
    private static func origin(of file: StorageFile) throws -> String {
        let read = try file.beginRead()
        let known = try read.meta.replicationOrigin, recording = try read.meta.recordsNewValues
        let follows = try read.meta.replicationFollows
        read.abort()
        if let follows {
            throw StorageError(.invalidInput, "'\(file.path)' is a follower of origin \(follows): push the origin itself")
        }
        if let known, recording { return known }
        let write = try file.beginWrite()
        defer { write.abort() }
        if let known = try write.meta.replicationOrigin, try write.meta.recordsNewValues { return known }
        let origin = try write.meta.replicationOrigin ?? UUID().uuidString.lowercased()
        write.commitDescription = try write.meta.replicationOrigin == nil ? "Replication origin assigned" : "Replication snapshot"
        try write.meta.setReplicationOrigin(origin)
        try write.meta.startRecordingNewValues()
        try write.commit(processName: ProcessIdentity.currentName, pid: getpid())
        return origin
    }
}

/// Wakes a following pusher when the file's notifier sees a commit.
private final class CommitSignal: CommitListener {
    let semaphore = DispatchSemaphore(value: 0)
    func commitObserved() { semaphore.signal() }
}
