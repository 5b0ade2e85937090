import CStrataSync
import Foundation
import Glibc

/// One process in the coordination file's registry, as `strata versions` and
/// `Realm.openProcesses` show it.
package struct RegisteredProcess: Equatable, Sendable {
    package var pid: Int32
    /// The executable's name.
    package var name: String
    /// When it opened the file.
    package var openedAt: Date
    /// The oldest version it pins (nil when it holds no snapshot), since when, and the LMDB
    /// transaction id of that snapshot.
    package var pinnedVersion: UInt64?
    package var pinnedSince: Date?
    package var pinnedTransaction: Int?
    /// How many snapshots it holds open.
    package var snapshots: Int
}

extension CoordinationFile {
    private typealias L = CoordinationLayout

    private func offset(_ slot: Int, _ field: Int) -> Int { slotOffset(slot, field) }

    /// Claims a free slot for this process and fills it (the registry lock is held).
    func claimSlot() throws -> Int {
        let me = ProcessIdentity.current
        for slot in 0..<L.slotCount where mapping.load32(offset(slot, L.pidOffset)) == 0 {
            clearPins(slot)
            mapping.store64(offset(slot, L.startTimeOffset), me.startTime)
            mapping.store64(offset(slot, L.openedOffset), Self.nanosecondsNow())
            var name = Array(ProcessIdentity.currentName.utf8.prefix(L.nameSize - 1))
            name += [UInt8](repeating: 0, count: L.nameSize - name.count)
            mapping.write(name, at: offset(slot, L.nameOffset))
            mapping.store32(offset(slot, L.awakeOffset), 0)
            strata_max32(mapping.word32(L.slotHighWaterOffset), UInt32(slot + 1))
            mapping.store32(offset(slot, L.pidOffset), UInt32(bitPattern: me.pid))
            return slot
        }
        throw StorageError(.fail, "The coordination file '\(path)' has no free process slot: \(L.slotCount) processes have the database open")
    }

    /// Empties a slot: its owner closing it (no lock needed: the pid is cleared last, and
    /// only a free pid lets a claimer take the slot), or a reclaimer, for a dead owner, with
    /// the registry lock held.
    func free(_ slot: Int) {
        clearPins(slot)
        mapping.store64(offset(slot, L.startTimeOffset), 0)
        mapping.store32(offset(slot, L.pidOffset), 0)
    }

    private func clearPins(_ slot: Int) {
        mapping.store32(offset(slot, L.pinCountOffset), 0)
        mapping.store64(offset(slot, L.pinnedVersionOffset), 0)
        mapping.store64(offset(slot, L.pinnedSinceOffset), 0)
        mapping.store64(offset(slot, L.pinnedTxnOffset), 0)
    }

    /// Frees the slots of processes that died without closing the file (the registry lock is
    /// held). Returns how many it freed.
    @discardableResult
    func reclaimDeadSlots() -> Int {
        var freed = 0
        for slot in 0..<L.slotCount {
            let pid = Int32(bitPattern: mapping.load32(offset(slot, L.pidOffset)))
            guard pid != 0 else { continue }
            let owner = ProcessIdentity(pid: pid, startTime: mapping.load64(offset(slot, L.startTimeOffset)))
            if !owner.isAlive {
                free(slot)
                freed += 1
            }
        }
        return freed
    }

    /// Frees the slots of dead processes, taking the registry lock if it is free at once (a
    /// writer calls this, and must not wait on a lock any reader of the file can take).
    /// Returns how many.
    package func reclaimDeadProcesses() -> Int {
        let freed = (try? withRegistryLock(patience: .zero) { reclaimDeadSlots() }) ?? 0
        logFreed(freed)
        return freed
    }

    /// Reports the slots `reclaimDeadSlots` freed, if any.
    func logFreed(_ freed: Int) {
        guard freed > 0 else { return }
        StorageLog.record(.info, "Freed the slot\(freed == 1 ? "" : "s") of \(freed) process\(freed == 1 ? "" : "es") that died with '\(path)' open")
    }

    /// Records this process's pins: the oldest version it holds (with its LMDB transaction id
    /// and since when) and how many snapshots it holds; nil when it holds none. Only the
    /// owner writes its slot, so no lock is taken; a reader may see the fields of two updates
    /// mixed for an instant.
    package func publishPins(oldest: (version: UInt64, transaction: Int, since: Date)?, snapshots: Int) {
        guard let slot else { return }
        if let oldest {
            mapping.store64(offset(slot, L.pinnedVersionOffset), oldest.version)
            mapping.store64(offset(slot, L.pinnedTxnOffset), UInt64(oldest.transaction))
            mapping.store64(offset(slot, L.pinnedSinceOffset), UInt64(max(0, oldest.since.timeIntervalSince1970 * 1e9)))
        }
        mapping.store32(offset(slot, L.pinCountOffset), UInt32(snapshots))
    }

    /// The processes that have the database open now, this one included, after freeing the
    /// slots of dead ones.
    package func processes() -> [RegisteredProcess] {
        if isWritable { _ = reclaimDeadProcesses() }
        var result: [RegisteredProcess] = []
        for slot in 0..<L.slotCount {
            let pid = Int32(bitPattern: mapping.load32(offset(slot, L.pidOffset)))
            guard pid != 0 else { continue }
            let owner = ProcessIdentity(pid: pid, startTime: mapping.load64(offset(slot, L.startTimeOffset)))
            guard owner.isAlive else { continue }
            let nameBytes = mapping.bytes(offset(slot, L.nameOffset), count: L.nameSize).prefix { $0 != 0 }
            let snapshots = Int(mapping.load32(offset(slot, L.pinCountOffset)))
            let pinned = snapshots > 0
            result.append(RegisteredProcess(
                pid: pid,
                name: String(decoding: nameBytes, as: UTF8.self),
                openedAt: Self.date(mapping.load64(offset(slot, L.openedOffset))),
                pinnedVersion: pinned ? mapping.load64(offset(slot, L.pinnedVersionOffset)) : nil,
                pinnedSince: pinned ? Self.date(mapping.load64(offset(slot, L.pinnedSinceOffset))) : nil,
                pinnedTransaction: pinned ? Int(mapping.load64(offset(slot, L.pinnedTxnOffset))) : nil,
                snapshots: snapshots))
        }
        return result
    }
}
