import Foundation
import StrataQuery
import StrataStorage

/// Live, lazily evaluated query results (RealmSwift's `Results`): the objects of a class that
/// match a predicate, in table order or sorted. Evaluated on first use and again whenever
/// the Realm's snapshot or write count has moved on.
public struct Results<Element: RealmCollectionValue>: Equatable, RealmCollection {
    /// The query, its source and the cache of its evaluation, which do not depend on
    /// `Element`: evaluating runs as plain code, with no generic type to look up.
    let state: ResultsState
    var core: RealmCore { state.core }
    var info: ModelClass { state.info }
    var query: CompiledQuery? { state.query }
    /// Where the objects come from before the query.
    var source: ResultsSource { state.source }

    init(core: RealmCore, info: ModelClass, query: CompiledQuery? = nil, source: ResultsSource = .table) {
        state = ResultsState(core: core, info: info, query: query, source: source, projection: Self.projection)
    }

    /// Results of `state`, a refinement of another's.
    private init(state: ResultsState) {
        self.state = state
    }

    /// How an object is handed out: nil for results of objects or values, which hand out
    /// what they hold; for results of a `Projection` class (which hold its root class's
    /// objects) the projection of each. An object class is told apart by its superclass
    /// chain before the protocol conformance is looked up.
    private static var projection: ((ObjectBase) -> AnyObject)? {
        if Element.self is ObjectBase.Type { return nil }
        return (Element.self as? ProjectionFactory.Type)?.projecting
    }

    /// The same source with `query` instead of this one's (for `filter`, `sorted`, `where`).
    func refined(by query: CompiledQuery) -> Results<Element> {
        Results(state: state.refined(by: query))
    }

    /// The Realm the results belong to.
    public var realm: Realm? { Realm(core: core) }

    /// Whether the Realm was invalidated (`Realm.invalidate()`) since these results were
    /// obtained from it.
    public var isInvalidated: Bool { state.isInvalidated }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// Number of matching objects. O(1) for a whole class.
    public var count: Int {
        core.confinement.check()
        if state.holdsValues { return state.orderedValues().count }
        return state.count
    }

    /// The object (or, for results of values, the value) at `position` in the results.
    public subscript(position: Int) -> Element {
        core.confinement.check()
        if state.holdsValues {
            let values = state.orderedValues()
            precondition(position >= 0 && position < values.count, "Index \(position) is out of bounds (must be less than \(values.count))")
            return state.valueElement(values[position])
        }
        return element(at: located(position))
    }

    public func makeIterator() -> RLMIterator<Element> {
        guard state.holdsValues else { return RLMIterator(self) }
        core.confinement.check()
        let values = state.orderedValues()
        return RLMIterator(count: values.count) { state.valueElement(values[$0]) }
    }

    /// The first object, or nil.
    public var first: Element? {
        core.confinement.check()
        if state.holdsValues { return isEmpty ? nil : self[0] }
        return state.object(at: 0).map(element(at:))
    }
    /// The last object, or nil.
    public var last: Element? {
        core.confinement.check()
        if state.holdsValues { let n = count; return n == 0 ? nil : self[n - 1] }
        return state.lastObject().map(element(at:))
    }

    /// "Results<Dog> <0x…> (" and each element on its own line, as RealmSwift prints results.
    public var description: String {
        CollectionDescription.render("Results", state.holdsValues ? CollectionDescription.typeName(Element.self) : info.name,
                                     address: state, count: count,
                                     elements: enumerated().lazy.map { (label: "[\($0.offset)]", value: $0.element as Any) })
    }

    /// Same Realm, same class, same source and same query text.
    public static func == (lhs: Results<Element>, rhs: Results<Element>) -> Bool {
        lhs.core === rhs.core && lhs.info === rhs.info && lhs.source == rhs.source && lhs.query?.description == rhs.query?.description
    }

    /// The file's binding of the class, or nil if no object of it was ever stored.
    var binding: TableBinding? { state.binding }

    /// Whether the results are every object of the class, in table order.
    var isWholeTable: Bool { state.isWholeTable }

    /// The schema queries resolve against: the stored one once the class has a table.
    var querySchema: ClassSchema { state.querySchema }

    /// The matching object keys, in result order (cached per snapshot and write count).
    var keys: [ObjectKey] { state.ordered(upTo: .max) }

