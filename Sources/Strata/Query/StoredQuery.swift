import StrataQuery
import StrataStorage

/// Queries run on a storage snapshot without model classes, for tools that read any file by
/// its stored schema (`strata query`). The same plan, filter and SORT / DISTINCT / LIMIT steps
/// as `Results`.
package enum StoredQuery {
    /// The keys of the objects of `table` matching `query`, in result order (every suffix
    /// step applied).
    package static func keys(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction) throws -> [ObjectKey] {
        if query.constantResult == false { return [] }
        var keys = try QueryExecution.matches(query, in: table, txn)
        for step in query.suffixes {
            keys = try QueryExecution.apply(step, to: keys, in: table, txn)
        }
        return keys
    }

    /// The plan of `query` on `table` in `txn` as one line of text, as `Results.explain()`
    /// prints it.
    package static func explain(_ query: CompiledQuery, in table: Table, _ txn: StorageTransaction) throws -> String {
        try QueryExecution.explain(query, in: table, txn, className: table.name)
    }
}
