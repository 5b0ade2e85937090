import LMDB

/// Replaying a replication origin's commits on a follower (docs/REPLICATION.md, "Follow"):
/// each origin version becomes one local commit that writes back the rows and lists its new
/// values hold, with their index entries and backlinks, removes what it deleted, and records
/// the origin's change set, so local readers get notifications and history as for any commit.
extension StorageTransaction {
    /// Where this file stands as a follower: the origin it follows and the newest origin
    /// version it holds. Nil for a file that follows no origin.
    package func followedOrigin() throws(StorageError) -> (origin: String, applied: UInt64)? {
        guard let origin = try meta.replicationFollows else { return nil }
        return (origin, try meta.replicationApplied)
    }

    /// The origin version this file can replay next for `origin`: after the one it holds as a
    /// follower of it; after its own version when it is a copy of the origin (`writeCopy`)
    /// that follows nothing yet; nil for an empty new file, which starts from a snapshot.
    /// Throws `.invalidInput` when the file follows another origin, is the origin itself, or
    /// holds data of its own.
    package func replayPosition(for origin: String) throws(StorageError) -> UInt64? {
        let path = file.path
        if let (followed, applied) = try followedOrigin() {
            guard followed == origin else {
                throw StorageError(.invalidInput, "'\(path)' follows origin \(followed), not \(origin)")
            }
            return applied
        }
        if try meta.recordsNewValues {
            throw StorageError(.invalidInput, "'\(path)' is the origin \(try meta.replicationOrigin ?? "") itself: it pushes its commits and follows none")
        }
        if let copied = try meta.replicationOrigin {
            guard copied == origin else {
                throw StorageError(.invalidInput, "'\(path)' is a copy of origin \(copied), not of \(origin)")
            }
            return version
        }
        for name in schema.classes.keys {
            if let table = try table(name), try rows.count(table) > 0 {
                throw StorageError(.invalidInput, "'\(path)' holds objects of its own ('\(name)'): a follower starts from an empty file or from a copy of the origin")
            }
        }
        return nil
    }

    /// Applies `entry`, a commit of replication origin `origin`, as this write's changes, to
    /// be committed next: the file then holds `entry.version` of the origin. The entry must
    /// be the one after `replayPosition(for:)` (or, for a file with no position, a snapshot)
    /// and hold complete new values; `.invalidInput` says why it cannot be applied otherwise.
    package func replay(_ entry: HistoryEntry, of origin: String) throws(StorageError) {
        let position = try replayPosition(for: origin)
        let images = try entry.newValues()
        let name = "version \(entry.version) of origin \(origin)"
        guard let images, images.isComplete else {
            let why = images == nil ? "has no new values (it was committed before the file became a replication origin)"
                : "has no complete new values (over \(ObjectImages.maximumBytes >> 20) MiB)"
            throw StorageError(.invalidInput, "\(name) \(why): start the follower again from a copy of the origin (writeCopy) made at or after it")
        }
        if let position {
            guard entry.version == position + 1 else {
                throw StorageError(.invalidInput, "\(name) does not follow version \(position), the newest this file holds")
            }
        } else if !images.isSnapshot {
            throw StorageError(.invalidInput, "\(name) is not a snapshot: an empty follower starts from the snapshot the origin made when it began to record new values (or from a copy of the origin)")
        }
        oldValuesEnabled = false  // the entry keeps the origin's old values
        if images.isSnapshot { for table in try allTables() { try removeAll(table) } }
        if let schema = try entry.replicatedSchema() { try adopt(schema.classes, schemaVersion: schema.version) }
        for (className, c) in entry.changes.classes where !images.isSnapshot {
            guard let table = try table(className) else { throw StorageError(.invalidInput, "\(name) changes class '\(className)', which this file does not have") }
            if c.cleared { try removeAll(table) }
            for key in c.deleted { try removeObject(table, key) }
        }
        for (className, objects) in images.classes {
            guard let table = try table(className) else { throw StorageError(.invalidInput, "\(name) writes class '\(className)', which this file does not have") }
            for (key, object) in objects.sorted(by: { $0.key < $1.key }) {
                for (id, list) in object.lists {
                    guard let property = table.listProperties.first(where: { $0.id == id }) else {
                        throw StorageError(.invalidInput, "\(name) writes list property \(id) of '\(className)', which this file does not have")
                    }
                    try lists.restore(table, property, owner: key, list)
                }
                if let row = object.row { try restoreRow(table, key, row) }
            }
        }
        changes = entry.changes
        commitDescription = "Replicated from origin \(origin) version \(entry.version)" + (entry.description.map { ": \($0)" } ?? "")
        replayedExtensions = entry.extensions.filter {
            [HistoryEntry.Extension.oldValuesTag, HistoryEntry.Extension.newValuesTag, HistoryEntry.Extension.schemaTag,
             HistoryEntry.Extension.migrationTag].contains($0.tag)
        }
        try meta.setReplicationFollows(origin, applied: entry.version, committedAt: entry.time)
    }

    private func allTables() throws(StorageError) -> [Table] {
        var tables: [Table] = []
        for name in schema.classes.keys.sorted() { if let t = try table(name) { tables.append(t) } }
        return tables
    }

    private func removeAll(_ table: Table) throws(StorageError) {
        for key in try rows.allKeys(table) { try removeObject(table, key) }
    }

    /// Makes `classes` the stored schema, as the origin has it (property ids included).
    private func adopt(_ classes: [String: ClassSchema], schemaVersion: UInt64) throws(StorageError) {
        let gone = schema.classes.keys.filter { classes[$0] == nil }
        for name in gone { if let table = try table(name) { try removeAll(table) } }
        if !gone.isEmpty { removeFromSchema(gone) }
        let changed = classes.values.filter { schema.classes[$0.name] != $0 }.sorted { $0.name < $1.name }
        if !changed.isEmpty { try store(classes: changed) }
        try meta.setSchemaVersion(schemaVersion)
    }
}

extension HistoryEntry {
    /// The commit's after-images (`Extension.newValuesTag`), recorded on a replication
    /// origin; nil when the entry has none. Throws `.invalidDatabase` when they do not decode.
    package func newValues() throws(StorageError) -> ObjectImages? {
        guard let ext = extensions.first(where: { $0.tag == Extension.newValuesTag }) else { return nil }
        guard let decoded = ObjectImages(decoding: ext.bytes) else {
            throw StorageError(.invalidDatabase, "The new values in the history entry of version \(version) do not decode")
        }
        return decoded
    }

    /// The schema and schema version the commit left (`Extension.schemaTag`), when it changed
    /// them on a replication origin. Throws `.invalidDatabase` when the section does not decode.
    package func replicatedSchema() throws(StorageError) -> (classes: [String: ClassSchema], version: UInt64)? {
        guard let ext = extensions.first(where: { $0.tag == Extension.schemaTag }) else { return nil }
        let decoded: (FileSchema, UInt64)? = ext.bytes.withUnsafeBytes { bytes in
            var o = 0
            guard let version = Varint.read(bytes, at: &o), let schema = SchemaStore.schema(json: Array(bytes[o...])) else { return nil }
            return (schema, version)
        }
        guard let (schema, version) = decoded else {
            throw StorageError(.invalidDatabase, "The schema in the history entry of version \(self.version) does not decode")
        }
        return (schema.classes, version)
    }
}
