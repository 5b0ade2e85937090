import Foundation
import StrataStorage
import StrataValues

/// A compiled condition on one object that may read other objects: the object's key, its
/// encoded row, and a reader for the rows and backlinks of the classes the query reaches.
package typealias ObjectPredicate = @Sendable (ObjectKey, RowView, LinkReader) -> Bool

/// Where a query reads linked objects from while it runs: in the database, the current
/// transaction. Classes are numbered by the compiled query (`CompiledQuery.linkedClasses`).
package protocol LinkSource: AnyObject {
    /// The row of object `key` of class number `table`, or nil when it does not exist.
    func row(_ table: Int, _ key: ObjectKey) throws -> RowView?
    /// The keys of the objects of class number `origin` whose link `property` points at `target`.
    func origins(_ origin: Int, _ property: PropertySchema, linkingTo target: ObjectKey) throws -> [ObjectKey]
    /// How many objects of class number `origin` link to `target` through `property`.
    func originCount(_ origin: Int, _ property: PropertySchema, linkingTo target: ObjectKey) throws -> Int
    /// The elements of the list `property` of object `key` of class number `owner`, in order
    /// (object keys as `.link` values for a list of objects).
    func listValues(_ owner: Int, _ property: PropertySchema, of key: ObjectKey) throws -> [Value]
    /// How many elements the list `property` of object `key` of class number `owner` has,
    /// without reading them.
    func listCount(_ owner: Int, _ property: PropertySchema, of key: ObjectKey) throws -> Int
    /// How many objects class number `table` has.
    func count(_ table: Int) throws -> Int
    /// The keys of the objects of class number `table` for which `predicate` (reading their
    /// rows alone) holds, in key order: through an index when one answers it.
    func matches(_ predicate: ResolvedPredicate, of table: Int) throws -> [ObjectKey]
}

/// The reader handed to compiled predicates during one execution. A read that fails reads
/// as "no object"; the first error is kept and the caller throws it after the run.
package final class LinkReader {
    let source: LinkSource
    /// The first error a read raised, if any.
    package private(set) var error: Error?
    /// How many objects the query tests with this reader (0: not known).
    let testedCount: Int
    /// What each semi-join of the query decided (`LinkReader.matchingKeys`), by number.
    var semiJoins: [Int: SemiJoin] = [:]

    /// A reader for a query that tests `testedCount` objects (0: not known, so no semi-join).
    package init(_ source: LinkSource, testing testedCount: Int = 0) {
        self.source = source
        self.testedCount = testedCount
    }

    @inline(__always)
    func row(_ table: Int, _ key: ObjectKey) -> RowView? {
        do { return try source.row(table, key) } catch { note(error); return nil }
    }

    func origins(_ origin: Int, _ property: PropertySchema, _ target: ObjectKey) -> [ObjectKey] {
        do { return try source.origins(origin, property, linkingTo: target) } catch { note(error); return [] }
    }

    func originCount(_ origin: Int, _ property: PropertySchema, _ target: ObjectKey) -> Int {
        do { return try source.originCount(origin, property, linkingTo: target) } catch { note(error); return 0 }
    }

    func listValues(_ owner: Int, _ property: PropertySchema, _ key: ObjectKey) -> [Value] {
        do { return try source.listValues(owner, property, of: key) } catch { note(error); return [] }
    }

    func listCount(_ owner: Int, _ property: PropertySchema, _ key: ObjectKey) -> Int {
        do { return try source.listCount(owner, property, of: key) } catch { note(error); return 0 }
    }

    func note(_ e: Error) { if error == nil { error = e } }

    /// Throws the first error a read raised.
    package func check() throws { if let error { throw error } }
}

/// Numbers the classes a compiled predicate reaches, in order of first use, and its
/// semi-joins.
struct ClassNumbers {
    private(set) var names: [String] = []
    private var semiJoins = 0
    mutating func number(_ name: String) -> Int {
        if let i = names.firstIndex(of: name) { return i }
        names.append(name)
        return names.count - 1
    }

