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
            var decorated: [(key: ObjectKey, values: [Value])] = []
            decorated.reserveCapacity(keys.count)
            for key in keys {
                guard let row = try txn.row(table, key) else { continue }
                decorated.append((key, sortKeys.map { row.value($0.property) }))
            }
            decorated.sortStable { a, b in
                for (i, sortKey) in sortKeys.enumerated() {
                    let c = Value.compare(a.values[i], b.values[i])
                    if c != 0 { return sortKey.ascending ? c < 0 : c > 0 }
                }
                return false
            }
            return decorated.map(\.key)
        }
    }
}

extension Array {
    /// A stable sort (merge sort), so that successive sorts keep earlier orders as tie-breakers.
    mutating func sortStable(by areInIncreasingOrder: (Element, Element) -> Bool) {
        let indexed = enumerated().map { ($0.offset, $0.element) }
        self = indexed.sorted { a, b in
            if areInIncreasingOrder(a.1, b.1) { return true }
            if areInIncreasingOrder(b.1, a.1) { return false }
            return a.0 < b.0
        }.map(\.1)
    }
}
