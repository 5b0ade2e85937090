import StrataQuery
import StrataStorage
import Synchronization

/// What a `Results` value reads and caches, apart from its element type: its Realm, class,
/// query and source, and the keys of its last evaluation. Not generic, so that counting and
/// evaluating (the work behind every `count` and subscript) run as plain code, with no
/// generic type to look up at run time.
final class ResultsState {
    let core: RealmCore
    let info: ModelClass
    let query: CompiledQuery?
    /// Where the objects come from before the query.
    let source: ResultsSource
    /// Held while the cache is read or filled, for results of a frozen Realm (any thread may
    /// read them at once): by `count`, `binding`, `ordered(upTo:)`, `object(at:)` and
    /// `lastObject()`, each once.
    private let lock = Mutex(())
    /// Whether the results are a frozen Realm's, so `lock` is taken.
    private let isShared: Bool
    /// The core's `invalidations` when the results were made.
    private let madeAtInvalidations: UInt32

    /// The last evaluation of the query, at the Realm's stamp `evaluatedStamp`.
    private var cached: QueryEvaluation?
    /// The Realm's stamp when `cached` was evaluated.
    private var evaluatedStamp: UInt64 = .max
    private var cachedBinding: TableBinding?
    private var bindingsGeneration: UInt64 = 0
    /// For results of values: the collection they read, once looked up.
    private var valueStore: ListStore?
    /// For results of values: their values in result order, at the Realm's stamp `evaluatedStamp`.
    private var cachedValues: [StrataStorage.Value] = []

    /// Makes the element handed out for each object, for results of a `Projection` class
    /// (nil: the objects themselves).
    let projection: ((ObjectBase) -> AnyObject)?

    init(core: RealmCore, info: ModelClass, query: CompiledQuery?, source: ResultsSource,
         projection: ((ObjectBase) -> AnyObject)? = nil) {
        self.projection = projection
        self.core = core
        self.info = info
        self.query = query
        self.source = source
        isShared = core.isFrozen
        madeAtInvalidations = core.invalidations
    }

    /// Results over the same source with `query` instead of this one's, sharing the projection
    /// and the binding already looked up.
    func refined(by query: CompiledQuery) -> ResultsState {
        let refined = ResultsState(core: core, info: info, query: query, source: source, projection: projection)
        guarded {
            refined.cachedBinding = cachedBinding
            refined.bindingsGeneration = bindingsGeneration
        }
        return refined
    }

    /// Whether the Realm was invalidated since these results were made.
    var isInvalidated: Bool { core.invalidations != madeAtInvalidations }

    /// Number of matching objects. O(1) for a whole class.
    var count: Int { guarded { countMatches() } }

    /// `count`, in `guarded`.
    private func countMatches() -> Int {
        if isWholeTable {
            guard let binding = currentBinding() else { return 0 }
            return core.reading { try core.transaction().rows.count(binding.table) }
        }
        if let cached, evaluatedStamp == core.snapshot.stamp { return cached.keys.count }
        if query == nil, case .backlinks(let name, let target) = source {
            guard let binding = currentBinding(), let property = binding.table.schema.property(named: name) else { return 0 }
            return core.reading { try core.transaction().links.originCount(binding.table, property, linkingTo: target) }
        }
        if query == nil, case .list(let name, let owner, let ownerInfo) = source {
            guard let table = core.reading({ try core.binding(for: ownerInfo) })?.table,
                  let property = table.schema.property(named: name) else { return 0 }
            return core.reading { try core.transaction().lists.count(table, property, owner: owner) }
        }
        // A query is evaluated and its keys kept, so the iteration or subscript that usually
        // follows a count reads them instead of scanning again.
        return evaluated().keys.count
    }

    /// The file's binding of the class, or nil if no object of it was ever stored. Results of
    /// values have no class of their own: what needs one (queries, key paths) traps on them.
    var binding: TableBinding? {
        if holdsValues { fatalError("Results of values support sorted(ascending:), distinct(), aggregates and reading their values; queries and key paths need results of objects") }
        return guarded { currentBinding() }
    }