    /// A number for one more semi-join (`LinkReader.matchingKeys`).
    mutating func semiJoin() -> Int {
        defer { semiJoins += 1 }
        return semiJoins
    }
}

/// One step, ready to follow.
struct CompiledStep: Sendable {
    enum Kind: Sendable {
        /// The link in `slot` of the current row.
        case link(slot: Int)
        /// The backlinks of `property` of class number `origin` pointing at the current object.
        case backlinks(property: PropertySchema)
        /// The list `property` of the current object, of class number `owner`.
        case list(owner: Int, property: PropertySchema)

        /// Whether the number of objects the step reaches is stored (a list's directory,
        /// the backlinks' duplicate count).
        var isCounted: Bool {
            if case .link = self { return false }
            return true
        }
    }
    let kind: Kind
    /// The class number of the objects reached.
    let target: Int
}

extension Evaluator {
    /// Compiles a predicate that may follow relationships. Parts that read only the row are
    /// compiled by `compile(_:)` and run first.
    static func compileObject(_ predicate: ResolvedPredicate, _ classes: inout ClassNumbers) -> ObjectPredicate {
        if !predicate.followsLinks {
            let f = compile(predicate)
            return { _, row, _ in f(row) }
        }
        switch predicate {
        case .and(let ps):
            let local = ps.filter { !$0.followsLinks }
            let rowTest: RowPredicate? = local.isEmpty ? nil : compile(local.count == 1 ? local[0] : .and(local))
            let linked = ps.filter(\.followsLinks).map { compileObject($0, &classes) }
            if let rowTest {
                return { key, row, reader in rowTest(row) && linked.allSatisfy { $0(key, row, reader) } }
            }
            return { key, row, reader in linked.allSatisfy { $0(key, row, reader) } }
        case .or(let ps):
            let local = ps.filter { !$0.followsLinks }
            let rowTest: RowPredicate? = local.isEmpty ? nil : compile(local.count == 1 ? local[0] : .or(local))
            let linked = ps.filter(\.followsLinks).map { compileObject($0, &classes) }
            if let rowTest {
                return { key, row, reader in rowTest(row) || linked.contains { $0(key, row, reader) } }
            }
            return { key, row, reader in linked.contains { $0(key, row, reader) } }
        case .not(let p):
            let f = compileObject(p, &classes)
            return { !f($0, $1, $2) }
        case .identity(let keys):
            if keys.count == 1 { let k = keys[0]; return { key, _, _ in key == k } }
            let set = Set(keys)
            return { key, _, _ in set.contains(key) }
        case .path(let steps, let quantifier, let inner):
            return compilePath(steps, quantifier, inner, &classes)
        case .aggregate(let a):
            return compileAggregate(a, &classes)
        case .keyPaths(let k):
            return compileKeyPaths(k, &classes)
        case .geoWithin(let g):
            let owner = classes.number(g.owner), type = Slot(g.type), coordinates = g.coordinates, test = g.region.pointTest()
            return { key, row, reader in GeoWithin.matches(reader.listValues(owner, coordinates, key), type: row.value(type), test) }
        case .constant, .comparison:
            let f = compile(predicate)
            return { _, row, _ in f(row) }
        }
    }

    static func compileSteps(_ steps: [LinkStep], _ classes: inout ClassNumbers) -> [CompiledStep] {
        steps.map { step in
            switch step {
            case .link(let p): CompiledStep(kind: .link(slot: p.id), target: classes.number(step.targetClass))
            case .backlinks(_, let p, _): CompiledStep(kind: .backlinks(property: p), target: classes.number(step.targetClass))
            case .list(let owner, let p):
                // A list of values reaches no class: its target number is never used.
                CompiledStep(kind: .list(owner: classes.number(owner), property: p),
                             target: p.type == .link ? classes.number(step.targetClass) : -1)
            }
        }
    }

