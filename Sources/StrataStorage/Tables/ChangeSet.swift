/// What one commit changed in one class: the keys of inserted, deleted and modified objects
/// and, for modified ones, which properties (a bit per property id; bit 63 stands for every
/// id ≥ 63). `cleared` means every object that existed before the commit was deleted.
package struct ClassChanges: Equatable, Sendable {
    package private(set) var inserted: [ObjectKey] = []
    package var deleted: [ObjectKey] = []
    package var modified: [ObjectKey: UInt64] = [:]
    package var cleared = false
    /// The first `indexedCount` keys of `inserted`, for the membership tests of a modify or
    /// delete; the rest are added on the next such test, so that a run of inserts (the
    /// commonest write) hashes nothing.
    private var insertedSet: Set<ObjectKey> = []
    private var indexedCount = 0

    package init() {}

    package init(inserted: [ObjectKey], deleted: [ObjectKey], modified: [ObjectKey: UInt64], cleared: Bool) {
        self.inserted = inserted
        self.deleted = deleted
        self.modified = modified
        self.cleared = cleared
    }

    /// The bit that stands for property `id` in a modification mask.
    package static func bit(_ id: Int) -> UInt64 { 1 << UInt64(Swift.min(id, 63)) }

    mutating func recordInsert(_ key: ObjectKey) {
        inserted.append(key)
    }

    mutating func recordModify(_ key: ObjectKey, property id: Int) {
        recordModify(key, mask: Self.bit(id))
    }

    private mutating func recordModify(_ key: ObjectKey, mask: UInt64) {
        if wasInserted(key) { return }
        modified[key, default: 0] |= mask
    }

    mutating func recordDelete(_ key: ObjectKey) {
        if wasInserted(key) {
            insertedSet.remove(key)
            inserted.removeAll { $0 == key }
            indexedCount = inserted.count
            return
        }
        modified[key] = nil
        deleted.append(key)
    }

    /// Whether `key` was inserted by this commit (after indexing the inserts not yet indexed).
    private mutating func wasInserted(_ key: ObjectKey) -> Bool {
        if indexedCount < inserted.count {
            insertedSet.formUnion(inserted[indexedCount...])
            indexedCount = inserted.count
        }
        return insertedSet.contains(key)
    }

    mutating func recordClear() {
        self = ClassChanges()
        cleared = true
    }

    /// Records the changes of `later`, recorded after these on their own, as if they had
    /// been recorded here: a clear first, then deletes, inserts and modifies. That order gives
    /// the same result as the original sequence: a key deleted and then inserted again (an
    /// integer primary key) is deleted first; one inserted and then deleted left no trace in
    /// `later`; a modify after an insert of the same key was not recorded.
    mutating func absorb(_ later: ClassChanges) {
        if later.cleared { recordClear() }
        for key in later.deleted { recordDelete(key) }
        for key in later.inserted { recordInsert(key) }
        for (key, mask) in later.modified { recordModify(key, mask: mask) }
    }

    /// Whether nothing changed.
    package var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty && !cleared }

    package static func == (a: ClassChanges, b: ClassChanges) -> Bool {
        a.inserted == b.inserted && a.deleted == b.deleted && a.modified == b.modified && a.cleared == b.cleared
    }
}

/// Everything one commit changed, per class name.
package struct ChangeSet: Equatable, Sendable {
    package var classes: [String: ClassChanges] = [:]
    package init() {}

    /// Whether the commit changed no object.
    package var isEmpty: Bool { classes.values.allSatisfy(\.isEmpty) }

    /// Records the changes of `later` (recorded after these, on their own) here.
    mutating func absorb(_ later: ChangeSet) {
        for (name, changes) in later.classes { classes[name, default: ClassChanges()].absorb(changes) }
    }
}
