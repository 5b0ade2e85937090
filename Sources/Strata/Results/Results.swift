import Foundation
import StrataQuery
import StrataStorage

/// Live, lazily evaluated query results (RealmSwift's `Results`): the objects of a class that
/// match a predicate, in table order or sorted. Evaluated on first use and again whenever
/// the Realm's snapshot or write count has moved on.
public struct Results<Element: RealmCollectionValue>: Equatable, RealmCollection {
    let core: RealmCore
    let info: ClassInfo
    let query: CompiledQuery?
    /// Where the objects come from before the query.
    let source: ResultsSource
    private let state: ResultsState

    init(core: RealmCore, info: ClassInfo, query: CompiledQuery? = nil, source: ResultsSource = .table) {
        self.core = core
        self.info = info
        self.query = query
        self.source = source
        state = ResultsState(sharedByThreads: core.isFrozen)
    }

    /// The same source with `query` instead of this one's (for `filter`, `sorted`, `where`).
    func refined(by query: CompiledQuery) -> Results<Element> {
        Results(core: core, info: info, query: query, source: source)
    }

    /// The Realm the results belong to.
    public var realm: Realm? { Realm(core: core) }

    /// Results are never invalidated while their Realm is open.
    public var isInvalidated: Bool { false }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// Number of matching objects. O(1) for a whole class.
    public var count: Int {
        core.checkThread()
        state.lock?.lock()
        defer { state.lock?.unlock() }
        if isWholeTable {
            guard let binding else { return 0 }
            return (try? core.transaction().count(binding.table)) ?? 0
        }
        if let cached = state.keys, state.stamp == core.stamp { return cached.count }
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
        if source == .table, let query, case .scan = query.plan, !query.followsLinks, query.suffixes.isEmpty, let binding {
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

    /// The object at `position` in the results.
    public subscript(position: Int) -> Element {
        core.checkThread()
        let keys = ordered(upTo: position + 1)
        precondition(position >= 0 && position < keys.count, "Index \(position) is out of bounds (must be less than \(keys.count))")
        return element(keys[position])
    }

    public func makeIterator() -> RLMIterator<Element> { RLMIterator(self) }

    /// The first object, or nil.
    public var first: Element? { isEmpty ? nil : self[0] }
    /// The last object, or nil.
    public var last: Element? { let n = count; return n == 0 ? nil : self[n - 1] }

    public var description: String {
        "Results<\(info.name)> <\(count) objects>"
    }

    /// Same Realm, same class and same query text.
    public static func == (lhs: Results<Element>, rhs: Results<Element>) -> Bool {
        lhs.core === rhs.core && lhs.info === rhs.info && lhs.query?.description == rhs.query?.description
    }

    // MARK: Evaluation

    /// The file's binding of the class, or nil if no object of it was ever stored.
    var binding: TableBinding? {
        state.lock?.lock()
        defer { state.lock?.unlock() }
        if let b = state.binding, state.bindingsGeneration == core.bindingsGeneration { return b }
        let b = try? core.binding(for: info)
        state.binding = b
        state.bindingsGeneration = core.bindingsGeneration
        return b
    }

    /// Whether the results are every object of the class, in table order.
    var isWholeTable: Bool { query == nil && source == .table }

    /// The schema queries resolve against: the stored one once the class has a table.
    var querySchema: ClassSchema { binding?.table.schema ?? info.schema }

    /// The matching object keys, in result order (cached per snapshot and write count).
    var keys: [ObjectKey] { ordered(upTo: .max) }

    /// The matching keys, of which at least the first `prefix` are in result order. A final
    /// SORT step is applied lazily: reading the first objects selects them with a bounded
    /// heap (top-K) instead of sorting everything.
    func ordered(upTo prefix: Int) -> [ObjectKey] {
        state.lock?.lock()
        defer { state.lock?.unlock() }
        var keys = evaluated()
        guard let sortKeys = state.pendingSort, state.ordered < Swift.min(prefix, keys.count) else { return keys }
        let wanted = state.ordered == 0 ? Swift.max(prefix, PartialSort.firstBatch) : keys.count
        do {
            try translatingErrors(path: core.path) {
                let txn = try core.transaction()
                try QueryExecution.orderPrefix(&keys, count: wanted, by: sortKeys, in: binding!.table, txn)
            }
        } catch { trap(error) }
        state.keys = keys
        state.ordered = Swift.min(wanted, keys.count)
        return keys
    }

    /// The matching keys, evaluated once per snapshot and write count; all but a final SORT
    /// step applied.
    private func evaluated() -> [ObjectKey] {
        state.lock?.lock()
        defer { state.lock?.unlock() }
        let stamp = core.stamp
        if let cached = state.keys, state.stamp == stamp { return cached }
        let keys: [ObjectKey]
        do {
            keys = try translatingErrors(path: core.path) { try evaluate() }
        } catch { trap(error) }
        state.keys = keys
        state.stamp = stamp
        return keys
    }

    private func evaluate() throws -> [ObjectKey] {
        state.pendingSort = nil
        state.ordered = 0
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
            state.pendingSort = sortKeys
            state.ordered = Swift.min(PartialSort.firstBatch, keys.count)
            return keys
        }
        var keys = try base.map { try QueryExecution.filter($0, query, in: table, txn) }
            ?? QueryExecution.matches(query, in: table, txn)
        var steps = query.suffixes
        if case .sort(let sortKeys)? = steps.last {
            state.pendingSort = sortKeys
            steps.removeLast()
        }
        for step in steps {
            keys = try QueryExecution.apply(step, to: keys, in: table, txn)
        }
        return keys
    }

    /// A cursor over the whole table, when the results are a whole class read outside a
    /// write (a read snapshot keeps the cursor's rows valid).
    func tableScan() -> RowScan? {
        guard isWholeTable, !core.isInWriteTransaction, let binding,
              let scan = try? core.transaction().scan(binding.table) else { return nil }
        return RowScan(scan, core: core, binding: binding)
    }

    @inline(__always)
    func element(_ key: ObjectKey) -> Element {
        unsafeBitCast(core.object(ObjectBase.self, binding!, key), to: Element.self)
    }

    /// The object at `position`, as `self[position]`, for an iterator: its accessor comes
    /// from `accessors`, which may hand out the one it gave last.
    @usableFromInline
    func element(at position: Int, from accessors: inout AccessorRecycler) -> Element {
        core.checkThread()
        let keys = ordered(upTo: position + 1)
        precondition(position >= 0 && position < keys.count, "Index \(position) is out of bounds (must be less than \(keys.count))")
        return unsafeBitCast(accessors.accessor(core, binding!, keys[position], row: nil), to: Element.self)
    }
}

/// Where the objects of a `Results` come from before its query.
enum ResultsSource: Equatable {
    /// Every object of the class.
    case table
    /// The objects whose link property `property` points at object `target` (backlinks).
    case backlinks(property: String, target: ObjectKey)
    /// The objects of object `owner`'s list `property`, in list order (repeats included).
    case list(property: String, owner: ObjectKey, ownerInfo: ClassInfo)