    /// Follows `steps[i...]` from one object, calling `body` for each object reached (in
    /// order) until it returns false. Returns false when `body` stopped the walk. A nil link
    /// or a missing object on the way reaches nothing.
    static func forEachTarget(_ steps: [CompiledStep], _ i: Int, _ key: ObjectKey, _ row: RowView, _ reader: LinkReader,
                                      _ body: (ObjectKey, RowView) -> Bool) -> Bool {
        if i == steps.count { return body(key, row) }
        let step = steps[i]
        switch step.kind {
        case .link(let slot):
            guard !row.isNull(slot), row.hasSlot(slot) else { return true }
            let target = linkKey(row.slotBytes(slot))
            guard let next = reader.row(step.target, target) else { return true }
            return forEachTarget(steps, i + 1, target, next, reader, body)
        case .backlinks(let property):
            for origin in reader.origins(step.target, property, key) {
                guard let next = reader.row(step.target, origin) else { continue }
                if !forEachTarget(steps, i + 1, origin, next, reader, body) { return false }
            }
            return true
        case .list(let owner, let property):
            // Repeats are visited as often as the list holds them.
            for case .link(let target) in reader.listValues(owner, property, key) {
                guard let next = reader.row(step.target, target) else { continue }
                if !forEachTarget(steps, i + 1, target, next, reader, body) { return false }
            }
            return true
        }
    }

    /// Follows `steps` (to objects), then reads the list of values `list` of each object
    /// reached, calling `body` for each element until it returns false. Returns false when
    /// `body` stopped the walk.
    static func forEachValue(_ steps: [CompiledStep], _ list: CompiledStep, _ key: ObjectKey, _ row: RowView,
                                     _ reader: LinkReader, _ body: (Value) -> Bool) -> Bool {
        guard case .list(let owner, let property) = list.kind else { return true }
        return forEachTarget(steps, 0, key, row, reader) { k, _ in
            for v in reader.listValues(owner, property, k) where !body(v) { return false }
            return true
        }
    }

    /// Compiles a condition on one element of a list of values (its comparisons name the
    /// list): the same null and string rules as on a property (`ValueSemantics`).
    static func compileElement(_ predicate: ResolvedPredicate) -> @Sendable (Value) -> Bool {
        switch predicate {
        case .constant(let b):
            return { _ in b }
        case .and(let ps):
            let fs = ps.map(compileElement)
            return { v in fs.allSatisfy { $0(v) } }
        case .or(let ps):
            let fs = ps.map(compileElement)
            return { v in fs.contains { $0(v) } }
        case .not(let p):
            let f = compileElement(p)
            return { !f($0) }
        case .comparison(let c):
            let (op, options) = (c.op, c.options)
            switch c.operand {
            case .value(let x):
                return { ValueSemantics.compare($0, op, x, options: options) }
            case .values(let vs) where op == .between:
                let (low, high) = (vs[0], vs[1])
                return { ValueSemantics.compare($0, .greaterOrEqual, low, options: []) && ValueSemantics.compare($0, .lessOrEqual, high, options: []) }
            case .values(let vs):
                return { v in vs.contains { ValueSemantics.compare(v, .equal, $0, options: options) } }
            case .property:
                // Inside a SUBQUERY over values, the only property is the element itself.
                return { ValueSemantics.compare($0, op, $0, options: options) }
            }
        case .path, .aggregate, .identity, .keyPaths, .geoWithin:
            preconditionFailure("a list of values holds values, not objects")
        }
    }

