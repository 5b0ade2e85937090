import StrataStorage

/// One evaluation of a query in one transaction: the keys of the matching objects with every
/// step applied but a final SORT, which is applied lazily: reading the first objects selects
/// them with a bounded heap (top-K) instead of sorting everything (`order(upTo:in:_:)`).
package struct QueryEvaluation {
    /// The matching keys; the first `orderedCount` are in result order.
    package private(set) var keys: [ObjectKey]
    /// The rows of `keys`, in their order, when the walk that found them read them and kept
    /// them (`KeptRows`): a query with no SORT, DISTINCT or LIMIT step, on a plain file.
    package private(set) var rows: KeptRows.Rows?
    /// A final SORT step not yet applied past the first `orderedCount` keys.
    private var pendingSort: [SortKey]?
    private var orderedCount = 0

    /// No objects (results of a class with no table yet).
    package static let empty = QueryEvaluation(keys: [])

    /// The keys as given, in result order.
    package init(keys: [ObjectKey]) {
        self.keys = keys
    }

    /// Evaluates `query` (nil: every object) on the objects of `table`, or on `candidates`
    /// (objects of `table`, in their order, repeats included) when given: the objects of a
    /// list or of backlinks.
    package init(_ query: CompiledQuery?, candidates: [ObjectKey]? = nil, in table: Table, _ txn: StorageTransaction) throws {
        guard let query else {
            if let candidates {
                keys = candidates
            } else {
                keys = []
                keys.reserveCapacity(try txn.rows.count(table))
                try txn.rows.forEach(table, rows: .call) { key, _ in keys.append(key); return true }
            }
            return
        }
        if candidates == nil, query.suffixes.count == 1, case .sort(let sortKeys) = query.suffixes[0],
           QueryExecution.canOrderWhileScanning(query, by: sortKeys) {
            // A scan then a sort: the scan also puts the first objects in order.
            keys = try QueryExecution.matches(query, in: table, txn, orderingFirst: PartialSort.firstBatch, by: sortKeys)
            pendingSort = sortKeys
            orderedCount = Swift.min(PartialSort.firstBatch, keys.count)
            return
        }
        if candidates == nil, query.suffixes.isEmpty {
            var kept = KeptRows(txn)
            keys = try QueryExecution.matches(query, in: table, txn, keeping: &kept)
            rows = kept.rows
            return
        }
        keys = try candidates.map { try QueryExecution.filter($0, query, in: table, txn) }
            ?? QueryExecution.matches(query, in: table, txn)
        var steps = query.suffixes
        if case .sort(let sortKeys)? = steps.last {
            pendingSort = sortKeys
            steps.removeLast()
        }
        for step in steps {
            keys = try QueryExecution.apply(step, to: keys, in: table, txn)
        }
    }

    /// The row of the match at `position` when the walk that found it kept it (one kept as
    /// stored is verified here, as any read is); nil otherwise.
    @inline(__always)
    package func keptRow(at position: Int, of table: Table, _ txn: StorageTransaction) throws(StorageError) -> RowView? {
        switch rows {
        case nil: nil
        case .views(let views)?: position < views.count ? views[position] : nil
        case .stored(let stored)?: position < stored.count ? try txn.rows.view(table, keys[position], stored[position]) : nil
        }
    }

    /// How many of the first keys are in result order.
    package var orderedPrefix: Int { pendingSort == nil ? keys.count : orderedCount }

    /// Whether at least the first `prefix` keys are in result order.
    package func isOrdered(upTo prefix: Int) -> Bool {
        pendingSort == nil || orderedCount >= Swift.min(prefix, keys.count)
    }

    /// Puts at least the first `prefix` keys in result order: the first time at least a page
    /// (`PartialSort.firstBatch`), after that every key.
    package mutating func order(upTo prefix: Int, in table: Table, _ txn: StorageTransaction) throws {
        guard let sortKeys = pendingSort, !isOrdered(upTo: prefix) else { return }
        let wanted = orderedCount == 0 ? Swift.max(prefix, PartialSort.firstBatch) : keys.count
        try QueryExecution.orderPrefix(&keys, count: wanted, by: sortKeys, in: table, txn)
        orderedCount = Swift.min(wanted, keys.count)
    }
}
