import LMDB

/// What a migration does to links, lists and their backlinks once its block has run. The
/// block's row operations (`migrationUpdate`, `migrationDelete`, `migrationEmpty`) and
/// `rebuild`'s re-keying leave backlinks stale and may leave links to deleted objects:
/// `remapKeys` moves links and lists to the new keys of a re-keyed class, and
/// `repairRelationships` nullifies dangling links, drops dangling list elements and the lists
/// of deleted owners, and rebuilds the backlink databases from the rows and lists.
extension StorageTransaction {
    /// Moves every link and list element pointing at an object of class `target` whose key
    /// changed (`map`: old key → new key), and the lists owned by such objects.
    package func remapKeys(of target: String, _ map: [ObjectKey: ObjectKey]) throws {
        guard !map.isEmpty, let targetTable = try table(target) else { return }
        // The class's own lists are keyed by owner: move their directories and chunks.
        for db in targetTable.lists.values {
            var entries: [([UInt8], [UInt8])] = []
            try lmdbCall("Reading the lists of '\(target)'") {
                try lmdb.withCursor(db) { cursor in
                    var entry = try cursor.first()
                    while let e = entry {
                        var key = Array(e.key)
                        if key.count >= 8, let moved = map[ObjectKeyCoding.decode(e.key)] {
                            var prefix: [UInt8] = []
                            IndexKey.appendBigEndian(moved, to: &prefix)
                            key.replaceSubrange(0..<8, with: prefix)
                        }
                        entries.append((key, Array(e.value)))
                        entry = try cursor.next()
                    }
                    try lmdb.empty(db)
                    for (k, v) in entries {
                        try k.withUnsafeBytes { kb in try v.withUnsafeBytes { try lmdb.put(db, key: kb, value: $0) } }
                    }
                }
            }
        }
        // To-one links into the class.
        for (originSchema, property) in schema.links(to: target) {
            guard let origin = try table(originSchema.name) else { continue }
            var changes: [(ObjectKey, Value, Int)] = []
            try forEachRow(origin) { key, row in
                if case .link(let k) = row.value(property), let n = map[k] { changes.append((key, .link(n), Self.slots(row, origin))) }
                return true
            }
            for (key, value, slots) in changes {
                try migrationUpdate(origin, key, slotCount: max(slots, origin.schema.slotCount), [property.id: value])
            }
        }
        // Lists of objects of the class.
        for (originSchema, property) in schema.lists(of: target) {
            guard let origin = try table(originSchema.name) else { continue }
            for owner in try listOwners(origin, property) {
                let values = try listValues(origin, property, owner: owner)
                let mapped = values.map { v -> Value in
                    if case .link(let k) = v, let n = map[k] { return .link(n) }
                    return v
                }
                if mapped != values { try rewriteList(origin, property, owner, mapped) }
            }
        }
    }

    /// Makes the links and lists of the classes in `affected`, and those pointing into them,
    /// consistent: a link to an object that no longer exists becomes null, such list elements
    /// are removed (every occurrence), lists of deleted owners are deleted, and the backlink
    /// databases are rebuilt from what remains. Throws when a relationship names a class the
    /// schema no longer has.
    package func repairRelationships(_ affected: Set<String>) throws {
        for c in schema.sorted {
            guard let table = try table(c.name) else { continue }
            for p in c.properties where p.type == .link || p.isList {
                guard affected.contains(c.name) || p.linkTarget.map(affected.contains) == true else { continue }
                var target: Table?
                if p.type == .link {
                    guard let name = p.linkTarget, let t = try self.table(name) else {
                        throw StorageError(.invalidInput, "'\(c.name).\(p.name)' links to class '\(p.linkTarget ?? "?")', which is no longer in the file")
                    }
                    target = t
                }
                if p.isList {
                    try repairList(table, p, target: target)
                } else if let target {
                    try repairLink(table, p, target: target)
                }
            }
        }
    }