    private static func compilePath(_ steps: [LinkStep], _ quantifier: Quantifier, _ inner: ResolvedPredicate,
                                    _ classes: inout ClassNumbers) -> ObjectPredicate {
        let compiled = compileSteps(steps, &classes)
        if steps.last?.isValueList == true {
            let head = Array(compiled.dropLast()), list = compiled[compiled.count - 1]
            let test = compileElement(inner)
            switch quantifier {
            case .any: return { key, row, reader in !forEachValue(head, list, key, row, reader) { !test($0) } }
            case .all: return { key, row, reader in forEachValue(head, list, key, row, reader) { test($0) } }
            case .none: return { key, row, reader in forEachValue(head, list, key, row, reader) { !test($0) } }
            }
        }
        let test = compileObject(inner, &classes)
        guard steps.contains(where: \.isToMany) else {
            // To-one links only: one target, or a null object when a link is nil.
            let whenNull = nullResult(inner)
            if compiled.count == 1, case .link(let slot) = compiled[0].kind {
                let target = compiled[0].target
                return { _, row, reader in
                    guard !row.isNull(slot), row.hasSlot(slot) else { return whenNull }
                    let key = linkKey(row.slotBytes(slot))
                    guard let next = reader.row(target, key) else { return whenNull }
                    return test(key, next, reader)
                }
            }
            return { key, row, reader in
                var result = whenNull
                _ = forEachTarget(compiled, 0, key, row, reader) { k, r in result = test(k, r, reader); return false }
                return result
            }
        }
        switch quantifier {
        case .any:
            if let members = compileMemberTest(compiled, inner, &classes) {
                return { key, _, reader in !members(key, reader) { !$0 } }
            }
            return { key, row, reader in
                !forEachTarget(compiled, 0, key, row, reader) { k, r in !test(k, r, reader) }
            }
        case .all:
            return { key, row, reader in
                forEachTarget(compiled, 0, key, row, reader) { k, r in test(k, r, reader) }
            }
        case .none:
            return { key, row, reader in
                forEachTarget(compiled, 0, key, row, reader) { k, r in !test(k, r, reader) }
            }
        }
    }

    private static func compileAggregate(_ a: ResolvedAggregate, _ classes: inout ClassNumbers) -> ObjectPredicate {
        let value = compileAggregateValue(a.aggregate, &classes)
        let compare = valueTest(a.op, a.operand)
        return { key, row, reader in compare(value(key, row, reader)) }
    }

    /// The value of a collection operator for one object: over the objects reached (`@count`
    /// read from the list's directory or the backlinks when nothing filters them), or over the
    /// elements of the lists of values reached (`SUBQUERY` over them counts the elements its
    /// condition holds for).
    static func compileAggregateValue(_ a: CollectionAggregate, _ classes: inout ClassNumbers) -> ObjectValue {
        let compiled = compileSteps(a.path, &classes)
        if a.path.last?.isValueList == true {
            // `tags.@count`, `scores.@sum`, `SUBQUERY(tags, $t, …)`: over the elements of the lists reached.
            let head = Array(compiled.dropLast()), list = compiled[compiled.count - 1]
            guard case .list(let owner, let property) = list.kind else { return { _, _, _ in .null } }
            if let filter = a.filter {
                let test = compileElement(filter)
                return { key, row, reader in
                    var n: Int64 = 0
                    _ = forEachValue(head, list, key, row, reader) { v in
                        if test(v) { n += 1 }
                        return true
                    }
                    return .int(n)
                }
            }
            if case .count = a.function {
                if head.isEmpty { return { key, _, reader in .int(Int64(reader.listCount(owner, property, key))) } }
                return { key, row, reader in
                    var n: Int64 = 0
                    _ = forEachTarget(head, 0, key, row, reader) { k, _ in n += Int64(reader.listCount(owner, property, k)); return true }
                    return .int(n)
                }
            }
            let function = a.function
            return { key, row, reader in
                var values: [Value] = []
                _ = forEachValue(head, list, key, row, reader) { v in
                    if !v.isNull { values.append(v) }
                    return true
                }
                return aggregate(function, values)
            }
        }
        let filter = a.filter.map { compileObject($0, &classes) }
        switch a.function {
        case .count:
            if filter == nil, let last = compiled.last, last.kind.isCounted {
                // Counted from the list's directory or the backlinks, without reading the
                // objects counted.
                let head = Array(compiled.dropLast())
                let kind = last.kind, origin = last.target
                @Sendable func count(_ key: ObjectKey, _ reader: LinkReader) -> Int64 {
                    switch kind {
                    case .backlinks(let property): Int64(reader.originCount(origin, property, key))
                    case .list(let owner, let property): Int64(reader.listCount(owner, property, key))
                    case .link: 0
                    }
                }
                if head.isEmpty { return { key, _, reader in .int(count(key, reader)) } }
                return { key, row, reader in
                    var n: Int64 = 0
                    _ = forEachTarget(head, 0, key, row, reader) { k, _ in n += count(k, reader); return true }
                    return .int(n)
                }
            }
            if let condition = a.filter, let members = compileMemberTest(compiled, condition, &classes) {
                return { key, _, reader in
                    var n: Int64 = 0
                    _ = members(key, reader) { holds in
                        if holds { n += 1 }
                        return true
                    }
                    return .int(n)
                }
            }
            return { key, row, reader in
                var n: Int64 = 0
                _ = forEachTarget(compiled, 0, key, row, reader) { k, r in
                    if filter?(k, r, reader) ?? true { n += 1 }
                    return true
                }
                return .int(n)
            }
        case .sum(let p), .avg(let p), .min(let p), .max(let p):
            let function = a.function
            return { key, row, reader in
                var values: [Value] = []
                _ = forEachTarget(compiled, 0, key, row, reader) { k, r in
                    if filter?(k, r, reader) ?? true {
                        let v = r.value(p)
                        if !v.isNull { values.append(v) }
                    }
                    return true
                }
                return aggregate(function, values)
            }
        }
    }

