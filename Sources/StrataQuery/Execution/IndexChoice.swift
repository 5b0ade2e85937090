import StrataStorage

/// The index access a query reads in one transaction: the plan's only one, or, of several
/// usable ones (`QueryPlan.fewestEntries`), the one whose index holds the fewest entries for
/// it. Counting reads only the indexes, and each count stops once it passes the fewest so far.
package struct IndexChoice {
    /// The access read.
    package let access: IndexAccess
    /// Whether its candidates are exactly the matches (see `QueryPlan.index`).
    package let covers: Bool
    /// When several indexes were usable: the chosen access's entries, and how many were usable.
    package let counted: (entries: Int, usable: Int)?

    /// The access `plan` reads from `table`, or nil when it reads no index.
    package init?(_ plan: QueryPlan, in table: Table, _ txn: StorageTransaction) throws {
        switch plan {
        case .nothing, .scan:
            return nil
        case .index(let access, let covers):
            guard Self.isReadable(access, in: table, txn) else { return nil }
            (self.access, self.covers, counted) = (access, covers, nil)
        case .fewestEntries(let usable):
            let accesses = usable.filter { Self.isReadable($0, in: table, txn) }
            if accesses.isEmpty { return nil }
            var best = (access: accesses[0], entries: try Self.entries(accesses[0], in: table, txn, limit: .max))
            for access in accesses.dropFirst() where best.entries > 0 {
                let n = try Self.entries(access, in: table, txn, limit: best.entries)
                if n < best.entries { best = (access, n) }
            }
            (self.access, covers, counted) = (best.access, false, (best.entries, accesses.count))
        }
    }

    /// Whether `access` can be read in `txn`: on an encrypted file, whose index keys are keyed
    /// hashes (docs/ENCRYPTION.md), only equality and ranges of integer primary keys that are
    /// the object keys; every access on a plain file.
    package static func isReadable(_ access: IndexAccess, in table: Table, _ txn: StorageTransaction) -> Bool {
        guard txn.crypto != nil else { return true }
        switch access {
        case .equal: return true
        case .range(let property, _): return property.isPrimaryKey && table.keysArePrimaryKeys
        case .prefix, .test: return false
        }
    }

    /// How many index entries `access` reads, counting no further than `limit + 1`.
    private static func entries(_ access: IndexAccess, in table: Table, _ txn: StorageTransaction, limit: Int) throws -> Int {
        switch access {
        case .equal(let property, let values):
            var n = 0
            for value in values where n <= limit { n += try txn.indexes.entryCount(table, property, equalTo: value) }
            return n
        case .prefix(let property, let prefix):
            return try txn.indexes.entryCount(table, property, prefix: prefix, limit: limit)
        case .range(let property, let range):
            return try txn.indexes.entryCount(table, property, in: range, limit: limit)
        case .test(let c):
            return try txn.indexes.entryCount(table, c.property)
        }
    }

    /// The access as `explain()` prints it; after counting, with the count:
    /// "index lookup on Dog.name for 1 value {'Rex'} (2 entries, the fewest of 2 usable indexes)".
    package func description(className: String) -> String {
        let text = access.description(className: className)
        guard let counted else { return text }
        return text + " (\(counted.entries) entr\(counted.entries == 1 ? "y" : "ies"), the fewest of \(counted.usable) usable indexes)"
    }
}
