import StrataStorage

/// How a query finds the objects it then checks: the plan step of query execution.
///
/// Chosen once, when the query is compiled, from the top-level conjuncts of the resolved
/// predicate (`QueryPlanner`); when several indexes are usable, the one to read is chosen
/// when the query runs, by counting their entries. The whole predicate is evaluated on every
/// candidate row, so an index only narrows the rows visited, unless the planner proved that
/// the access yields exactly the matches (`covers`): then the candidates are the result and
/// no row is read.
package enum QueryPlan: Equatable, Sendable {
    /// The predicate is always false: nothing is read.
    case nothing
    /// Every row is visited in key order; the predicate reads these properties (none for
    /// `TRUEPREDICATE`).
    case scan(reading: [PropertySchema])
    /// The candidates come from an index (or from the table, when an integer primary key is
    /// the object key), then each is re-checked, unless `covers`: the access yields exactly
    /// the objects that match the whole predicate, so no row needs reading.
    case index(IndexAccess, covers: Bool)
    /// Several conjuncts can use an index: when the query runs, the access that reads the
    /// fewest index entries gives the candidates (ties to the earlier; listed best kind
    /// first), which are re-checked.
    case fewestEntries([IndexAccess])

    /// One line: "scan Dog reading age, name", "index range on Dog.age [3, 8)", ...
    package func description(className: String) -> String {
        switch self {
        case .nothing: return "nothing (the predicate is always false)"
        case .scan(let properties) where properties.isEmpty: return "scan \(className)"
        case .scan(let properties): return "scan \(className) reading " + properties.map(\.name).joined(separator: ", ")
        case .index(let access, _): return access.description(className: className)
        case .fewestEntries(let accesses):
            return "the index with the fewest entries of " + accesses.map { $0.description(className: className) }.joined(separator: "; ")
        }
    }
}

/// One way of reading candidates from an index.
package enum IndexAccess: Equatable, Sendable {
    /// Objects whose property equals one of the values (`==` or `IN`); no values means none.
    case equal(PropertySchema, [Value])
    /// Objects whose string property starts with the prefix (`BEGINSWITH` without options).
    case prefix(PropertySchema, String)
    /// Objects whose property lies in the range (`< <= > >= BETWEEN`, merged per property).
    case range(PropertySchema, IndexRange)
    /// Objects whose string property passes the comparison, found by testing each distinct
    /// value of the whole index once (`==[c]`, `CONTAINS`, `LIKE`, …: what the index order
    /// cannot answer).
    case test(ResolvedComparison)

    /// The property whose index is read.
    package var property: PropertySchema {
        switch self {
        case .equal(let p, _), .prefix(let p, _), .range(let p, _): p
        case .test(let c): c.property
        }
    }

    /// "index lookup on Dog.name for 2 values", "primary key range on Dog.id [1, 5]", ...
    package func description(className: String) -> String {
        let p = property
        let kind = p.isPrimaryKey ? "primary key" : "index"
        let target = "\(className).\(p.name)"
        switch self {
        case .equal(_, let values):
            let shown = values.prefix(5).map(literalText).joined(separator: ", ") + (values.count > 5 ? ", …" : "")
            return "\(kind) lookup on \(target) for \(values.count) value\(values.count == 1 ? "" : "s") {\(shown)}"
        case .prefix(_, let s):
            return "\(kind) prefix on \(target) \(literalText(.string(s)))"
        case .range(_, let r):
            return "\(kind) range on \(target) \(r)"
        case .test:
            return "\(kind) scan on \(target) testing each distinct value"
        }
    }
}