    /// The value of a collection operator over non-null values (`@count` is counted apart).
    static func aggregate(_ function: AggregateFunction, _ values: [Value]) -> Value {
        switch function {
        case .count:
            return .int(Int64(values.count))
        case .sum(let p) where p.type == .decimal128:
            return .decimal128(Value.decimalSum(values))
        case .avg(let p) where p.type == .decimal128:
            guard !values.isEmpty else { return .null }
            return .decimal128(Value.decimalSum(values) / BID128(integer: values.count))
        case .sum(let p):
            if p.type == .int { return .int(values.reduce(Int64(0)) { $0 &+ (Int64(exactly: $1.numeric ?? 0) ?? 0) }) }
            let total = values.reduce(0.0) { $0 + ($1.numeric ?? 0) }
            return p.type == .float ? .float(Float(total)) : .double(total)
        case .avg(let p):
            guard !values.isEmpty else { return .null }
            let mean = values.reduce(0.0) { $0 + ($1.numeric ?? 0) } / Double(values.count)
            return p.type == .float ? .float(Float(mean)) : .double(mean)
        case .min:
            return values.min { Value.compare($0, $1) < 0 } ?? .null
        case .max:
            return values.max { Value.compare($0, $1) < 0 } ?? .null
        }
    }

    /// `value op operand` with the null rules of `ValueSemantics`.
    static func valueTest(_ op: ComparisonOperator, _ operand: ResolvedOperand) -> @Sendable (Value) -> Bool {
        switch operand {
        case .value(let v):
            return { ValueSemantics.compare($0, op, v, options: []) }
        case .values(let vs) where op == .between:
            return { ValueSemantics.compare($0, .greaterOrEqual, vs[0], options: []) && ValueSemantics.compare($0, .lessOrEqual, vs[1], options: []) }
        case .values(let vs):
            return { v in vs.contains { ValueSemantics.compare(v, .equal, $0, options: []) } }
        case .property:
            return { _ in false }
        }
    }

