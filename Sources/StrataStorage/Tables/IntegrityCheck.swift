import LMDB

/// Checks that a file's structures agree: every row decodes; every index entry matches its
/// row and every row has its entry; primary keys are unique; every to-one link and list member
/// points at an existing object and has its backlink, and every backlink stands for a link;
/// every list's directory matches its chunks, and a walk over each list database meets as many
/// entries as it counts; every mixed value has a known type code and a
/// length of that type, and each link one holds points at an existing object and is counted
/// in `TypedLinkStore`, which holds no other entry; every embedded object has exactly one
/// owner; every retained history
/// entry decodes. Every record read on the way is verified against its checksum (format 3).
/// Used by tests, the stress suite and `strata check`. Reports the first inconsistency found.
package struct IntegrityCheck {
    /// What was checked, for a summary line.
    package struct Report: Sendable {
        package var classes = 0
        package var objects = 0
        package var indexEntries = 0
        package var links = 0
        package var listElements = 0
    }

    /// An inconsistency, described precisely (class, object key, property).
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    /// One origin of a link held by a mixed value, as `TypedLinkStore` keys it.
    private struct HeldLink: Hashable {
        let className: String, target: ObjectKey, origin: String, property: Int, owner: ObjectKey
    }

    private let txn: StorageTransaction
    private var report = Report()
    /// The links held by the mixed values met so far, each with how many times it is held.
    private var heldLinks: [HeldLink: Int] = [:]
    private let progress: (Int) -> Void

    /// Checks the snapshot `txn` sees; `progress` is told the number of objects checked so
    /// far after each object (for a progress line).
    package static func run(_ txn: StorageTransaction, progress: @escaping (Int) -> Void = { _ in }) throws -> Report {
        var check = IntegrityCheck(txn: txn, progress: progress)
        for schema in txn.schema.sorted {
            guard let table = try txn.table(schema.name) else { throw Problem(description: "class '\(schema.name)' has no table") }
            try check.check(table)
        }
        try check.checkTypedLinks()
        try txn.history.forEach(after: nil, newestFirst: false) { _ in true }
        return check.report
    }

    private init(txn: StorageTransaction, progress: @escaping (Int) -> Void) {
        self.txn = txn
        self.progress = progress
    }

    private mutating func check(_ table: Table) throws {
        report.classes += 1
        var rows = 0
        var pks = Set<Value>()
        // Each row is checked, then forgotten: on an encrypted file one buffer holds it.
        try txn.rows.forEach(table, rows: .call) { key, row in
            rows += 1
            if try !txn.rows.contains(table, key) {
                throw Problem(description: "'\(table.name)' object \(key): a walk over the table meets it but its lookup does not: the table's B-tree is damaged")
            }
            if let pk = table.primaryKey {
                let value = row.value(pk)
                if table.keysArePrimaryKeys, case .int(let i) = value, ObjectKeyCoding.key(forIntegerPrimaryKey: i) != key {
                    throw Problem(description: "'\(table.name)' object \(key): its key does not match its primary key \(i)")
                }
                if !pks.insert(value).inserted {
                    throw Problem(description: "'\(table.name)': primary key '\(describe(value))' is not unique (object \(key))")
                }
            }
            for property in table.indexedProperties {
                let value = row.value(property)
                if try !txn.indexes.lookup(table, property, equalTo: value).contains(key) {
                    throw Problem(description: "'\(table.name)' object \(key): no entry in the index of '\(property.name)' for '\(describe(value))'")
                }
            }
            for link in table.links {
                guard case .link(let target) = row.value(link) else { continue }
                try checkTarget(table, link, key, target)
                if try !txn.links.origins(table, link, linkingTo: target).contains(key) {
                    throw Problem(description: "'\(table.name)' object \(key): its link '\(link.name)' to object \(target) has no backlink")
                }
                report.links += 1
            }
            for property in table.mixedProperties where !row.isNull(property.id) && row.hasSlot(property.id) {
                if !ValueCodec.isWellFormedMixed(row.slotBytes(property.id)) {
                    throw Problem(description: "'\(table.name)' object \(key): the mixed value of '\(property.name)' is malformed (its type code or length is wrong)")
                }
                try count(row.value(property), table, property, key)
            }
            for list in table.listProperties {
                try check(list: list, of: table, owner: key)
            }
            if table.schema.isEmbedded {
                let owners = try txn.objects.ownerCount(of: key, in: table)
                if owners != 1 {
                    throw Problem(description: "'\(table.name)' object \(key): an embedded object has \(owners) owners; it must have exactly one")
                }
            }
            progress(report.objects + rows)
            return true
        }
        report.objects += rows
        let counted = try txn.rows.count(table)
        if counted != rows {
            throw Problem(description: "'\(table.name)': a walk over the table meets \(rows) objects, but the table counts \(counted): its B-tree is damaged")
        }
        try checkListDatabases(table)
        for property in table.indexedProperties {
            let entries = try txn.indexes.entryCount(table, property)
            if entries != rows {
                throw Problem(description: "'\(table.name)': the index of '\(property.name)' has \(entries) entries for \(rows) objects")
            }
            report.indexEntries += entries
        }
        try checkBacklinks(table)
    }

    /// A walk over each list property's database meets as many entries as the database
    /// counts: a damaged branch or leaf page that hides entries (lists that would read as
    /// empty) is found here, since no record is there to fail its checksum.
    private func checkListDatabases(_ table: Table) throws {
        for property in table.schema.properties where property.isList {
            guard let db = table.lists[property.id] else { continue }
            let (walked, counted) = try StorageError.translating("Walking the list '\(table.name).\(property.name)'") {
                var walked = 0
                try txn.lmdb.withCursor(db) { cursor in try cursor.forEach { _, _ in walked += 1; return true } }
                return (walked, try txn.lmdb.count(db))
            }
            if walked != counted {
                throw Problem(description: "'\(table.name)': a walk over the database of its list '\(property.name)' meets \(walked) entries, but the database counts \(counted): its B-tree is damaged")
            }
        }
    }

    private mutating func check(list: PropertySchema, of table: Table, owner: ObjectKey) throws {
        let values: [Value]
        do {
            values = try txn.lists.values(table, list, owner: owner)
        } catch {
            throw Problem(description: "'\(table.name)' object \(owner): its list '\(list.name)' cannot be read (\(error))")
        }
        if try txn.lists.count(table, list, owner: owner) != values.count {
            throw Problem(description: "'\(table.name)' object \(owner): its list '\(list.name)' directory does not match its chunks")
        }
        report.listElements += values.count
        if !values.isEmpty, try txn.lists.marker(table, list, owner: owner) == false {
            throw Problem(description: "'\(table.name)' object \(owner): its list '\(list.name)' is not empty, but its row records it as empty")
        }
        if list.isSet, zip(values, values.dropFirst()).contains(where: { Value.compare($0, $1) >= 0 }) {
            throw Problem(description: "'\(table.name)' object \(owner): its set '\(list.name)' holds a member twice or out of value order")
        }
        if list.isMap {
            let keys = try txn.lists.mapKeys(table, list, owner: owner)
            if keys.count != values.count || zip(keys, keys.dropFirst()).contains(where: { !$0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                throw Problem(description: "'\(table.name)' object \(owner): its map '\(list.name)' keys are out of order or do not match its values")
            }
        }
        if list.type == .mixed {
            for value in values { try count(value, table, list, owner) }
        }
        guard list.type == .link else { return }
        var occurrences: [ObjectKey: Int] = [:]
        for case .link(let target) in values { occurrences[target, default: 0] += 1 }
        for (target, _) in occurrences {
            try checkTarget(table, list, owner, target)
            if try !txn.links.origins(table, list, linkingTo: target).contains(owner) {
                throw Problem(description: "'\(table.name)' object \(owner): its list '\(list.name)' holds object \(target) with no backlink")
            }
        }
    }

    /// Every backlink entry stands for a link or list membership that exists.
    private func checkBacklinks(_ table: Table) throws {
        for property in table.schema.properties where table.backlinks[property.id] != nil {
            for (target, origin) in try txn.links.all(table, property) {
                let holds: Bool
                if property.isList {
                    holds = try txn.rows.read(table, origin) != nil && txn.lists.values(table, property, owner: origin).contains(.link(target))
                } else {
                    holds = try txn.rows.read(table, origin)?.value(property) == .link(target)
                }
                if !holds {
                    throw Problem(description: "'\(table.name).\(property.name)': a backlink says object \(origin) links to object \(target), but it does not")
                }
            }
        }
    }

    /// Counts `value` among the held links if it is a typed link, after checking its target.
    private mutating func count(_ value: Value, _ table: Table, _ property: PropertySchema, _ owner: ObjectKey) throws {
        guard case .typedLink(let name, let target) = value else { return }
        guard let targetTable = try txn.table(name), try txn.rows.read(targetTable, target) != nil else {
            throw Problem(description: "'\(table.name)' object \(owner): the mixed '\(property.name)' holds \(name) object \(target), which does not exist")
        }
        heldLinks[HeldLink(className: name, target: target, origin: table.name, property: property.id, owner: owner), default: 0] += 1
        report.links += 1
    }

    /// The stored links held by mixed values are exactly those the walk counted.
    private func checkTypedLinks() throws {
        var unmatched = heldLinks
        for (name, target, origin) in try txn.typedLinks.all() {
            guard let origin else { throw Problem(description: "the links held by mixed values: an entry for \(name) object \(target) is malformed") }
            let link = HeldLink(className: name, target: target, origin: origin.className, property: origin.property, owner: origin.owner)
            guard unmatched.removeValue(forKey: link) == origin.count else {
                throw Problem(description: "'\(origin.className)' object \(origin.owner): the links held by mixed values say it holds \(name) object \(target) \(origin.count) times, but it holds it \(heldLinks[link] ?? 0) times")
            }
        }
        if let (link, n) = unmatched.first {
            throw Problem(description: "'\(link.origin)' object \(link.owner): a mixed value holds \(link.className) object \(link.target) (\(n) times) with no entry among the links held by mixed values")
        }
    }

    private func checkTarget(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ target: ObjectKey) throws {
        guard let name = property.linkTarget, let targetTable = try txn.table(name), try txn.rows.read(targetTable, target) != nil else {
            throw Problem(description: "'\(table.name)' object \(owner): '\(property.name)' points at \(property.linkTarget ?? "?") object \(target), which does not exist")
        }
    }
}
