import StrataQuery
import StrataStorage

/// Runs a compiled query against a table: the plan step (an index lookup when the query has
/// an equality or IN on an indexed property or the primary key, else a scan that decodes only
/// what the predicate reads) and the SORT / DISTINCT / LIMIT steps.
enum QueryExecution {
    /// The keys of the objects matching `query`'s predicate, in table (key) order.
    static func matches(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        if query.constantResult == false { return [] }
        if let hint = query.indexHint {
            var candidates: [ObjectKey] = []
            for value in hint.values { candidates += try txn.lookup(table, hint.property, equalTo: value) }
            candidates.sort()
            var keys: [ObjectKey] = []
            var previous: ObjectKey?
            for key in candidates where key != previous {
                previous = key
                if let row = try txn.row(table, key), query.matches(row) { keys.append(key) }
            }
            return keys
        }
        var keys: [ObjectKey] = []
        try txn.forEachRow(table) { key, row in
            if query.matches(row) { keys.append(key) }
            return true
        }
        return keys
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