    /// What a predicate gives on a null object (the target of a nil link): every property
    /// reads null, every to-many relationship is empty.
    static func nullResult(_ p: ResolvedPredicate) -> Bool {
        switch p {
        case .constant(let b): return b
        case .and(let ps): return ps.allSatisfy(nullResult)
        case .or(let ps): return ps.contains(where: nullResult)
        case .not(let q): return !nullResult(q)
        case .identity, .geoWithin: return false
        case .comparison(let c):
            switch c.operand {
            case .value(let v): return ValueSemantics.compare(.null, c.op, v, options: [])
            case .values(let vs): return c.op == .in && vs.contains(.null)
            case .property: return ValueSemantics.compare(.null, c.op, .null, options: [])
            }
        case .path(let steps, let q, let inner):
            if steps.contains(where: \.isToMany) { return q != .any }
            return nullResult(inner)
        case .aggregate(let a):
            return valueTest(a.op, a.operand)(emptyValue(a.aggregate.function))
        case .keyPaths(let k):
            if k.lhs.isMultiple || k.rhs.isMultiple { return k.quantifier != .any }
            return ValueSemantics.compare(nullValue(k.lhs), k.op, nullValue(k.rhs), options: k.options)
        }
    }

    /// A collection operator's value over nothing: 0 for `@count` and `@sum`, null otherwise.
    static func emptyValue(_ function: AggregateFunction) -> Value {
        switch function {
        case .count: .int(0)
        case .sum: aggregate(function, [])
        default: .null
        }
    }

    /// What one side of a key path comparison reads from a null object.
    private static func nullValue(_ operand: KeyPathOperand) -> Value {
        if case .aggregate(let a) = operand { return emptyValue(a.function) }
        return .null
    }
}

/// Reads linked objects through a storage transaction (what queries use at run time).
package final class TransactionLinkSource: LinkSource {
    private let txn: StorageTransaction
    private let names: [String]
    private var tables: [Table?]
    private var opened: [Bool]

    /// A source for the classes `names` (numbered as the compiled query numbers them).
    package init(_ txn: StorageTransaction, classes names: [String]) {
        self.txn = txn
        self.names = names
        tables = Array(repeating: nil, count: names.count)
        opened = Array(repeating: false, count: names.count)
    }

    @inline(__always)
    private func table(_ i: Int) throws -> Table? {
        if opened[i] { return tables[i] }
        tables[i] = try txn.table(names[i])
        opened[i] = true
        return tables[i]
    }

    package func row(_ table: Int, _ key: ObjectKey) throws -> RowView? {
        guard let t = try self.table(table) else { return nil }
        return try txn.rows.read(t, key)
    }

    package func origins(_ origin: Int, _ property: PropertySchema, linkingTo target: ObjectKey) throws -> [ObjectKey] {
        guard let t = try table(origin) else { return [] }
        return try txn.links.origins(t, property, linkingTo: target)
    }

    package func originCount(_ origin: Int, _ property: PropertySchema, linkingTo target: ObjectKey) throws -> Int {
        guard let t = try table(origin) else { return 0 }
        return try txn.links.originCount(t, property, linkingTo: target)
    }

    package func listValues(_ owner: Int, _ property: PropertySchema, of key: ObjectKey) throws -> [Value] {
        guard let t = try table(owner) else { return [] }
        if property.isMapKeys { return try txn.lists.mapKeys(t, property, owner: key).map(Value.string) }
        if let entry = property.mapEntryKey { return [try txn.lists.mapValue(t, property, owner: key, forKey: entry) ?? .null] }
        return try txn.lists.values(t, property, owner: key)
    }

    package func listCount(_ owner: Int, _ property: PropertySchema, of key: ObjectKey) throws -> Int {
        guard let t = try table(owner) else { return 0 }
        if property.mapEntryKey != nil { return 1 }
        return try txn.lists.count(t, property, owner: key)
    }

    package func count(_ table: Int) throws -> Int {
        guard let t = try self.table(table) else { return 0 }
        return try txn.rows.count(t)
    }

    package func matches(_ predicate: ResolvedPredicate, of table: Int) throws -> [ObjectKey] {
        guard let t = try self.table(table) else { return [] }
        return try QueryExecution.matches(CompiledQuery(ResolvedQuery(predicate: predicate, suffixes: []), schema: t.schema), in: t, txn)
    }
}