    static func == (a: ResultsSource, b: ResultsSource) -> Bool {
        switch (a, b) {
        case (.table, .table): true
        case let (.backlinks(p, t), .backlinks(q, u)): p == q && t == u
        case let (.list(p, o, i), .list(q, k, j)): p == q && o == k && i === j
        default: false
        }
    }
}

/// A table cursor that makes an accessor of each row it passes, handing it the row (no
/// lookup per object), for as long as its Realm stays at the snapshot it began in. The
/// accessors come from an `AccessorRecycler`.
@usableFromInline
final class RowScan {
    private let cursor: RowCursor
    private let core: RealmCore
    private let binding: TableBinding
    private let stamp: UInt64
    /// Read and written only by the one iterator that owns the scan.
    @exclusivity(unchecked) private var accessors: AccessorRecycler

    init(_ cursor: RowCursor, core: RealmCore, binding: TableBinding) {
        self.cursor = cursor
        self.core = core
        self.binding = binding
        stamp = core.stamp
        accessors = AccessorRecycler(binding.info)
    }

    /// The next object, or nil when the scan ended or the snapshot moved on.
    @usableFromInline
    func nextObject() -> ObjectBase? {
        guard stamp == core.stamp, let (key, row) = try? cursor.next() else {
            accessors = AccessorRecycler(binding.info)
            return nil
        }
        return accessors.accessor(core, binding, key, row: row)
    }
}

/// The cache behind a `Results` value.
final class ResultsState {
    /// Held while the cache is read or filled, for results of a frozen Realm (any thread may
    /// read them at once); nil otherwise. Recursive: a count may evaluate the keys.
    let lock: NSRecursiveLock?

    init(sharedByThreads: Bool) { lock = sharedByThreads ? NSRecursiveLock() : nil }

    /// The matching keys; the first `ordered` are in result order when `pendingSort` is set.
    var keys: [ObjectKey]?
    var ordered = 0
    var pendingSort: [SortKey]?
    var stamp: UInt64 = .max
    var binding: TableBinding?
    var bindingsGeneration: UInt64 = 0
}