    /// A cursor over the whole table, when the results are a whole class read outside a
    /// write (a read snapshot keeps the cursor's rows valid).
    func tableScan() -> RowScan? {
        guard isWholeTable, state.projection == nil, !core.writes.isInWriteTransaction, let binding else { return nil }
        return RowScan(core.reading { try core.transaction().rows.scan(binding.table) }, core: core, binding: binding)
    }

    /// A walk over the keys of one evaluation, when the results are objects of a query, list
    /// or backlinks read outside a write (a write's loop walks the keys it started with).
    func keyWalk() -> KeyWalk? {
        guard !isWholeTable, !state.holdsValues, state.projection == nil, !core.writes.isInWriteTransaction,
              let binding else { return nil }
        return KeyWalk(state, binding: binding)
    }

    /// The object `key` of the results' class.
    @inline(__always)
    func element(_ key: ObjectKey) -> Element {
        element(of: core.object(ObjectBase.self, binding!, key))
    }

    /// `object` as an element: itself, or its projection for results of a `Projection`.
    @inline(__always)
    func element(of object: ObjectBase) -> Element {
        // Results are made only for `Element` the model class of `info` (which `binding`
        // binds), or a projection of it, so the accessor or its projection is an `Element`:
        // the cast reinterprets one class reference as another, with no check per object.
        if let projection = state.projection { return unsafeBitCast(projection(object), to: Element.self) }
        return unsafeBitCast(object, to: Element.self)
    }

    /// The object at `position`, as `self[position]`, for an iterator: its accessor comes
    /// from `accessors`, which may hand out the one it gave last.
    @usableFromInline
    func element(at position: Int, from accessors: inout AccessorRecycler) -> Element {
        core.confinement.check()
        let at = located(position)
        return element(of: accessors.accessor(core, at.binding, at.key, row: at.row))
    }

    /// The element for the object `position` locates.
    private func element(at position: ResultsPosition) -> Element {
        element(of: core.object(ObjectBase.self, position.binding, position.key, row: position.row))
    }

    /// Where the object at `position` is; traps when `position` is out of bounds.
    private func located(_ position: Int) -> ResultsPosition {
        guard let at = state.object(at: position) else {
            preconditionFailure("Index \(position) is out of bounds (must be less than \(count))")
        }
        return at
    }
}

/// Where the objects of a `Results` come from before its query.
enum ResultsSource: Equatable {
    /// Every object of the class.
    case table
    /// The objects whose link property `property` points at object `target` (backlinks).
    case backlinks(property: String, target: ObjectKey)
    /// The objects of object `owner`'s list `property`, in list order (repeats included).
    case list(property: String, owner: ObjectKey, ownerInfo: ModelClass)
    /// The values of object `owner`'s list, set or map of values (its property at declaration
    /// index `index`), in `order`: results of `sorted(ascending:)` and `distinct()`.
    case values(index: Int, owner: ObjectKey, ownerInfo: ModelClass, order: ValueOrder)
    /// The objects of `keys` that exist, in that order (the matches of an `NSPredicate`).
    case objects([ObjectKey])

    static func == (a: ResultsSource, b: ResultsSource) -> Bool {
        switch (a, b) {
        case (.table, .table): true
        case let (.backlinks(p, t), .backlinks(q, u)): p == q && t == u
        case let (.list(p, o, i), .list(q, k, j)): p == q && o == k && i === j
        case let (.values(p, o, i, r), .values(q, k, j, s)): p == q && o == k && i === j && r == s
        case let (.objects(p), .objects(q)): p == q
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
        stamp = core.snapshot.stamp
        accessors = AccessorRecycler(binding.info)
    }

    /// The next object, or nil when the scan ended or the snapshot moved on.
    @usableFromInline
    func nextObject() -> ObjectBase? {
        guard stamp == core.snapshot.stamp, let (key, row) = core.reading({ try cursor.next() }) else {
            accessors = AccessorRecycler(binding.info)
            return nil
        }
        // An encrypted file's block is lent to the accessor at +0 (the cursor holds it): the
        // accessor retains it only when it is not the block it holds already.
        guard cursor.decrypts, let block = cursor.unretainedBlock else { return accessors.accessor(core, binding, key, row: row) }
        return block._withUnsafeGuaranteedRef { accessors.accessor(core, binding, key, row: row, block: $0) }
    }
}
