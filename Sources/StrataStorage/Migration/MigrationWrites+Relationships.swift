import LMDB

/// What a migration does to links, lists and their backlinks once its block has run. The
/// block's row operations (`update`, `delete`, `empty`) and
/// `rebuild`'s re-keying leave backlinks stale and may leave links to deleted objects:
/// `remapKeys` moves links and lists to the new keys of a re-keyed class, and
/// `repairRelationships` nullifies dangling links, drops dangling list elements and the lists
/// of deleted owners, and rebuilds the backlink databases from the rows and lists.
extension MigrationWrites {
    /// Moves every link and list element pointing at an object of class `target` whose key
    /// changed (`map`: old key → new key), and the lists owned by such objects.
    package func remapKeys(of target: String, _ map: [ObjectKey: ObjectKey]) throws {
        guard !map.isEmpty, let targetTable = try transaction.table(target) else { return }
        let txn = transaction.lmdb, seals = transaction.seals, crypto = transaction.crypto
        // The class's own lists are keyed by owner: move their directories and chunks (sealed
        // again for their new keys).
        for (id, db) in targetTable.lists {
            let seed = targetTable.listSeeds[id] ?? 0, name = targetTable.listNames[id] ?? []
            var entries: [([UInt8], [UInt8])] = []
            try StorageError.translating("Reading the lists of '\(target)'") {
                try txn.withCursor(db) { cursor in
                    var entry = try cursor.first()
                    while let e = entry {
                        let opened = if let crypto { crypto.withOpened(name, key: e.key, e.value) { $0.map { Array($0) } } } else {
                            Checksum.opened(e.value, seed, key: e.key, required: seals).map { Array($0) }
                        }
                        guard e.key.count >= 8, let body = opened else {
                            throw StorageError(.invalidDatabase, "'\(transaction.file.path)' is damaged: a list of '\(target)' does not match its checksum or cannot be read; run `strata check \(transaction.file.path)`")
                        }
                        var key = Array(e.key)
                        if let moved = map[try ObjectKeyCoding.decode(e.key)] {
                            var prefix: [UInt8] = []
                            IndexKey.appendBigEndian(moved, to: &prefix)
                            key.replaceSubrange(0..<8, with: prefix)
                        }
                        entries.append((key, body))
                        entry = try cursor.next()
                    }
                    try txn.empty(db)
                    for (k, v) in entries {
                        try k.withUnsafeBytes { kb in
                            let stored = if let crypto { v.withUnsafeBytes { crypto.seal(name, key: kb, $0) } } else {
                                seals ? Checksum.sealed(v, seed, key: kb) : v
                            }
                            try stored.withUnsafeBytes { try txn.put(db, key: kb, value: $0) }
                        }
                    }
                }
            }
        }
        // To-one links into the class.
        for (originSchema, property) in transaction.schema.links(to: target) {
            guard let origin = try transaction.table(originSchema.name) else { continue }
            var changes: [(ObjectKey, Value, Int)] = []
            try transaction.rows.forEach(origin) { key, row in
                if case .link(let k) = row.value(property), let n = map[k] { changes.append((key, .link(n), Self.slots(row, origin))) }
                return true
            }
            for (key, value, slots) in changes {
                try update(origin, key, slotCount: max(slots, origin.schema.slotCount), [property.id: value])
            }
        }
        // Lists of objects of the class.
        for (originSchema, property) in transaction.schema.lists(of: target) {
            guard let origin = try transaction.table(originSchema.name) else { continue }
            for owner in try transaction.lists.owners(origin, property) {
                let values = try transaction.lists.values(origin, property, owner: owner)
                let mapped = values.map { v -> Value in
                    if case .link(let k) = v, let n = map[k] { return .link(n) }
                    return v
                }
                if mapped != values { try transaction.lists.rewrite(origin, property, owner: owner, mapped) }
            }
        }
    }

    /// Makes the links and lists of the classes in `affected`, and those pointing into them,
    /// consistent: a link to an object that no longer exists becomes null, such list elements
    /// are removed (every occurrence), lists of deleted owners are deleted, and the backlink
    /// databases are rebuilt from what remains. Throws when a relationship names a class the
    /// schema no longer has.
    package func repairRelationships(_ affected: Set<String>) throws {
        for c in transaction.schema.sorted {
            guard let table = try transaction.table(c.name) else { continue }
            for p in c.properties where p.type == .link || p.isList {
                guard affected.contains(c.name) || p.linkTarget.map(affected.contains) == true else { continue }
                var target: Table?
                if p.type == .link {
                    guard let name = p.linkTarget, let t = try transaction.table(name) else {
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
        guard table.backlinks[property.id] != nil else { return }
        try transaction.links.removeAll(table, property)
        var links: [(ObjectKey, ObjectKey, Int)] = []
        try transaction.rows.forEach(table) { key, row in
            if case .link(let t) = row.value(property) { links.append((key, t, Self.slots(row, table))) }
            return true
        }
        for (key, t, slots) in links {
            if try transaction.rows.read(target, t) != nil {
                try transaction.links.add(table, property, target: t, origin: key)
            } else {
                try update(table, key, slotCount: max(slots, table.schema.slotCount), [property.id: .null])
            }
        }
    }

    private func repairList(_ table: Table, _ property: PropertySchema, target: Table?) throws {
        guard let db = table.lists[property.id] else { return }
        try transaction.links.removeAll(table, property)
        var dead: [[UInt8]] = []
        var owners: [ObjectKey] = []
        let txn = transaction.lmdb, rows = transaction.rows
        try StorageError.translating("Reading the lists of '\(table.name).\(property.name)'") {
            try txn.withCursor(db) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    if e.key.count >= 8 {
                        let owner = try ObjectKeyCoding.decode(e.key)
                        if try rows.read(table, owner) == nil {
                            dead.append(Array(e.key))
                        } else if e.key.count == 8 {
                            owners.append(owner)
                        }
                    }
                    entry = try cursor.next()
                }
                for key in dead { _ = try key.withUnsafeBytes { try txn.delete(db, key: $0) } }
            }
        }
        guard let target else { return }
        for owner in owners {
            let values = try transaction.lists.values(table, property, owner: owner)
            var kept: [Value] = []
            var occurrences: [ObjectKey: Int] = [:]
            var exists: [ObjectKey: Bool] = [:]
            for v in values {
                guard case .link(let t) = v else { continue }
                if exists[t] == nil { exists[t] = try rows.read(target, t) != nil }
                if exists[t]! {
                    kept.append(v)
                    occurrences[t, default: 0] += 1
                }
            }
            if kept.count != values.count {
                try transaction.lists.rewrite(table, property, owner: owner, kept)   // adds the backlinks of what it writes
            } else {
                for (t, n) in occurrences { try transaction.links.setOccurrences(table, property, of: t, in: owner, count: n) }
            }
        }
    }

    /// The number of slots to keep when rewriting `row` (at least the schema's).
    private static func slots(_ row: RowView, _ table: Table) -> Int {
        var n = table.schema.slotCount
        while row.hasSlot(n) { n += 1 }
        return n
    }
}
