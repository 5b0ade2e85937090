import Foundation
import StrataQuery
import StrataStorage

/// What a `Results` value reads and caches, apart from its element type: its Realm, class,
/// query and source, and the keys of its last evaluation. Not generic, so that counting and
/// evaluating (the work behind every `count` and subscript) run as plain code, with no
/// generic type to look up at run time.
final class ResultsState {
    let core: RealmCore
    let info: ClassInfo
    let query: CompiledQuery?
    /// Where the objects come from before the query.
    let source: ResultsSource
    /// Held while the cache is read or filled, for results of a frozen Realm (any thread may
    /// read them at once); nil otherwise. Recursive: a count may evaluate the keys.
    let lock: NSRecursiveLock?

    /// The matching keys of the last evaluation; the first `orderedCount` are in result order
    /// when `pendingSort` is set.
    private var cachedKeys: [ObjectKey]?
    private var orderedCount = 0
    private var pendingSort: [SortKey]?
    /// The Realm's stamp when `cachedKeys` were evaluated.
    private var evaluatedStamp: UInt64 = .max
    private var cachedBinding: TableBinding?
    private var bindingsGeneration: UInt64 = 0

    init(core: RealmCore, info: ClassInfo, query: CompiledQuery?, source: ResultsSource) {
        self.core = core
        self.info = info
        self.query = query
        self.source = source
        lock = core.isFrozen ? NSRecursiveLock() : nil
    }

    /// Number of matching objects. O(1) for a whole class.
    var count: Int {
        lock?.lock()
        defer { lock?.unlock() }
        if isWholeTable {
            guard let binding else { return 0 }
            return (try? core.transaction().count(binding.table)) ?? 0
        }
        if let cached = cachedKeys, evaluatedStamp == core.snapshot.stamp { return cached.count }
        if query == nil, case .backlinks(let name, let target) = source {
            guard let binding, let property = binding.table.schema.property(named: name) else { return 0 }
            return (try? core.transaction().originCount(binding.table, property, linkingTo: target)) ?? 0
        }
        if query == nil, case .list(let name, let owner, let ownerInfo) = source {
            guard let table = try? core.binding(for: ownerInfo)?.table, let property = table.schema.property(named: name) else { return 0 }
            return (try? core.transaction().listCount(table, property, owner: owner)) ?? 0
        }
        // A scan on the rows alone is counted without collecting keys. One that follows links
        // costs far more per row than keeping the keys, so it is evaluated and its keys kept
        // for the reads that usually follow.
        if source == .table, let query, query.scans, !query.followsLinks, query.suffixes.isEmpty, let binding {
            return countByScan(query, binding.table)
        }
        return evaluated().count
    }

    /// Counts the rows matching a query that scans the rows alone, without collecting keys.
    private func countByScan(_ query: CompiledQuery, _ table: Table) -> Int {
        do {
            return try translatingErrors(path: core.path) { try QueryExecution.count(query, in: table, core.transaction()) }
        } catch { trap(error) }
    }

    /// The file's binding of the class, or nil if no object of it was ever stored.
    var binding: TableBinding? {
        lock?.lock()
        defer { lock?.unlock() }
        if let b = cachedBinding, bindingsGeneration == core.bindingsGeneration { return b }
        let b = try? core.binding(for: info)
        cachedBinding = b
        bindingsGeneration = core.bindingsGeneration
        return b
    }

    /// Whether the results are every object of the class, in table order.
    var isWholeTable: Bool { query == nil && source == .table }

    /// The schema queries resolve against: the stored one once the class has a table.
    var querySchema: ClassSchema { binding?.table.schema ?? info.schema }

    /// The matching keys, of which at least the first `prefix` are in result order. A final
    /// SORT step is applied lazily: reading the first objects selects them with a bounded
    /// heap (top-K) instead of sorting everything.
    func ordered(upTo prefix: Int) -> [ObjectKey] {
        lock?.lock()
        defer { lock?.unlock() }
        var keys = evaluated()
        guard let sortKeys = pendingSort, orderedCount < Swift.min(prefix, keys.count) else { return keys }
        let wanted = orderedCount == 0 ? Swift.max(prefix, PartialSort.firstBatch) : keys.count
        do {
            try translatingErrors(path: core.path) {
                let txn = try core.transaction()
                try QueryExecution.orderPrefix(&keys, count: wanted, by: sortKeys, in: binding!.table, txn)
            }
        } catch { trap(error) }
        cachedKeys = keys
        orderedCount = Swift.min(wanted, keys.count)
        return keys
    }

    /// The matching keys, evaluated once per snapshot and write count; all but a final SORT
    /// step applied.
    private func evaluated() -> [ObjectKey] {
        lock?.lock()
        defer { lock?.unlock() }
        let stamp = core.snapshot.stamp
        if let cached = cachedKeys, evaluatedStamp == stamp { return cached }
        let keys: [ObjectKey]
        do {
            keys = try translatingErrors(path: core.path) { try evaluate() }
        } catch { trap(error) }
        cachedKeys = keys
        evaluatedStamp = stamp
        return keys
    }

    private func evaluate() throws -> [ObjectKey] {
        pendingSort = nil
        orderedCount = 0
        guard let binding else { return [] }
        let txn = try core.transaction()
        let table = binding.table
        var base: [ObjectKey]?
        switch source {
        case .table:
            break
        case .backlinks(let name, let target):
            guard let property = table.schema.property(named: name) else { return [] }
            base = try txn.origins(table, property, linkingTo: target)
        case .list(let name, let owner, let ownerInfo):
            guard let ownerTable = try core.binding(for: ownerInfo)?.table,
                  let property = ownerTable.schema.property(named: name) else { return [] }
            base = try txn.listValues(ownerTable, property, owner: owner).compactMap {
                if case .link(let key) = $0 { return key } else { return nil }
            }
        }
        guard let query else {
            if let base { return base }
            var keys: [ObjectKey] = []
            keys.reserveCapacity(try txn.count(table))
            try txn.forEachRow(table) { key, _ in keys.append(key); return true }
            return keys
        }
        if base == nil, query.suffixes.count == 1, case .sort(let sortKeys) = query.suffixes[0],
           QueryExecution.canOrderWhileScanning(query, by: sortKeys) {
            // A scan then a sort: the scan also puts the first objects in order.
            let keys = try QueryExecution.matches(query, in: table, txn, orderingFirst: PartialSort.firstBatch, by: sortKeys)
            pendingSort = sortKeys
            orderedCount = Swift.min(PartialSort.firstBatch, keys.count)
            return keys
        }
        var keys = try base.map { try QueryExecution.filter($0, query, in: table, txn) }
            ?? QueryExecution.matches(query, in: table, txn)
        var steps = query.suffixes
        if case .sort(let sortKeys)? = steps.last {
            pendingSort = sortKeys
            steps.removeLast()
        }
        for step in steps {
            keys = try QueryExecution.apply(step, to: keys, in: table, txn)
        }
        return keys
    }
}
