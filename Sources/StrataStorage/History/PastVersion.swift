import Foundation
import LMDB

/// Rebuilding a past version: a copy of the file whose newer commits are undone one by one,
/// newest first, from the before-images in their history entries (`ObjectImages`). Rows, lists,
/// index entries and backlinks are written back by the same stores as any write, so every
/// query, sort, aggregate and backlink of the copy answers as the version did.
extension StorageFile {
    /// Writes to `destination` (which must not exist) a copy of this file as it was at
    /// `version`, and returns the copy, open. Its history ends at `version`. Costs a copy of
    /// the file (O(file size)) and the undoing of every commit after `version`.
    /// Throws `.invalidInput` when `version` is newer than the file's newest or older than the
    /// oldest version that can be rebuilt (`HistoryStore.oldestRebuildableVersion`).
    package func writeCopy(atVersion version: UInt64, to destination: String) throws -> StorageFile {
        try writeCompactedCopy(to: destination)
        let copy = try StorageFile.open(path: destination, options: Options(syncOnCommit: false, encryptionKey: encryption?.key))
        let txn = try copy.beginWrite()
        defer { txn.abort() }
        try txn.checkRebuildable(version, of: path)
        txn.oldValuesEnabled = false
        try txn.history.forEach(after: version, newestFirst: true) { entry in
            try txn.undo(entry)
            return true
        }
        try txn.commitRebuilt(version)
        return copy
    }
}

extension HistoryStore {
    /// The oldest version this snapshot can rebuild: the oldest retained entry's version when
    /// every later entry has its before-images, otherwise the newest entry without them (the
    /// state after it is the oldest one known). Nil when the file has no history.
    package func oldestRebuildableVersion() throws -> UInt64? {
        var oldest: UInt64?
        try forEach(after: nil, newestFirst: true) { entry in
            oldest = entry.version
            return entry.isReversible
        }
        return oldest
    }
}

extension StorageTransaction {
    /// Throws `.invalidInput` unless `version` is between the oldest version this snapshot can
    /// rebuild and its newest. `path` names the file in the message.
    package func checkRebuildable(_ version: UInt64, of path: String) throws {
        if version > self.version {
            throw StorageError(.invalidInput, "Version \(version) of '\(path)' does not exist yet: the newest is \(self.version)")
        }
        guard let oldest = try history.oldestRebuildableVersion(), version >= oldest else {
            let readable = try history.oldestRebuildableVersion().map { "the oldest readable version is \($0)" } ?? "the file has no history"
            throw StorageError(.invalidInput, "Version \(version) of '\(path)' can no longer be read: \(readable) (older history entries were removed or have no old values)")
        }
    }

    /// Undoes commit `entry`, the newest this write sees: removes the objects it inserted,
    /// then writes back the rows and lists its before-images hold, with their index entries
    /// and backlinks. Records nothing in the change set.
    func undo(_ entry: HistoryEntry) throws {
        guard let old = try entry.oldValues(), old.isComplete else {
            throw StorageError(.invalidInput, "Version \(entry.version - 1) of '\(file.path)' cannot be rebuilt: the history entry of version \(entry.version) has no old values")
        }
        for (name, c) in entry.changes.classes {
            guard let table = try table(name) else { continue }
            for key in c.inserted { try removeObject(table, key) }
        }
        for (name, objects) in old.classes {
            guard let table = try table(name) else {
                throw StorageError(.invalidInput, "Version \(entry.version - 1) of '\(file.path)' cannot be rebuilt: class '\(name)' is no longer stored")
            }
            for (key, object) in objects {
                // Lists first: the row as it is now records whether each list it holds has
                // elements (its list markers), the old row what the old lists hold.
                for (id, list) in object.lists {
                    guard let property = table.schema.properties.first(where: { $0.id == id && $0.isList }) else {
                        throw StorageError(.invalidInput, "Version \(entry.version - 1) of '\(file.path)' cannot be rebuilt: property \(id) of '\(name)' is no longer stored")
                    }
                    try lists.restore(table, property, owner: key, list)
                }
                if let row = object.row { try restoreRow(table, key, row) }
            }
        }
    }

    /// Removes object `key` with its index entries, outgoing backlinks and lists, touching no
    /// other object.
    func removeObject(_ table: Table, _ key: ObjectKey) throws(StorageError) {
        guard let row = try rows.read(table, key) else { return }
        try unindex(table, key, row)
        for property in table.listProperties { try lists.clear(table, property, owner: key) }
        try rows.remove(table, key)
    }

    /// Writes `row` (unsealed) as the row of object `key`, moving its index entries and
    /// outgoing backlinks (those of its mixed values' links too) from the row it replaces.
    func restoreRow(_ table: Table, _ key: ObjectKey, _ row: [UInt8]) throws(StorageError) {
        if let current = try rows.read(table, key) { try unindex(table, key, current) }
        let values: [(PropertySchema, Value)]? = row.withUnsafeBytes { bytes in
            RowView(bytes).map { view in (table.indexedProperties + table.links + table.mixedProperties).map { ($0, view.value($0)) } }
        }
        guard let values else { throw rows.damaged(table, key) }
        let indexed = values.prefix(table.indexedProperties.count)
        let linked = values.dropFirst(table.indexedProperties.count).prefix(table.links.count)
        try rows.put(table, key, row)
        for (property, value) in indexed { try indexes.add(table, property, value, key) }
        for (link, value) in linked {
            if case .link(let target) = value { try links.add(table, link, target: target, origin: key) }
        }
        for (property, value) in values.suffix(table.mixedProperties.count) {
            try links.changeOccurrences(of: value, table, property, in: key, by: 1)
        }
    }

    /// Removes the index entries and outgoing to-one backlinks of object `key`'s `row`.
    private func unindex(_ table: Table, _ key: ObjectKey, _ row: RowView) throws(StorageError) {
        let indexed = table.indexedProperties.map { ($0, row.value($0)) }
        let linked = table.links.map { row.value($0) }
        for (property, value) in indexed { try indexes.remove(table, property, value, key) }
        for (link, value) in zip(table.links, linked) {
            if case .link(let target) = value { try links.remove(table, link, target: target, origin: key) }
        }
        for property in table.mixedProperties { try links.changeOccurrences(of: row.value(property), table, property, in: key, by: -1) }
    }

    /// Commits a rebuilt copy at `version`: removes the history entries after it and commits
    /// the LMDB transaction, recording no entry of its own.
    func commitRebuilt(_ version: UInt64) throws(StorageError) {
        let context = "Writing version \(version) of '\(file.path)'"
        if let db = history.database {
            try StorageError.translating(context) {
                try lmdb.withCursor(db) { cursor in
                    while let last = try cursor.last(), HistoryStore.version(ofKey: last.key) > version { try cursor.deleteCurrent() }
                }
            }
        }
        try meta.finishCommit(of: version, format: try meta.format(context), context)
        try StorageError.translating(context) { try lmdb.commit() }
        endCreating(committed: true)
    }
}
