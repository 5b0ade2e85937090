/// Images of the objects one commit changed, stored in its history entry: its before-images
/// (its old values, extension `HistoryEntry.Extension.oldValuesTag`, docs/FILE-FORMAT.md "Old
/// values"), so that a past version can be rebuilt from the current data by undoing the commits
/// after it (`StorageTransaction.undo`), and on a replication origin its after-images (its new
/// values, `newValuesTag`, "New values"), so that a follower can redo it
/// (`StorageTransaction.replay`).
///
/// Per object: its whole row as it was before its first change in the commit (or after its
/// last), when the commit changed the row, and for each list, set or map it changed, the
/// directory then and the bytes of the chunks of that directory the commit rewrote, deleted
/// (before) or wrote (after) (`List`). Before-images leave out inserted objects (undoing removes
/// them), after-images deleted ones (redoing removes them).
package struct ObjectImages: Equatable, Sendable {
    /// The state of one object.
    package struct Object: Equatable, Sendable {
        /// The row as it was, unsealed; nil when the commit changed only lists of the object.
        package var row: [UInt8]?
        /// The old contents of each changed list property, by property id.
        package var lists: [Int: List] = [:]
    }

    /// The image of one list, set or map: its directory, the old bytes of the entries (chunks,
    /// and nodes of a nested directory) the commit changed, and a map's keys. The entries it
    /// does not hold were not changed by the commit (`ListStore.oldElements`).
    package struct List: Equatable, Sendable {
        /// The directory as it was (`ListEncoding.Directory`, unsealed); empty when the list
        /// had none (it was empty).
        package let directory: [UInt8]
        /// The ids of the entries the old list had, as far as the image tells: the chunks of a
        /// flat directory; a nested one's nodes, and the chunks of the nodes the image holds.
        private var oldEntries: Set<UInt32> = []
        /// A nested directory's nodes and their element counts.
        private var nodes: [UInt32: Int] = [:]
        /// The old bytes (`ListEncoding` chunks and nodes, unsealed) of the entries of the old
        /// list that the commit overwrote or deleted, by id.
        package private(set) var chunks: [UInt32: [UInt8]] = [:]
        /// A map's keys (`MapKeysEncoding`), nil for a list or set, or a map that had none.
        package var mapKeys: [UInt8]?

        /// The image of a list whose old directory is `directory` (names no entries when it
        /// does not decode), with the old entries `chunks` recorded so far and old map keys
        /// `mapKeys`.
        package init(directory: [UInt8], chunks: [UInt32: [UInt8]] = [:], mapKeys: [UInt8]? = nil) {
            self.directory = directory
            self.mapKeys = mapKeys
            if let dir = directory.withUnsafeBytes({ ListEncoding.Directory($0) }) {
                oldEntries = Set(dir.entries.map(\.id))
                if dir.isNested { nodes = Dictionary(dir.entries.map { ($0.id, $0.count) }) { a, _ in a } }
            }
            for (id, bytes) in chunks { record(bytes, id) }
        }

        /// How many elements the list had: its old directory's total.
        package var count: Int {
            directory.withUnsafeBytes { ListEncoding.Directory.total(in: $0) } ?? 0
        }

        /// Whether the old list had entry `id` and the image does not hold it yet. (An entry
        /// of a node the image does not hold counts as not had: the node stands for it.)
        func lacksChunk(_ id: UInt32) -> Bool {
            chunks[id] == nil && oldEntries.contains(id)
        }

        /// Whether the image holds only entries the old list had.
        var holdsOldEntriesOnly: Bool { chunks.keys.allSatisfy(oldEntries.contains) }

        /// Records the old bytes of entry `id`; a node's chunks become entries the old list had.
        mutating func record(_ bytes: [UInt8], _ id: UInt32) {
            chunks[id] = bytes
            if let count = nodes[id], let node = bytes.withUnsafeBytes({ ListEncoding.Node($0, count: count) }) {
                oldEntries.formUnion(node.chunks.lazy.map(\.id))
            }
        }
    }

    /// The objects by class name and object key.
    package var classes: [String: [ObjectKey: Object]] = [:]
    /// The rows of the classes the commit cleared, by class name, apart from `classes` (which
    /// holds those recorded before the clear, and lists); `encoded()` merges the two.
    var clearedRows: [String: ClearedRows] = [:]
    /// False when the commit's images are not all recorded (the commit went over
    /// `maximumBytes`, or rewrote rows wholesale, as a migration does): the versions before
    /// the commit cannot be rebuilt (old values), or a follower cannot redo it (new values).
    package var isComplete = true
    /// Whether the images are every object of the file (new values of the commit that made
    /// the file a replication origin): a follower empties itself before applying them.
    package var isSnapshot = false
    /// The bytes recorded so far (rows and list contents).
    private(set) var byteCount = 0
    /// Whether the commit cleared a class (whose later changes then need no images).
    var clearsClasses = false

    /// The most bytes of before-images one commit keeps (64 MiB); a commit over it, such as
    /// the `deleteAll()` of a large class, is recorded as incomplete.
    package static let maximumBytes = 64 << 20

    package init() {}

    /// Whether list `property` of the object is already recorded (or the commit incomplete).
    func hasList(_ className: String, _ key: ObjectKey, _ property: Int) -> Bool {
        !isComplete || classes[className]?[key]?.lists[property] != nil
    }

    /// Records the row of an object before its first change, unless it is already recorded
    /// (one lookup of the class and the key, in place).
    mutating func record(row: UnsafeRawBufferPointer, of className: String, _ key: ObjectKey) {
        guard isComplete else { return }
        let added = Self.setRow(&classes[className, default: [:]][key, default: Object()], row)
        if added { _ = account(row.count) }
    }

    /// Records the rows `walk` hands to its `record` in ascending key order: every object of
    /// class `className` when the commit clears it (once per commit), `expected` of them. An
    /// object recorded before the clear keeps its image. `record` returns false once the
    /// commit has given up (over `maximumBytes`).
    mutating func recordClearedRows<E: Error>(of className: String, expected: Int,
                                              _ walk: (_ record: (ObjectKey, UnsafeRawBufferPointer) -> Bool) throws(E) -> Void) throws(E) {
        guard isComplete else { return }
        let imaged = classes[className] ?? [:]
        var rows = ClearedRows()
        rows.reserveCapacity(expected)
        // Kept unless the commit gave up meanwhile (which dropped every class).
        defer { if isComplete { clearedRows[className] = rows } }
        try walk { key, row in
            if !imaged.isEmpty, imaged[key]?.row != nil { return true }
            rows.append(key, row)
            return account(row.count)
        }
    }

    /// Sets `object`'s row to `row` (its seal flag cleared) unless it has one; whether it did.
    private static func setRow(_ object: inout Object, _ row: UnsafeRawBufferPointer) -> Bool {
        guard object.row == nil else { return false }
        var bytes = Array(row)
        bytes[0] &= ~RowEncoder.sealedFlag
        object.row = bytes
        return true
    }

    /// Records the old directory and map keys of a list before its first change, unless
    /// already recorded.
    mutating func record(list: List, of className: String, _ key: ObjectKey, property: Int) {
        guard !hasList(className, key, property), account(list.directory.count + (list.mapKeys?.count ?? 0)) else { return }
        classes[className, default: [:]][key, default: Object()].lists[property] = list
    }

    /// Whether chunk `id` of a recorded list needs its old bytes: the list's old directory
    /// names it and they are not recorded yet (false once the commit is incomplete).
    func needsChunk(_ id: UInt32, of className: String, _ key: ObjectKey, property: Int) -> Bool {
        isComplete && classes[className]?[key]?.lists[property]?.lacksChunk(id) == true
    }

    /// Records the old bytes of chunk `id` of a recorded list, before the commit first
    /// overwrites or deletes it (`needsChunk`).
    mutating func record(chunk: [UInt8], _ id: UInt32, of className: String, _ key: ObjectKey, property: Int) {
        guard account(chunk.count) else { return }
        classes[className]?[key]?.lists[property]?.record(chunk, id)
    }

    /// Marks the commit's before-images incomplete and lets go of them.
    mutating func giveUp() {
        isComplete = false
        classes = [:]
        clearedRows = [:]
        byteCount = 0
    }

    /// Counts `bytes` more; gives up (returning false) past `maximumBytes`.
    private mutating func account(_ bytes: Int) -> Bool {
        byteCount += bytes
        if byteCount > Self.maximumBytes { giveUp() }
        return isComplete
    }

    /// The images of the objects `changes` lists as modified or deleted (or, for a cleared
    /// class, every recorded one): what a commit stores. Images of objects the commit
    /// inserted are dropped (undoing it removes them).
    func kept(for changes: ChangeSet) -> ObjectImages {
        var result = ObjectImages()
        result.isComplete = isComplete
        guard isComplete else { return result }
        for (name, objects) in classes {
            guard let c = changes.classes[name] else { continue }
            var kept: [ObjectKey: Object] = [:]
            if c.cleared {
                kept = objects
            } else {
                for key in c.deleted { if let o = objects[key] { kept[key] = o } }
                for key in c.modified.keys { if let o = objects[key] { kept[key] = o } }
            }
            if !kept.isEmpty { result.classes[name] = kept }
        }
        for (name, rows) in clearedRows where changes.classes[name]?.cleared == true {
            result.clearedRows[name] = rows
        }
        return result
    }
}
