import Foundation
import Strata
import StrataStorage

/// Applies the log of one replication origin to a local Strata file, in version order, each
/// origin version as one local commit (docs/REPLICATION.md, "Follow"). The file's meta records
/// the newest origin version it holds, in the same commit as the data, so a follower killed at
/// any point resumes exactly after it: nothing is applied twice and nothing is skipped.
///
/// ```swift
/// let follower = try ReplicationFollower(configuration: Realm.Configuration(fileURL: url),
///                                        from: "host=/var/run/postgresql dbname=app", origin: id)
/// let applied = try follower.follow()     // every version the log holds that the file does not
/// print(applied.holds, applied.logHolds)
/// ```
///
/// A follower file starts empty (it then begins at the origin's snapshot: the commit that
/// made the origin record new values) or as a copy of the origin (`writeCopy`). Only the
/// follower writes to it: a local write is refused. Use it from one thread at a time.
public final class ReplicationFollower {
    /// The origin whose log is applied.
    public let origin: String
    /// The most log rows read from PostgreSQL at once.
    public var batchSize = 100

    private let file: StorageFile
    private let log: ReplicationLog

    /// What one `follow()` applied.
    public struct Progress: Sendable, Equatable {
        /// The origin.
        public let origin: String
        /// The origin versions applied, oldest and newest; nil when there was nothing new.
        public let versions: ClosedRange<UInt64>?
        /// The newest origin version the file holds after it.
        public let holds: UInt64
        /// The newest version the log held for the origin when it was last read: the lag is
        /// `logHolds - holds` versions.
        public let logHolds: UInt64
    }

    /// Connects to PostgreSQL with `conninfo` and opens (or creates) the file of
    /// `configuration` (its `fileURL`, `encryptionKey` and `syncOnCommit`) as a follower of
    /// `origin`. Throws `PostgresError` with PostgreSQL's
    /// message when it cannot connect, `ReplicationError.unknownOrigin` when the log has no
    /// such origin, and `Realm.Error` (`.invalidInput`) when the file follows another origin,
    /// is the origin itself or holds objects of its own.
    public init(configuration: Realm.Configuration, from conninfo: String, origin: String) throws {
        guard let url = configuration.fileURL else {
            throw Realm.Error(.invalidInput, "A follower is a file: the configuration names none (an in-memory Realm)")
        }
        let path = url.standardizedFileURL.path
        log = ReplicationLog(connection: try PostgresConnection(conninfo))
        guard try log.knows(origin: origin) else { throw ReplicationError.unknownOrigin(origin) }
        self.origin = origin
        file = try translatingErrors(path: path) {
            let file = try StorageFile.open(path: path, options: .init(syncOnCommit: configuration.syncOnCommit,
                                                                       encryptionKey: try EncryptionKey(configuration.encryptionKey)))
            let txn = try file.beginRead()
            defer { txn.abort() }
            _ = try txn.replayPosition(for: origin)
            return file
        }
    }

    /// Applies every version the log holds after the file's newest, oldest first, and returns
    /// what it applied. Throws `ReplicationError` when the log cannot be applied (a gap, or a
    /// version without new values), `PostgresError` on a PostgreSQL failure, `Realm.Error`
    /// for the file; the versions applied before the failure stay applied.
    @discardableResult
    public func follow() throws -> Progress {
        var position = try self.position()
        var after = position ?? 0
        var first: UInt64?
        var logHolds = try log.lastVersion(of: origin)
        if let position, position > logHolds { throw ReplicationError.followerAhead(origin: origin, holds: position, logHolds: logHolds) }
        while after < logHolds {
            let rows = try log.rows(of: origin, after: after, limit: batchSize)
            guard !rows.isEmpty else { break }
            for row in rows {
                guard let entry = row.entry.withUnsafeBytes({ HistoryEntry(decoding: $0) }), entry.version == row.version else {
                    throw ReplicationError.unreadableEntry(origin: origin, version: row.version)
                }
                after = row.version
                // An empty follower starts at the snapshot: the versions before it are in it.
                if position == nil, try !(translatingErrors { try entry.newValues()?.isSnapshot ?? false }) { continue }
                if let position, row.version != position + 1 {
                    throw ReplicationError.gapInLog(origin: origin, expected: position + 1, found: row.version)
                }
                try apply(entry)
                first = first ?? entry.version
                position = entry.version
            }
            logHolds = max(logHolds, try log.lastVersion(of: origin))
        }
        if position == nil && logHolds > 0 { throw ReplicationError.noSnapshot(origin: origin, logHolds: logHolds) }
        return Progress(origin: origin, versions: first.map { $0...(position ?? 0) }, holds: position ?? 0, logHolds: logHolds)
    }

    /// Follows now and then every `interval` seconds, calling `applied` after each round that
    /// applied something, until `shouldStop` returns true. A lost PostgreSQL connection is
    /// reported to `failed` and retried; any other failure is thrown.
    public func follow(every interval: TimeInterval = 0.2, until shouldStop: () -> Bool,
                       applied: (Progress) -> Void, failed: (Error) -> Void = { _ in }) throws {
        var reconnects = false
        while !shouldStop() {
            do {
                if reconnects { try log.connection.reconnect() }
                reconnects = false
                let progress = try follow()
                if progress.versions != nil { applied(progress) }
            } catch let error as PostgresError where error.isConnectionFailure {
                reconnects = true
                failed(error)
            }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    /// The newest origin version the file holds (nil for an empty follower, which starts at
    /// the origin's snapshot).
    private func position() throws -> UInt64? {
        try translatingErrors(path: file.path) {
            let txn = try file.beginRead()
            defer { txn.abort() }
            return try txn.replayPosition(for: origin)
        }
    }

    /// Applies one origin commit as one local commit.
    private func apply(_ entry: HistoryEntry) throws {
        try translatingErrors(path: file.path) {
            let write = try file.beginWrite()
            defer { write.abort() }
            try write.replay(entry, of: origin)
            try write.commit(processName: ProcessIdentity.currentName, pid: getpid())
        }
    }
}
