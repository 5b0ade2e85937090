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
package struct ObjectImages: Sendable {
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

    /// The images of one class's objects.
    struct ClassImages: Equatable, Sendable {
        /// The rows recorded one by one, each object's once (`rowKeys`).
        var rows = RowImages()
        /// The keys of the objects `rows` holds a row of.
        var rowKeys: Set<ObjectKey> = []
        /// The lists recorded, by object key and property id.
        var lists: [ObjectKey: [Int: List]] = [:]
        /// The rows the class had when the commit cleared it, in ascending key order, apart
        /// from `rows` (which hold those recorded before the clear); `encoded()` merges them.
        var cleared = RowImages()

        /// Whether there is nothing in them.
        var isEmpty: Bool { rows.count == 0 && lists.isEmpty && cleared.count == 0 }
    }

    /// The images by class name, but for those of the class recorded last (`recent`).
    private var settled: [String: ClassImages] = [:]
    /// The class recorded last and its images, kept apart so that recording an object of the
    /// same class as the one before does not look its name up (as `ChangeSet`'s recording).
    private var recent: (name: String, images: ClassImages)?
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

    /// The images by class name.
    var images: [String: ClassImages] {
        var all = settled
        if let recent { all[recent.name] = recent.images }
        return all
    }

    /// Class `name`'s images, if any are recorded.
    private func images(of name: String) -> ClassImages? {
        recent?.name == name ? recent!.images : settled[name]
    }

    /// Runs `body` on class `name`'s images (empty ones when none are recorded), making them
    /// the recent ones.
    private mutating func withImages<R>(of name: String, _ body: (inout ClassImages) -> R) -> R {
        if recent?.name != name {
            if let (previous, images) = recent { settled[previous] = images }
            recent = (name, settled.removeValue(forKey: name) ?? ClassImages())
        }
        return body(&recent!.images)
    }

    /// Sets class `name`'s images.
    mutating func setImages(_ images: ClassImages, of name: String) {
        withImages(of: name) { $0 = images }
    }

    /// The objects by class name and object key, each with its row and lists (the rows a
    /// clear recorded are left out): made when asked, for those who read images.
    package var classes: [String: [ObjectKey: Object]] {
        images.compactMapValues { c in
            var objects: [ObjectKey: Object] = [:]
            for i in 0..<c.rows.count { objects[c.rows.keys[i]] = Object(row: Array(c.rows.row(at: i))) }
            for (key, lists) in c.lists { objects[key, default: Object()].lists = lists }
            return objects.isEmpty ? nil : objects
        }
    }

    /// The old image of list `property` of object `key` of class `className`, if recorded.
    func list(of className: String, _ key: ObjectKey, property: Int) -> List? {
        images(of: className)?.lists[key]?[property]
    }

    /// Whether list `property` of the object is already recorded (or the commit incomplete).
    func hasList(_ className: String, _ key: ObjectKey, _ property: Int) -> Bool {
        !isComplete || list(of: className, key, property: property) != nil
    }

    /// Records the row of an object before its first change, unless it is already recorded
    /// (one lookup of the class, one of the key).
    mutating func record(row: UnsafeRawBufferPointer, of className: String, _ key: ObjectKey) {
        guard isComplete else { return }
        let added = withImages(of: className) { Self.record(row, key, in: &$0) }
        if added { _ = account(row.count) }
    }

    /// Appends `row` as object `key`'s unless `c` has its row; whether it did.
    static func record(_ row: UnsafeRawBufferPointer, _ key: ObjectKey, in c: inout ClassImages) -> Bool {
        guard c.rowKeys.insert(key).inserted else { return false }
        c.rows.append(key, row)
        return true
    }

    /// Records the rows `walk` hands to its `record` in ascending key order: every object of
    /// class `className` when the commit clears it (once per commit), `expected` of them. An
    /// object recorded before the clear keeps its image. `record` returns false once the
    /// commit has given up (over `maximumBytes`).
    mutating func recordClearedRows<E: Error>(of className: String, expected: Int,
                                              _ walk: (_ record: (ObjectKey, UnsafeRawBufferPointer) -> Bool) throws(E) -> Void) throws(E) {
        guard isComplete else { return }
        let imaged = images(of: className)?.rowKeys ?? []
        var rows = RowImages()
        rows.reserveCapacity(expected)
        // Kept unless the commit gave up meanwhile (which dropped every class).
        defer { if isComplete { withImages(of: className) { $0.cleared = rows } } }
        try walk { key, row in
            if !imaged.isEmpty, imaged.contains(key) { return true }
            rows.append(key, row)
            return account(row.count)
        }
    }

    /// Records the old directory and map keys of a list before its first change, unless
    /// already recorded.
    mutating func record(list: List, of className: String, _ key: ObjectKey, property: Int) {
        guard !hasList(className, key, property), account(list.directory.count + (list.mapKeys?.count ?? 0)) else { return }
        withImages(of: className) { $0.lists[key, default: [:]][property] = list }
    }

    /// Whether chunk `id` of a recorded list needs its old bytes: the list's old directory
    /// names it and they are not recorded yet (false once the commit is incomplete).
    func needsChunk(_ id: UInt32, of className: String, _ key: ObjectKey, property: Int) -> Bool {
        isComplete && list(of: className, key, property: property)?.lacksChunk(id) == true
    }

    /// Records the old bytes of chunk `id` of a recorded list, before the commit first
    /// overwrites or deletes it (`needsChunk`).
    mutating func record(chunk: [UInt8], _ id: UInt32, of className: String, _ key: ObjectKey, property: Int) {
        guard account(chunk.count) else { return }
        withImages(of: className) { $0.lists[key]?[property]?.record(chunk, id) }
    }

    /// Marks the commit's before-images incomplete and lets go of them.
    mutating func giveUp() {
        isComplete = false
        settled = [:]
        recent = nil
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
        for (name, c) in images {
            guard let changed = changes.classes[name] else { continue }
            if changed.cleared {
                result.setImages(c, of: name)
                continue
            }
            let deleted = Set(changed.deleted)
            func keeps(_ key: ObjectKey) -> Bool { changed.modified[key] != nil || deleted.contains(key) }
            if c.rows.keys.allSatisfy(keeps), c.lists.keys.allSatisfy(keeps) {
                result.setImages(c, of: name)
                continue
            }
            var kept = ClassImages()
            for i in 0..<c.rows.count where keeps(c.rows.keys[i]) {
                c.rows.row(at: i).withUnsafeBytes { _ = Self.record($0, c.rows.keys[i], in: &kept) }
            }
            kept.lists = c.lists.filter { keeps($0.key) }
            if !kept.isEmpty { result.setImages(kept, of: name) }
        }
        return result
    }
}

extension ObjectImages: Equatable {
    /// Equal when they hold the same images with the same flags, however recorded.
    package static func == (a: ObjectImages, b: ObjectImages) -> Bool {
        a.isComplete == b.isComplete && a.isSnapshot == b.isSnapshot && a.images == b.images
    }
}
