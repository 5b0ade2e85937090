import StrataStorage

/// Runs a compiled query against a table: the plan step (`CompiledQuery.plan`: an index
/// lookup, prefix or range scan, or a scan that decodes only what the predicate reads) and
/// the SORT / DISTINCT / LIMIT steps.
///
/// A query whose predicate follows relationships (`CompiledQuery.followsLinks`) is matched
/// with a `LinkReader` over the same transaction, which reads the linked objects' rows and
/// the stored backlinks; any other query runs on the rows alone.
package enum QueryExecution {
    /// The keys of the objects matching `query`'s predicate, in table (key) order.
    package static func matches(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        if query.followsLinks { return try matchesFollowingLinks(query, in: table, txn) }
        var keys: [ObjectKey] = []
        try findMatches(query, in: table, txn, reading: .keys, found: { found, _ in keys = found }, matching: { key, _ in keys.append(key) })
        return keys
    }

    /// `matches`, keeping in `kept` the rows of the matches when the walk that found them
    /// read them.
    package static func matches(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction, keeping kept: inout KeptRows) throws -> [ObjectKey] {
        if query.followsLinks {
            kept.drop()
            return try matchesFollowingLinks(query, in: table, txn)
        }
        var keys: [ObjectKey] = []
        try findMatches(query, in: table, txn, reading: kept.isKeeping ? .keptRows : .keys, found: { found, stored in
            keys = found
            if let stored { kept.keep(stored: stored) } else { kept.drop() }
        }, matching: { key, row in
            keys.append(key)
            kept.keep(row)
        })
        return keys
    }

    /// Calls `body` with the key and row of each object matching `query`'s predicate, in table
    /// order, each row read once: what an aggregate over a query reads, without collecting the
    /// keys first and reading their rows again. A row is valid until `body` returns.
    package static func forEachMatch(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction,
                                     _ body: (ObjectKey, RowView) throws -> Void) throws {
        func rows(_ keys: [ObjectKey]) throws { try txn.rows.forEach(table, keys: keys, rows: .call, body) }
        if query.followsLinks { return try rows(try matchesFollowingLinks(query, in: table, txn)) }
        try findMatches(query, in: table, txn, reading: .rows, found: { keys, _ in try rows(keys) }, matching: body)
    }

    /// What a caller of `findMatches` reads besides the keys of the matches.
    private enum Reading {
        /// Nothing.
        case keys
        /// Every match's row, next: a range or list of integer primary keys (the object keys)
        /// is better walked once, row by row.
        case rows
        /// The rows, if they come cheaply (`KeptRows`): each sought primary key's row as it is
        /// found (little more than finding it), a primary key range's rows as stored.
        case keptRows
    }

    /// The plan step of a query that reads no linked object: hands `found` the matches (in
    /// table order) when an index yields them without reading a row (with their rows as
    /// stored when `reading` asks for kept rows and the walk met them), or else hands
    /// `matching` each match and its row (valid until it returns) as a walk over the rows
    /// tests them.
    private static func findMatches(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction, reading: Reading,
                                    found: ([ObjectKey], [UnsafeRawBufferPointer]?) throws -> Void,
                                    matching: (ObjectKey, RowView) throws -> Void) throws {
        func covered(_ access: IndexAccess) throws {
            switch (access, reading) {
            case (.range(let property, let range), .rows) where property.isPrimaryKey:
                if try txn.rows.forEach(table, primaryKeyIn: range, rows: .call, { key, row in try matching(key, row); return true }) { return }
            case (.range(let property, let range), .keptRows) where property.isPrimaryKey:
                var keys: [ObjectKey] = [], stored: [UnsafeRawBufferPointer] = []
                // A range of integer keys holds at most as many objects as integers: room for
                // them at once, not grown by doubling.
                if let most = range.integerCount {
                    keys.reserveCapacity(Swift.min(most, 1 << 16))
                    stored.reserveCapacity(Swift.min(most, KeptRows.limit + 1))
                }
                if try txn.rows.forEachStored(table, primaryKeyIn: range, { key, bytes in
                    keys.append(key)
                    if stored.count <= KeptRows.limit { stored.append(bytes) }
                    return true
                }) {
                    return try found(keys, stored)
                }
            case (.equal(let property, let values), .rows), (.equal(let property, let values), .keptRows):
                if property.isPrimaryKey, values.count > 1, table.keysArePrimaryKeys {
                    return try txn.rows.forEach(table, primaryKeyIn: values, rows: .call, matching)
                }
            default:
                break
            }
            try found(try coveredKeys(access, query, in: table, txn), nil)
        }
        // The commonest indexed query: its lookup yields the matches, in key order, once each.
        if let lookup = query.exactLookup { return try found(try txn.indexes.lookup(table, lookup.property, equalTo: lookup.value), nil) }
        let plan = query.plan
        if case .nothing = plan { return try found([], nil) }
        // An index access that yields exactly the matches needs no choosing.
        if case .index(let access, covers: true) = plan, IndexChoice.isReadable(access, in: table, txn) {
            return try covered(access)
        }
        guard let choice = try IndexChoice(plan, in: table, txn) else {
            try txn.rows.forEach(table, rows: .call) { key, row in
                if query.matches(row) { try matching(key, row) }
                return true
            }
            return
        }
        if choice.covers { return try covered(choice.access) }
        if case .range(let property, let range) = choice.access, property.isPrimaryKey {
            let walked = try txn.rows.forEach(table, primaryKeyIn: range, rows: .call) { key, row in
                if query.matches(row) { try matching(key, row) }
                return true
            }
            if walked { return }
        }
        try txn.rows.forEach(table, keys: try sortedCandidates(choice.access, in: table, txn), rows: .call) { key, row in
            if query.matches(row) { try matching(key, row) }
        }
    }

    /// Whether `matches(_:in:_:orderingFirst:by:)` can answer `query` followed by a sort on
    /// `sortKeys`: a scan of the rows alone, sorted by properties of the object itself.
    package static func canOrderWhileScanning(_ query: CompiledQuery, by sortKeys: [SortKey]) -> Bool {
        guard !query.followsLinks, query.scans else { return false }
        return sortKeys.allSatisfy { $0.path.isEmpty }
    }

    /// The keys of the objects matching `query` (see `canOrderWhileScanning`), in table order
    /// but for the first `k`, which are the first `k` in `sortKeys` order: the one pass over
    /// the rows that filters them also selects those (instead of a second walk to sort).
    package static func matches(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction,
                        orderingFirst k: Int, by sortKeys: [SortKey]) throws -> [ObjectKey] {
        var keys: [ObjectKey] = []
        let everyRow = query.constantResult == true
        if everyRow { keys.reserveCapacity(try txn.rows.count(table)) }
        var top = PartialSort.TopK(k, by: sortKeys)
        // `top` keeps rows after the call that tested them: they live for the transaction.
        try txn.rows.forEach(table, rows: .transaction) { key, row in
            if everyRow || query.matches(row) {
                top.offer((keys.count, row))
                keys.append(key)
            }
            return true
        }
        PartialSort.reorder(&keys, first: top.ordered())
        return keys
    }

    /// The candidates of an index access in table order, without repeats.
    private static func sortedCandidates(_ access: IndexAccess, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        KeyOrder.ascendingUnique(try candidates(access, in: table, txn))
    }

    /// The keys an access that covers its predicate yields, in table order without repeats:
    /// the matches themselves, found without reading a row (but for the values too long for
    /// an index key to hold, which a scan of the index leaves to `query` on the row).
    package static func coveredKeys(_ access: IndexAccess, _ query: CompiledQuery, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        switch access {
        case .range(let property, _) where property.isPrimaryKey && table.keysArePrimaryKeys:
            return try candidates(access, in: table, txn)
        case .test(let c):
            let found = try txn.indexes.scan(table, c.property, where: IndexValueTest.compile(c))
            var keys = found.matches
            try txn.rows.forEach(table, keys: KeyOrder.ascendingUnique(found.unsure), rows: .call) { key, row in
                if query.matches(row) { keys.append(key) }
            }
            return KeyOrder.ascendingUnique(keys)
        default:
            return try sortedCandidates(access, in: table, txn)
        }
    }

    /// A reader of the objects `query` reaches, through `txn`, for a run that tests
    /// `testedCount` objects (0: not known).
    package static func reader(_ query: CompiledQuery, _ txn: StorageTransaction, testing testedCount: Int = 0) -> LinkReader {
        LinkReader(TransactionLinkSource(txn, classes: query.linkedClasses), testing: testedCount)
    }

    /// `matches` for a predicate that reads linked objects.
    private static func matchesFollowingLinks(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        if case .nothing = query.plan { return [] }
        var keys: [ObjectKey] = []
        let reader: LinkReader
        if let choice = try IndexChoice(query.plan, in: table, txn) {
            let candidates = try sortedCandidates(choice.access, in: table, txn)
            reader = Self.reader(query, txn, testing: candidates.count)
            try txn.rows.forEach(table, keys: candidates, rows: .call) { key, row in
                if query.matches(key, row, reader) { keys.append(key) }
            }
        } else {
            reader = Self.reader(query, txn, testing: try txn.rows.count(table))
            try txn.rows.forEach(table, rows: .call) { key, row in
                if query.matches(key, row, reader) { keys.append(key) }
                return true
            }
        }
        try reader.check()
        return keys
    }

    /// The keys among `keys` (in their order) whose rows match `query`'s predicate.
    package static func filter(_ keys: [ObjectKey], _ query: CompiledQuery, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        if query.followsLinks {
            let reader = reader(query, txn, testing: keys.count)
            let kept = try keys.filter { key in try txn.rows.read(table, key).map { query.matches(key, $0, reader) } ?? false }
            try reader.check()
            return kept
        }
        return try keys.filter { key in try txn.rows.read(table, key).map(query.matches) ?? false }
    }

    /// The object keys an index access yields (a superset of the matches, in any order).
    package static func candidates(_ access: IndexAccess, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        switch access {
        case .equal(let property, let values):
            if values.count == 1 { return try txn.indexes.lookup(table, property, equalTo: values[0]) }
            if property.isPrimaryKey, table.keysArePrimaryKeys { return try txn.rows.keys(table, primaryKeyIn: values) }
            var keys: [ObjectKey] = []
            for value in values { keys += try txn.indexes.lookup(table, property, equalTo: value) }
            return keys
        case .prefix(let property, let prefix):
            return try txn.indexes.lookup(table, property, prefix: prefix)
        case .range(let property, let range):
            return try txn.indexes.lookup(table, property, in: range)
        case .test(let c):
            let found = try txn.indexes.scan(table, c.property, where: IndexValueTest.compile(c))
            return found.matches + found.unsure
        }
    }

    /// What `matches` and the steps after it do in `txn`, as text (`Results.explain()`): with
    /// several usable indexes, the one `matches` reads now, found by the same counts. Results
    /// drawn from a list or from backlinks (`source`, "list Person.dogs") filter those objects
    /// and use no index.
    package static func explain(_ query: CompiledQuery?, in table: Table?, _ txn: StorageTransaction, className: String,
                        source: String? = nil) throws -> String {
        guard let query else { return source ?? "scan \(className)" }
        var text: String
        let filters: Bool
        if let source {
            (text, filters) = (source, query.constantResult != true)
        } else {
            text = query.plan.description(className: className)
            var scansForEncryption = false
            if let table {
                if let choice = try IndexChoice(query.plan, in: table, txn) {
                    text = choice.description(className: className)
                } else if case .index = query.plan {
                    scansForEncryption = true
                } else if case .fewestEntries = query.plan {
                    scansForEncryption = true
                }
            }
            if scansForEncryption {
                // Only an encrypted file makes an index access unreadable (`IndexChoice.isReadable`).
                text = "scan \(className) (the file is encrypted: its indexes answer only == and IN)"
            }
            switch query.plan {
            case .nothing: filters = false
            case .scan(let properties): filters = !properties.isEmpty
            // An access that covers the predicate yields the matches: no row is tested (unless
            // the file is encrypted and the index cannot answer it, `findMatches`).
            case .index(_, covers: true): filters = scansForEncryption
            default: filters = true
            }
        }
        if filters { text += " then filter \(query.query.predicate)" }
        for step in query.suffixes { text += " then \(step)" }
        return text
    }

    /// Applies one suffix step to keys in result order.
    package static func apply(_ suffix: ResolvedSuffix, to keys: [ObjectKey], in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        switch suffix {
        case .limit(let n):
            return Array(keys.prefix(n))
        case .distinct(let distinctKeys):
            // An object with a nil link on the way to a key is left out, as in realm-core.
            var seen = Set<[Value]>()
            var values: [Value] = []
            return try keys.filter { key in
                guard let row = try txn.rows.read(table, key) else { return false }
                values.removeAll(keepingCapacity: true)
                for k in distinctKeys {
                    guard let target = k.path.isEmpty ? row : try follow(k.path, from: row, txn) else { return false }
                    values.append(target.value(k.property))
                }
                return seen.insert(values).inserted
            }
        case .sort(let sortKeys):
            var sorted = keys
            try orderPrefix(&sorted, count: keys.count, by: sortKeys, in: table, txn)
            return sorted
        }
    }

    /// Puts the first `count` of `keys` in sort order (see `PartialSort`), following the
    /// to-one links of sort keys such as `owner.name`.
    package static func orderPrefix(_ keys: inout [ObjectKey], count: Int, by sortKeys: [SortKey], in table: Table,
                            _ txn: StorageTransaction) throws {
        try PartialSort.orderPrefix(&keys, count: count, by: sortKeys, row: try rowReader(for: keys, in: table, txn),
                                    follow: { row, key in try follow(key.path, from: row, txn) })
    }

    /// Reads the rows of `keys` in their order: keys in table order (a scan's) that are dense
    /// enough (spanning less than 8 keys per key) are read with one cursor walk instead of a
    /// B-tree lookup each.
    package static func rowReader(for keys: [ObjectKey], in table: Table,
                          _ txn: StorageTransaction) throws -> (ObjectKey) throws -> RowView? {
        guard keys.count > 64, RowStore.areDenseAndAscending(keys) else { return { try txn.rows.read(table, $0) } }
        return try AscendingRowReader(table, txn).row
    }

    /// Reads the rows of ascending keys by walking one cursor forward.
    private final class AscendingRowReader {
        private let cursor: RowCursor
        private let table: Table
        private let txn: StorageTransaction
        /// The entry under the cursor (only this reader's calls touch it).
        @exclusivity(unchecked) private var current: (ObjectKey, RowView)?
        /// On an encrypted file, the blocks of the batches read so far: the rows handed out
        /// stay valid while the reader lives.
        @exclusivity(unchecked) private var blocks: [DecryptedRecords] = []

        init(_ table: Table, _ txn: StorageTransaction) throws {
            cursor = txn.rows.scan(table)
            self.table = table
            self.txn = txn
            current = try cursor.next()
            keepBlock()
        }

        /// The cursor's next entry.
        private func advance() throws -> (ObjectKey, RowView)? {
            defer { keepBlock() }
            return try cursor.next()
        }

        /// Holds the block of the cursor's batch, so that its next batch does not reuse it.
        private func keepBlock() {
            if let block = cursor.block, blocks.last !== block { blocks.append(block) }
        }

        /// The row of `key`, which is above every key asked for before.
        func row(_ key: ObjectKey) throws -> RowView? {
            while let (k, _) = current, k < key { current = try advance() }
            if let (k, row) = current, k == key { return row }
            return try txn.rows.read(table, key)
        }
    }

    /// The row at the end of `path` (to-one links) from `row`, or nil when a link is nil.
    package static func follow(_ path: [LinkStep], from row: RowView, _ txn: StorageTransaction) throws -> RowView? {
        var current = row
        for step in path {
            guard case .link(let p) = step, !current.isNull(p.id), current.hasSlot(p.id),
                  case .link(let key) = current.value(p),
                  let target = try txn.table(step.targetClass),
                  let next = try txn.rows.read(target, key) else { return nil }
            current = next
        }
        return current
    }
}