/// Picks the plan of a resolved predicate.
///
/// Only top-level conjuncts (`a AND b AND …`, or a single comparison) can narrow the rows,
/// and only comparisons of an indexed property (or the primary key) with constants.
/// Candidates, best kind first:
///
/// 1. primary key `==` / `IN` (fewer values first);
/// 2. indexed `==`;
/// 3. indexed `IN` (fewer values first);
/// 4. `BEGINSWITH` on an indexed string;
/// 5. a range closed at both ends (all of a property's `< <= > >= BETWEEN` conjuncts are
///    merged into one range);
/// 6. a range open at one end;
/// 7. a scan of an indexed string's index testing each distinct value, for what the index
///    order cannot answer: `==`, `BEGINSWITH` and `IN` with `[c]`/`[d]`, and `ENDSWITH`,
///    `CONTAINS` and `LIKE` (these only when they are the whole predicate, so no row is read
///    twice).
///
/// Ties go to the conjunct written first. One candidate is the plan; several are listed in
/// this order (`.fewestEntries`) and the one reading the fewest index entries is chosen when
/// the query runs, so the order only decides ties. The access covers the predicate when it is
/// the whole predicate (every conjunct went into it) and index keys decide the comparison
/// exactly: int constants on int properties (no rounded bound), strings shorter than a
/// truncated key (509 bytes or less; BEGINSWITH with a non-empty prefix), and any tested
/// value (longer ones are checked on their rows); never nil; other types (floats, doubles and
/// dates, where NaN and conversions differ) are always re-checked. Ranges apply to int,
/// float, double, date and string properties; a bound that no stored value can equal
/// (`age > 2.5`) is rounded to the property's type (`age >= 3`), and a NaN bound or an integer
/// bound beyond `Int64` leaves the conjunct to the scan.
package enum QueryPlanner {
    /// The plan for `predicate`.
    package static func plan(_ predicate: ResolvedPredicate) -> QueryPlan {
        if case .comparison(let c) = predicate, let plan = indexedEquality(c) { return plan }
        if predicate == .constant(false) { return .nothing }
        let conjuncts: [ResolvedPredicate]
        if case .and(let ps) = predicate { conjuncts = ps } else { conjuncts = [predicate] }
        if conjuncts.contains(.constant(false)) { return .nothing }

        var candidates: [(rank: Int, count: Int, order: Int, access: IndexAccess, covers: Bool)] = []
        func consider(_ rank: Int, _ count: Int, _ access: IndexAccess, covers: Bool) {
            candidates.append((rank, count, candidates.count, access, covers))
        }
        var ranges: [(property: PropertySchema, range: IndexRange)] = []
        // Per property id: how many conjuncts went into its range, and whether all were exact.
        var rangeParts: [Int: (count: Int, exact: Bool)] = [:]
        func addRange(_ p: PropertySchema, _ range: IndexRange, exact: Bool) {
            merge(&ranges, p, range)
            let part = rangeParts[p.id] ?? (0, true)
            rangeParts[p.id] = (part.count + 1, part.exact && exact)
        }
        let single = conjuncts.count == 1

        for case .comparison(let c) in conjuncts where c.property.hasIndex {
            if let selective = testedByValue(c) {
                // A substring or pattern is tested on every value: read the index for it only
                // when it is the whole predicate, so no row needs reading.
                if selective || single { consider(6, 0, .test(c), covers: single) }
                continue
            }
            guard c.options.isEmpty else { continue }
            let p = c.property
            switch (c.op, c.operand) {
            case (.equal, _), (.in, _):
                guard let (rank, access, covers) = equality(c, single: single), case .equal(_, let values) = access else { continue }
                consider(rank, values.count, access, covers: covers)
            case (.beginsWith, .value(.string(let s))) where p.type == .string:
                consider(3, 0, .prefix(p, s), covers: single && !s.isEmpty && exactKey(.string(s), p))
            case (.between, .values(let vs)) where vs.count == 2:
                guard let low = bound(vs[0], p.type, lower: true), let high = bound(vs[1], p.type, lower: false) else { continue }
                addRange(p, IndexRange(lower: low, upper: high), exact: exactKey(vs[0], p) && exactKey(vs[1], p))
            case (.greater, .value(let v)), (.greaterOrEqual, .value(let v)):
                guard let low = bound(v, p.type, lower: true) else { continue }
                addRange(p, IndexRange(lower: low, lowerInclusive: c.op == .greaterOrEqual || !sameType(v, low), upper: nil),
                         exact: exactKey(v, p))
            case (.less, .value(let v)), (.lessOrEqual, .value(let v)):
                // Null orders before every string (`ValueSemantics`): an optional string's
                // nulls match, and an index range from the first value would miss them.
                guard !(p.isOptional && p.type == .string), let high = bound(v, p.type, lower: false) else { continue }
                addRange(p, IndexRange(lower: nil, upper: high, upperInclusive: c.op == .lessOrEqual || !sameType(v, high)),
                         exact: exactKey(v, p))
            default:
                continue
            }
        }
        for (p, r) in ranges {
            let part = rangeParts[p.id]!
            consider(r.lower != nil && r.upper != nil ? 4 : 5, 0, .range(p, r),
                     covers: part.exact && part.count == conjuncts.count)
        }
        if candidates.count > 1 {
            candidates.sort { ($0.rank, $0.count, $0.order) < ($1.rank, $1.count, $1.order) }
            return .fewestEntries(candidates.map(\.access))
        }
        if let only = candidates.first { return .index(only.access, covers: only.covers) }
        let ids = predicate.propertyIDs
        let reading = propertiesReading(ids, in: predicate)
        return .scan(reading: conjuncts.isEmpty ? [] : reading)
    }

    /// The plan of the commonest query, `indexed == value` as the whole predicate: its one
    /// candidate, as `equality` makes it, without a rank or a hint to copy; it covers the
    /// predicate exactly when `ExactLookup` accepts the comparison. Nil for any other comparison.
    package static func indexedEquality(_ c: ResolvedComparison) -> QueryPlan? {
        guard let v = indexedValue(c) else { return nil }
        let p = c.property
        if p.type == .mixed { return IndexHint.hint(c).map { .index(.equal(p, $0.values), covers: false) } }
        return .index(.equal(p, IndexHint.fits(v, p.type) ? [v] : []), covers: exactKey(v, p))
    }

    /// The value of `indexed == value` without options (not null), or nil for any other
    /// comparison.
    static func indexedValue(_ c: ResolvedComparison) -> Value? {
        guard c.op == .equal, c.options.isEmpty, c.property.hasIndex, case .value(let v) = c.operand, !v.isNull else { return nil }
        return v
    }

    /// The index lookup of `indexed == constant` or `indexed IN {constants}` (without
    /// options), its rank among the candidates, and whether it covers the predicate (`single`:
    /// the comparison is the whole predicate); nil when the index cannot answer it.
    private static func equality(_ c: ResolvedComparison, single: Bool) -> (rank: Int, access: IndexAccess, covers: Bool)? {
        guard let hint = IndexHint.hint(c) else { return nil }
        let p = c.property
        let covers: Bool
        switch c.operand {
        case .value(let v): covers = single && exactKey(v, p)
        case .values(let vs): covers = single && vs.allSatisfy { exactKey($0, p) }
        case .property: return nil
        }
        return (p.isPrimaryKey ? 0 : (c.op == .equal ? 1 : 2), .equal(p, hint.values), covers)
    }

    /// The properties with these ids, in id order, taken from the predicate itself; then the
    /// inverse relationships and lists it reads (named as written, such as `dogs`).
    private static func propertiesReading(_ ids: Set<Int>, in predicate: ResolvedPredicate) -> [PropertySchema] {
        var found: [Int: PropertySchema] = [:]
        var inverses: [String] = []
        func step(_ s: LinkStep?) {
            switch s {
            case .link(let p)?: found[p.id] = p
            case .backlinks?, .list?: if !inverses.contains(s!.description) { inverses.append(s!.description) }
            case nil: break
            }
        }
        func walk(_ p: ResolvedPredicate) {
            switch p {
            case .constant, .identity, .geoWithin: break
            case .and(let ps), .or(let ps): ps.forEach(walk)
            case .not(let q): walk(q)
            case .comparison(let c):
                found[c.property.id] = c.property
                if case .property(let q) = c.operand { found[q.id] = q }
            case .path(let steps, _, _): step(steps.first)
            case .aggregate(let a): step(a.path.first)
            case .keyPaths(let k):
                for side in [k.lhs, k.rhs] {
                    if side.steps.isEmpty, let p = side.rowProperty { found[p.id] = p } else { step(side.steps.first) }
                }
            }
        }
        walk(predicate)
        return found.keys.sorted().compactMap { ids.contains($0) ? found[$0] : nil }
            + inverses.map { PropertySchema(name: $0, type: .link, id: -1) }
    }

    /// Whether a scan of the index testing each distinct value answers `c` (a string property
    /// with string constants, for what the index order cannot do: `[c]`/`[d]` equality,
    /// prefix and `IN`, which are selective, and `ENDSWITH`, `CONTAINS`, `LIKE`, which are
    /// not), or nil.
    private static func testedByValue(_ c: ResolvedComparison) -> Bool? {
        guard c.property.type == .string, !c.property.isList else { return nil }
        switch (c.op, c.operand) {
        case (.endsWith, .value(.string)), (.contains, .value(.string)), (.like, .value(.string)):
            return false
        case (.equal, .value(.string)), (.beginsWith, .value(.string)):
            return c.options.isEmpty ? nil : true
        case (.in, .values(let vs)):
            guard !c.options.isEmpty, vs.allSatisfy({ if case .string = $0 { true } else { false } }) else { return nil }
            return true
        default:
            return nil
        }
    }

    /// A range bound as the property's stored type, or nil when it cannot bound an index
    /// scan (NaN, an integer bound beyond `Int64`, a type the index does not order).
    private static func bound(_ v: Value, _ type: PropertyType, lower: Bool) -> Value? {
        switch (type, v) {
        case (.int, .int), (.string, .string), (.objectId, .objectId): return v
        case (.int, .double(let d)):
            let r = lower ? d.rounded(.up) : d.rounded(.down)
            guard !r.isNaN, r >= -9.2e18, r <= 9.2e18 else { return nil }
            return .int(Int64(r))
        case (.float, .float(let f)): return f.isNaN ? nil : v
        case (.double, .double(let d)): return d.isNaN ? nil : v
        case (.date, .date(let d)): return d.timeIntervalSinceReferenceDate.isNaN ? nil : v
        default: return nil
        }
    }

    /// Whether comparing `p` with constant `v` is decided exactly by index keys: an int
    /// constant on an int property, an ObjectId on an ObjectId property (its key is its 12
    /// bytes), or a string on a string property short enough that no other string shares its
    /// key (`IndexKey.isDistinct`). Never nil, floats, doubles or dates.
    static func exactKey(_ v: Value, _ p: PropertySchema) -> Bool {
        guard !p.isList, p.linkTarget == nil else { return false }
        switch (p.type, v) {
        case (.int, .int), (.objectId, .objectId): return true
        case (.string, .string): return IndexKey.isDistinct(v)
        default: return false
        }
    }

    /// Whether a bound kept the constant's kind (false when `2.5` became `3`: the rounded
    /// bound itself is then inside the range).
    private static func sameType(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double, .int): false
        default: true
        }
    }

    /// Intersects `range` with the range already collected for `p`, or adds it.
    private static func merge(_ ranges: inout [(property: PropertySchema, range: IndexRange)], _ p: PropertySchema, _ range: IndexRange) {
        guard let i = ranges.firstIndex(where: { $0.property.id == p.id }) else {
            ranges.append((p, range))
            return
        }
        var r = ranges[i].range
        if let low = range.lower {
            if let current = r.lower {
                let c = compareBytes(IndexKey.encode(low), IndexKey.encode(current))
                if c > 0 || (c == 0 && !range.lowerInclusive) { r.lower = low; r.lowerInclusive = range.lowerInclusive }
            } else {
                r.lower = low
                r.lowerInclusive = range.lowerInclusive
            }
        }
        if let high = range.upper {
            if let current = r.upper {
                let c = compareBytes(IndexKey.encode(high), IndexKey.encode(current))
                if c < 0 || (c == 0 && !range.upperInclusive) { r.upper = high; r.upperInclusive = range.upperInclusive }
            } else {
                r.upper = high
                r.upperInclusive = range.upperInclusive
            }
        }
        ranges[i].range = r
    }
}