    /// Whether the results are values of a list, set or map (`sorted(ascending:)`,
    /// `distinct()`), not objects.
    var holdsValues: Bool {
        if case .values = source { true } else { false }
    }

    /// The values of results of values, in result order (read once per snapshot and write
    /// count).
    func orderedValues() -> [StrataStorage.Value] {
        guard case .values(_, _, _, let order) = source else { preconditionFailure("results of objects") }
        return guarded {
            let stamp = core.snapshot.stamp
            if evaluatedStamp == stamp, valueStore != nil { return cachedValues }
            cachedValues = order.apply(to: valueCollection().read { try $0.values() })
            evaluatedStamp = stamp
            return cachedValues
        }
    }

    /// The stored property of the collection results of values read (the element type
    /// their filters resolve against).
    var valueProperty: PropertySchema { guarded { valueCollection().property } }

    /// The collection results of values read, looked up once (in `guarded`).
    private func valueCollection() -> ListStore {
        guard case .values(let index, let owner, let ownerInfo, _) = source else { preconditionFailure("results of objects") }
        let store = valueStore ?? ListStore(owner: valueOwner(ownerInfo, owner), index: index)
        valueStore = store
        return store
    }

    /// `value`, one of `orderedValues()`, as a Swift element (as the collection it comes from
    /// hands it out).
    func valueElement<Element>(_ value: StrataStorage.Value) -> Element {
        guarded { valueStore! }.element(value)
    }

    /// The object owning the collection results of values read; traps if it was deleted.
    private func valueOwner(_ info: ModelClass, _ key: ObjectKey) -> ObjectBase {
        guard let object = core.existingObject(info, key) else {
            fatalError("The collection these results read was deleted (its \(info.name) object no longer exists)")
        }
        return object
    }

    /// `binding`, in `guarded`.
    private func currentBinding() -> TableBinding? {
        if let b = cachedBinding, bindingsGeneration == core.bindings.generation { return b }
        let b = core.reading { try core.binding(for: info) }
        cachedBinding = b
        bindingsGeneration = core.bindings.generation
        return b
    }

    /// Whether the results are every object of the class, in table order.
    var isWholeTable: Bool { query == nil && source == .table }

    /// The schema queries resolve against: the stored one once the class has a table.
    var querySchema: ClassSchema { binding?.querySchema ?? info.publicSchema(info.schema) }

    /// The matching keys, of which at least the first `prefix` are in result order (a final
    /// SORT step orders only as many as are read; see `QueryEvaluation`).
    func ordered(upTo prefix: Int) -> [ObjectKey] {
        guarded { orderedEvaluation(upTo: prefix).keys }
    }

    /// This snapshot's evaluation with at least its first `prefix` keys in result order (in
    /// `guarded`).
    private func orderedEvaluation(upTo prefix: Int) -> QueryEvaluation {
        var evaluation = evaluated()
        if evaluation.isOrdered(upTo: prefix) { return evaluation }
        core.reading { try evaluation.order(upTo: prefix, in: currentBinding()!.table, core.transaction()) }
        cached = evaluation
        return evaluation
    }

    /// The evaluation in this snapshot, at least its first `prefix` keys in result order,
    /// for a loop to walk (`KeyWalk`): its keys and the rows it kept stay valid while the
    /// Realm's stamp stays `stamp`.
    func walkable(upTo prefix: Int) -> (evaluation: QueryEvaluation, stamp: UInt64) {
        guarded { (orderedEvaluation(upTo: prefix), core.snapshot.stamp) }
    }

    /// The object at `position` in result order, with its row when this snapshot's evaluation
    /// kept it (read by the walk that found the match, so the accessor handed out for it looks
    /// up no row again); nil when `position` is out of bounds or the class has no table.
    func object(at position: Int) -> ResultsPosition? {
        guarded { locate(position) }
    }

    /// The last object in result order (as `object(at:)`), or nil when there is none.
    ///
    /// A whole class's ends are found by its walk like any other position, not by a cursor
    /// sent to the table's first or last key: a damaged branch page can hide the rows at an
    /// end from that cursor, and only a walk, which compares what it met with the table's
    /// count, tells that the file is damaged instead of answering with another object.
    func lastObject() -> ResultsPosition? {
        guarded { locate(countMatches() - 1) }
    }

