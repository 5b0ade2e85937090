import LMDB

// To-one links and their stored backlinks (docs/FILE-FORMAT.md, "Links"). A link is the target's
// object key in the origin's row slot; `backlinks.<Origin>.<property>` maps each target key to
// the keys of the origin objects that link to it, written in the same transaction, so that
// inverse relationships are looked up (and counted) in O(log n) rather than found by scanning.

extension StorageTransaction {
    /// The keys of the objects of `origin` whose link `property` points at `target`, ascending.
    package func origins(_ origin: Table, _ property: PropertySchema, linkingTo target: ObjectKey) throws -> [ObjectKey] {
        var keys: [ObjectKey] = []
        try withBacklinkCursor(origin, property, target) { cursor, entry in
            var entry = entry
            while let e = entry {
                keys.append(ObjectKeyCoding.decode(e.value))
                entry = try cursor.nextDuplicate()
            }
        }
        return keys
    }

    /// How many objects of `origin` link to `target` through `property`, in O(log n).
    package func originCount(_ origin: Table, _ property: PropertySchema, linkingTo target: ObjectKey) throws -> Int {
        var n = 0
        try withBacklinkCursor(origin, property, target) { cursor, entry in
            if entry != nil { n = try cursor.duplicateCount() }
        }
        return n
    }

    private func withBacklinkCursor(_ origin: Table, _ property: PropertySchema, _ target: ObjectKey,
                                    _ body: (borrowing Cursor, Cursor.Entry?) throws -> Void) throws {
        guard let db = origin.backlinks[property.id] else { return }
        var k = ObjectKeyCoding.encode(target)
        try lmdbCall("Reading the backlinks of '\(origin.name).\(property.name)'") {
            try lmdb.withCursor(db) { cursor in
                try withUnsafeBytes(of: &k) { try body(cursor, try cursor.seek(exactly: $0)) }
            }
        }
    }

    /// Records that `originKey`'s link `property` now points at `target`.
    func addBacklink(_ origin: Table, _ property: PropertySchema, target: ObjectKey, origin originKey: ObjectKey) throws {
        try withBacklinkEntry(origin, property, target, originKey) { db, k, v in try lmdb.put(db, key: k, value: v) }
    }

    /// Records that `originKey`'s link `property` no longer points at `target`.
    func removeBacklink(_ origin: Table, _ property: PropertySchema, target: ObjectKey, origin originKey: ObjectKey) throws {
        try withBacklinkEntry(origin, property, target, originKey) { db, k, v in _ = try lmdb.delete(db, key: k, value: v) }
    }

    private func withBacklinkEntry(_ origin: Table, _ property: PropertySchema, _ target: ObjectKey, _ originKey: ObjectKey,
                                   _ body: (Database, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        guard let db = origin.backlinks[property.id] else { return }
        var k = ObjectKeyCoding.encode(target), v = ObjectKeyCoding.encode(originKey)
        try lmdbCall("Updating the backlinks of '\(origin.name).\(property.name)'") {
            try withUnsafeBytes(of: &k) { kb in try withUnsafeBytes(of: &v) { vb in try body(db, kb, vb) } }
        }
    }

    /// Throws unless `value` is null or the key of an existing object of the link's target class.
    func checkLinkTarget(_ origin: Table, _ property: PropertySchema, _ value: Value) throws {
        guard case .link(let key) = value else { return }
        guard let name = property.linkTarget, let target = try table(name), try row(target, key) != nil else {
            throw StorageError(.invalidInput, "'\(origin.name).\(property.name)' cannot link to \(property.linkTarget ?? "?") object \(key): it does not exist")
        }
    }

    /// Sets to nil every link to object `key` of `target` (before it is deleted).
    func unlinkIncoming(_ target: Table, _ key: ObjectKey) throws {
        for (originSchema, property) in schema.links(to: target.name) {
            guard let origin = try table(originSchema.name) else { continue }
            for originKey in try origins(origin, property, linkingTo: key) {
                try update(origin, originKey, [(property, .null)])
            }
        }
    }

    /// Sets to nil every link to any object of `target` (before the class is cleared). Links
    /// from `target` itself are not touched: those rows go too.
    func unlinkAllIncoming(_ target: Table) throws {
        for (originSchema, property) in schema.links(to: target.name) where originSchema.name != target.name {
            guard let origin = try table(originSchema.name), let db = origin.backlinks[property.id] else { continue }
            var originKeys: [ObjectKey] = []
            try lmdbCall("Reading the backlinks of '\(origin.name).\(property.name)'") {
                try lmdb.withCursor(db) { cursor in
                    var entry = try cursor.first()
                    while let e = entry {
                        originKeys.append(ObjectKeyCoding.decode(e.value))
                        entry = try cursor.next()
                    }
                }
            }
            for originKey in originKeys { try update(origin, originKey, [(property, .null)]) }
        }
    }
}
