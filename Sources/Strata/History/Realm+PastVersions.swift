import Foundation
import StrataStorage

extension Realm {
    /// Strata: a frozen, read-only Realm of this file as it was at `version`: its objects,
    /// links, lists, sets, maps and backlinks, and every query, sort and aggregate over them,
    /// answer as they did when `version` was the newest. Its `version` is `version`, and its
    /// history ends there.
    ///
    /// The version is rebuilt from this Realm's file and the old values that the history
    /// entries of the later commits keep (docs/HISTORY.md, "Reading the past"): the file is
    /// copied (O(file size)) to where in-memory Realms live, and those commits are undone in
    /// the copy (O(what they changed)). The copy is deleted when the returned Realm and
    /// everything read from it are released. `version` equal to this Realm's version gives
    /// `freeze()`. The returned Realm's configuration names the copy (an
    /// `inMemoryIdentifier`, `readOnly`); `thaw()` gives a live, read-only Realm of the copy.
    ///
    /// Throws `.invalidInput` for a version newer than this Realm's, or older than
    /// `readableVersions` (its message names the oldest readable version).
    public func freeze(atVersion version: UInt64) throws -> Realm {
        Realm(core: try core.frozen(atVersion: version))
    }

    /// Strata: the versions `freeze(atVersion:)` can read, oldest to this Realm's version:
    /// from the oldest retained history entry after which every entry keeps its old values
    /// (`Configuration.historyRecordsOldValues`). Nil for a file with no history.
    public var readableVersions: ClosedRange<UInt64>? {
        core.confinement.check()
        let txn = core.reading { try core.transaction() }
        return core.reading { try txn.history.oldestRebuildableVersion() }.map { $0...txn.version }
    }
}

extension RealmCore {
    /// The frozen instance of a copy of this file rebuilt at `version`
    /// (`Realm.freeze(atVersion:)`), kept in an in-memory Realm's file that goes with it.
    func frozen(atVersion version: UInt64) throws -> RealmCore {
        confinement.check()
        let live = try translatingErrors(path: path) { try transaction() }
        if version == live.version { return frozen() }
        try translatingErrors(path: path) { try live.checkRebuildable(version, of: path) }
        var configuration = configuration
        configuration.inMemoryIdentifier = "strata-version-\(version)-\(UUID().uuidString)"
        configuration.readOnly = true
        configuration.deleteRealmIfMigrationNeeded = false
        configuration.shouldCompactOnLaunch = nil
        configuration.seedFilePath = nil
        configuration.migrationBlock = nil
        let memory = try InMemoryFile.forIdentifier(configuration.inMemoryIdentifier!)
        let copy = try translatingErrors(path: path) { try file.writeCopy(atVersion: version, to: memory.path) }
        let core = try withExtendedLifetime((memory, copy)) { try RealmCore(configuration: configuration) }
        return core.frozen()
    }
}