    /// `object(at:)`, in `guarded`.
    private func locate(_ position: Int) -> ResultsPosition? {
        guard position >= 0, let binding = currentBinding() else { return nil }
        let evaluation = orderedEvaluation(upTo: position + 1)
        guard position < evaluation.keys.count else { return nil }
        let row = core.reading { try evaluation.keptRow(at: position, of: binding.table, core.transaction()) }
        return ResultsPosition(binding, evaluation.keys[position], row: row)
    }

    /// Calls `body` with the row of every object, in no particular order (what an aggregate
    /// reads; a row is valid until `body` returns). A query not evaluated in this snapshot runs
    /// with each match's row read once, rather than its keys collected and their rows read
    /// again; one evaluated in it hands out the rows its evaluation kept, if it kept them.
    func forEachRow(_ body: (RowView) -> Void) {
        guarded {
            guard let table = currentBinding()?.table else { return }
            core.reading {
                let txn = try core.transaction()
                if isWholeTable {
                    return try txn.rows.forEach(table, rows: .call) { _, row in body(row); return true }
                }
                // The rows the evaluation kept, in this snapshot.
                if evaluatedStamp == core.snapshot.stamp, let cached, let kept = cached.rows {
                    switch kept {
                    case .views(let rows): return rows.forEach(body)
                    case .stored(let stored): return try txn.rows.forEach(table, keys: cached.keys, stored: stored, rows: .call) { _, row in body(row) }
                    }
                }
                if let query, source == .table, query.suffixes.allSatisfy(\.keepsMembers), evaluatedStamp != core.snapshot.stamp {
                    return try QueryExecution.forEachMatch(query, in: table, txn) { _, row in body(row) }
                }
                try txn.rows.forEach(table, keys: evaluated().keys, rows: .call) { _, row in body(row) }
            }
        }
    }

    /// Runs `body` under `lock` when the results are shared across threads.
    @inline(__always)
    private func guarded<T>(_ body: () -> T) -> T {
        guard isShared else { return body() }
        return lock.withLock { _ in body() }
    }

    /// The query's evaluation, made once per snapshot and write count (in `guarded`).
    private func evaluated() -> QueryEvaluation {
        let stamp = core.snapshot.stamp
        if let cached, evaluatedStamp == stamp { return cached }
        let evaluation = core.reading { try evaluate() }
        cached = evaluation
        evaluatedStamp = stamp
        return evaluation
    }

    /// Evaluates the query on the objects of the source.
    private func evaluate() throws -> QueryEvaluation {
        guard let binding = currentBinding() else { return .empty }
        let txn = try core.transaction()
        let table = binding.table
        switch source {
        case .table:
            return try QueryEvaluation(query, in: table, txn)
        case .backlinks(let name, let target):
            guard let property = table.schema.property(named: name) else { return .empty }
            return try QueryEvaluation(query, candidates: try txn.links.origins(table, property, linkingTo: target), in: table, txn)
        case .list(let name, let owner, let ownerInfo):
            guard let ownerTable = try core.binding(for: ownerInfo)?.table,
                  let property = ownerTable.schema.property(named: name) else { return .empty }
            let members = try txn.lists.values(ownerTable, property, owner: owner).compactMap { value -> ObjectKey? in
                if case .link(let key) = value { return key } else { return nil }
            }
            return try QueryEvaluation(query, candidates: members, in: table, txn)
        case .objects(let keys):
            return try QueryEvaluation(query, candidates: try keys.filter { try txn.rows.contains(table, $0) }, in: table, txn)
        case .values:
            preconditionFailure("results of values are read by orderedValues(), never evaluated as a query")
        }
    }
}

/// Where the object at one position of results is: its class's binding, its key, and its row
/// when the evaluation kept it.
struct ResultsPosition {
    let binding: TableBinding
    let key: ObjectKey
    let row: RowView?

    init(_ binding: TableBinding, _ key: ObjectKey, row: RowView? = nil) {
        self.binding = binding
        self.key = key
        self.row = row
    }
}
