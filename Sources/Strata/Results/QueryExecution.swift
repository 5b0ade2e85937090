import StrataQuery
import StrataStorage

/// Runs a compiled query against a table: the plan step (`CompiledQuery.plan`: an index
/// lookup, prefix or range scan, or a scan that decodes only what the predicate reads) and
/// the SORT / DISTINCT / LIMIT steps.
enum QueryExecution {
    /// The keys of the objects matching `query`'s predicate, in table (key) order.
    static func matches(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        switch query.plan {
        case .nothing:
            return []
        case .scan:
            var keys: [ObjectKey] = []
            try txn.forEachRow(table) { key, row in
                if query.matches(row) { keys.append(key) }
                return true
            }
            return keys
        case .index(let access):
            var candidates = try self.candidates(access, in: table, txn)
            candidates.sort()
            var keys: [ObjectKey] = []
            var previous: ObjectKey?
            for key in candidates where key != previous {
                previous = key
                if let row = try txn.row(table, key), query.matches(row) { keys.append(key) }
            }
            return keys
        }
    }

    /// The keys among `keys` (in their order) whose rows match `query`'s predicate.
    static func filter(_ keys: [ObjectKey], _ query: CompiledQuery, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        try keys.filter { key in try txn.row(table, key).map(query.matches) ?? false }
    }

    /// The object keys an index access yields (a superset of the matches, in any order).
    static func candidates(_ access: IndexAccess, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        switch access {
        case .equal(let property, let values):
            var keys: [ObjectKey] = []
            for value in values { keys += try txn.lookup(table, property, equalTo: value) }
            return keys
        case .prefix(let property, let prefix):
            return try txn.lookup(table, property, prefix: prefix)
        case .range(let property, let range):
            return try txn.lookup(table, property, in: range)
        }
    }

    /// What `matches` and the steps after it do, as text (`Results.explain()`).
    static func explain(_ query: CompiledQuery?, className: String) -> String {
        guard let query else { return "scan \(className)" }
        var text = query.plan.description(className: className)
        switch query.plan {
        case .nothing: break
        case .scan(let properties) where properties.isEmpty: break
        default: text += " then filter \(query.query.predicate)"
        }
        for step in query.suffixes { text += " then \(step)" }
        return text
    }

    /// Applies one suffix step to keys in result order.
    static func apply(_ suffix: ResolvedSuffix, to keys: [ObjectKey], in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        switch suffix {
        case .limit(let n):
            return Array(keys.prefix(n))
        case .distinct(let properties):
            var seen = Set<[Value]>()
            return try keys.filter { key in
                guard let row = try txn.row(table, key) else { return false }
                return seen.insert(properties.map { row.value($0) }).inserted
            }
        case .sort(let sortKeys):
            var sorted = keys
            try PartialSort.orderPrefix(&sorted, count: keys.count, by: sortKeys) { try txn.row(table, $0) }
            return sorted
        }
    }
}
