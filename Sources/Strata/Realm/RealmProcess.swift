import Foundation
import StrataStorage

/// Strata: a process that has a Realm file open, as the file's coordination file (`FILE.lock`)
/// registers it, with the oldest version it pins. Old pinned versions keep the file from
/// reusing the space of later changes: this says who holds them.
public struct RealmProcess: Sendable, Equatable {
    /// The process id.
    public let pid: Int32
    /// The executable's name.
    public let name: String
    /// When the process opened the file.
    public let openedAt: Date
    /// The oldest version its snapshots (Realms, frozen objects) pin; nil when it holds none.
    public let pinnedVersion: UInt64?
    /// Since when it pins `pinnedVersion`.
    public let pinnedSince: Date?
    /// How many snapshots it holds open.
    public let snapshots: Int

    init(_ process: RegisteredProcess) {
        pid = process.pid
        name = process.name
        openedAt = process.openedAt
        pinnedVersion = process.pinnedVersion
        pinnedSince = process.pinnedSince
        snapshots = process.snapshots
    }
}

extension Realm {
    /// Strata: the processes that have the file of `configuration` open now (this one
    /// included), with the versions they pin; entries of processes that died are dropped.
    public static func openProcesses(for configuration: Configuration) throws -> [RealmProcess] {
        guard let path = configuration.path else { return [] }
        return try translatingErrors(path: path) { try StorageFile.openProcesses(path: path).map(RealmProcess.init) }
    }
}
