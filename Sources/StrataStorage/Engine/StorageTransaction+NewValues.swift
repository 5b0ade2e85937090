import Foundation
import LMDB

/// The recording of after-images (new values) on a replication origin: at commit, the rows
/// and changed lists of the objects the commit inserted or modified, as they are now, and the
/// schema when the commit changed it, so that a follower redoes the commit from its history
/// entry alone (docs/REPLICATION.md, docs/FILE-FORMAT.md "New values").
extension StorageTransaction {
    /// The history extensions of the commit's new values and schema: none unless the file
    /// records new values (meta `newValues`, set when it becomes a replication origin).
    func newValuesExtensions() throws(StorageError) -> [HistoryEntry.Extension] {
        guard try settings.recordsNewValues else { return [] }
        let images = newValuesAreSnapshot ? try snapshotImages() : try newValues()
        var extensions = [HistoryEntry.Extension(tag: HistoryEntry.Extension.newValuesTag, bytes: images.encoded())]
        if schemaChanged || newValuesAreSnapshot {
            var bytes: [UInt8] = []
            Varint.append(try settings.schemaVersion ?? 0, to: &bytes)
            bytes += try SchemaStore.json(schema)
            extensions.append(HistoryEntry.Extension(tag: HistoryEntry.Extension.schemaTag, bytes: bytes))
        }
        return extensions
    }

    /// The after-images of what this write inserted or modified.
    private func newValues() throws(StorageError) -> ObjectImages {
        var images = ObjectImages()
        for (name, c) in changes.classes.sorted(by: { $0.key < $1.key }) {
            guard let table = try table(name) else { continue }
            for key in c.inserted where images.isComplete {
                try recordNewObject(table, key, lists: table.listProperties, whole: true, into: &images)
            }
            for (key, mask) in c.modified where images.isComplete {
                let lists = table.listProperties.filter { mask & ClassChanges.bit($0.id) != 0 }
                try recordNewObject(table, key, lists: lists, whole: false, into: &images)
            }
        }
        return images
    }

    /// Every object of the file, rows and lists whole: the new values of the commit that makes
    /// the file a replication origin.
    private func snapshotImages() throws(StorageError) -> ObjectImages {
        var images = ObjectImages()
        images.isSnapshot = true
        for name in schema.classes.keys.sorted() {
            guard let table = try table(name) else { continue }
            let rows = self.rows.scan(table)
            while images.isComplete, let (key, row) = try rows.next() { images.record(row: row.bytes, of: name, key) }
            for property in table.listProperties {
                for owner in try lists.owners(table, property) where images.isComplete {
                    try recordNewList(table, property, owner: owner, whole: true, into: &images)
                }
            }
        }
        return images
    }

    /// Records object `key`'s row and its lists `lists` as they are now, each with every
    /// chunk when `whole` (an object the write inserted).
    private func recordNewObject(_ table: Table, _ key: ObjectKey, lists: [PropertySchema], whole: Bool,
                                 into images: inout ObjectImages) throws(StorageError) {
        guard let row = try rows.read(table, key) else { throw rows.damaged(table, key) }
        images.record(row: row.bytes, of: table.name, key)
        for property in lists where images.isComplete {
            try recordNewList(table, property, owner: key, whole: whole, into: &images)
        }
    }

    /// Records `owner`'s list `property` as it is now: its directory, map keys and the
    /// entries (chunks and nodes) this write wrote (every entry when `whole`, or when the
    /// before-images do not tell which entries the write left alone).
    private func recordNewList(_ table: Table, _ property: PropertySchema, owner: ObjectKey, whole: Bool,
                               into images: inout ObjectImages) throws(StorageError) {
        images.record(list: try lists.image(table, property, owner: owner), of: table.name, owner, property: property.id)
        let old = whole ? nil : oldValues.list(of: table.name, owner, property: property.id)
        func record(_ id: UInt32) throws(StorageError) {
            let bytes = try lists.read(table, property, key: ListStore.key(owner, chunk: id)) { $0.map(Array.init) }
            guard let bytes else { throw lists.damagedList(table, property, owner) }
            images.record(chunk: bytes, id, of: table.name, owner, property: property.id)
        }
        let dir = try lists.directory(table, property, owner)
        for entry in dir.entries where images.isComplete {
            // The old list had it and the write did not touch it (a node: nor its chunks).
            if let old, old.lacksChunk(entry.id) { continue }
            try record(entry.id)
            guard dir.isNested else { continue }
            for c in try lists.node(table, property, owner, entry).chunks where images.isComplete {
                if let old, old.lacksChunk(c.id) { continue }
                try record(c.id)
            }
        }
    }
}

extension MetaStore {
    /// Whether commits record their new values and schema in their history entries (meta
    /// `newValues`: u64 LE, 1 on; absent or 0 off), as a replication origin's do.
    package var recordsNewValues: Bool {
        get throws(StorageError) {
            let stored: UInt64? = try integer(MetaKeys.newValues, "Reading the history settings of '\(transaction.file.path)'")
            return stored == 1
        }
    }

    /// A new random file id, and commits that record no new values (for a copy: a file of
    /// its own, not the origin it was copied from).
    func makeNewFile() throws(StorageError) {
        let context = "Writing the file id of '\(transaction.file.path)'"
        try setInteger(MetaKeys.fileID, UInt64.random(in: 1 ... .max), context)
        try setInteger(MetaKeys.newValues, UInt64(0), context)
    }

    /// Makes this and every later commit record new values; this commit's are the whole file
    /// (a snapshot a follower can start from).
    package func startRecordingNewValues() throws(StorageError) {
        try setInteger(MetaKeys.newValues, 1, "Writing the history settings of '\(transaction.file.path)'")
        transaction.newValuesAreSnapshot = true
    }
}

extension MetaKeys {
    /// u64 LE: 1 when commits record new values (a replication origin); absent or 0: they do not.
    static let newValues = "newValues"
}