    private func repairLink(_ table: Table, _ property: PropertySchema, target: Table) throws {
        guard let db = table.backlinks[property.id] else { return }
        try lmdbCall("Rebuilding the backlinks of '\(table.name).\(property.name)'") { try lmdb.empty(db) }
        var links: [(ObjectKey, ObjectKey, Int)] = []
        try forEachRow(table) { key, row in
            if case .link(let t) = row.value(property) { links.append((key, t, Self.slots(row, table))) }
            return true
        }
        for (key, t, slots) in links {
            if try row(target, t) != nil {
                try addBacklink(table, property, target: t, origin: key)
            } else {
                try migrationUpdate(table, key, slotCount: max(slots, table.schema.slotCount), [property.id: .null])
            }
        }
    }

    private func repairList(_ table: Table, _ property: PropertySchema, target: Table?) throws {
        guard let db = table.lists[property.id] else { return }
        if let backlinks = table.backlinks[property.id] {
            try lmdbCall("Rebuilding the backlinks of '\(table.name).\(property.name)'") { try lmdb.empty(backlinks) }
        }
        var dead: [[UInt8]] = []
        var owners: [ObjectKey] = []
        try lmdbCall("Reading the lists of '\(table.name).\(property.name)'") {
            try lmdb.withCursor(db) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    if e.key.count >= 8 {
                        let owner = ObjectKeyCoding.decode(e.key)
                        if try row(table, owner) == nil {
                            dead.append(Array(e.key))
                        } else if e.key.count == 8 {
                            owners.append(owner)
                        }
                    }
                    entry = try cursor.next()
                }
                for key in dead { _ = try key.withUnsafeBytes { try lmdb.delete(db, key: $0) } }
            }
        }
        guard let target else { return }
        for owner in owners {
            let values = try listValues(table, property, owner: owner)
            var kept: [Value] = []
            var occurrences: [ObjectKey: Int] = [:]
            var exists: [ObjectKey: Bool] = [:]
            for v in values {
                guard case .link(let t) = v else { continue }
                if exists[t] == nil { exists[t] = try row(target, t) != nil }
                if exists[t]! {
                    kept.append(v)
                    occurrences[t, default: 0] += 1
                }
            }
            if kept.count != values.count {
                try rewriteList(table, property, owner, kept)   // adds the backlinks of what it writes
            } else {
                for (t, n) in occurrences { try putListBacklink(table, property, target: t, owner: owner, count: n) }
            }
        }
    }

    /// The number of slots to keep when rewriting `row` (at least the schema's).
    private static func slots(_ row: RowView, _ table: Table) -> Int {
        var n = table.schema.slotCount
        while row.hasSlot(n) { n += 1 }
        return n
    }

    /// The owners that have a non-empty list `property`, in key order.
    private func listOwners(_ table: Table, _ property: PropertySchema) throws -> [ObjectKey] {
        guard let db = table.lists[property.id] else { return [] }
        var owners: [ObjectKey] = []
        try lmdbCall("Reading the lists of '\(table.name).\(property.name)'") {
            try lmdb.withCursor(db) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    if e.key.count == 8 { owners.append(ObjectKeyCoding.decode(e.key)) }
                    entry = try cursor.next()
                }
            }
        }
        return owners
    }

    /// Replaces the elements of `owner`'s list `property` with `values` (backlinks follow).
    package func rewriteList(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ values: [Value]) throws {
        try listRemoveAll(table, property, owner: owner)
        try listInsert(table, property, owner: owner, values, at: 0)
    }

    /// Writes the backlink entry saying that `owner`'s list holds `target` `count` times.
    private func putListBacklink(_ table: Table, _ property: PropertySchema, target: ObjectKey, owner: ObjectKey, count: Int) throws {
        guard let db = table.backlinks[property.id] else { return }
        var key: [UInt8] = [], value: [UInt8] = []
        IndexKey.appendBigEndian(target, to: &key)
        IndexKey.appendBigEndian(owner, to: &value)
        withUnsafeBytes(of: UInt32(count).bigEndian) { value.append(contentsOf: $0) }
        try lmdbCall("Rebuilding the backlinks of '\(table.name).\(property.name)'") {
            try key.withUnsafeBytes { k in try value.withUnsafeBytes { try lmdb.put(db, key: k, value: $0) } }
        }
    }
}
