import Foundation
import StrataStorage

/// A compiled condition on one encoded row.
///
/// The row is the object whose property is tested. Key paths through relationships are
/// compiled into an `ObjectPredicate` (Relationships+Evaluation.swift) that follows the links
/// to the targets' rows and applies these same leaf predicates there.
package typealias RowPredicate = @Sendable (RowView) -> Bool

/// Compiles a resolved predicate into closures that read only the slots they need.
///
/// Each comparison gets a closure specialised for the property's type and the operator, chosen
/// once at compile time: integers compare straight from `row.int(slot)`, doubles and dates from
/// `row.double(slot)`, strings and data as raw bytes from `slotBytes` (no `String` is made
/// unless `[c]`/`[d]` meet non-ASCII text). Anything without a fast path decodes the slot into
/// a `Value` and uses `ValueSemantics`, the reference the fast paths agree with.
package enum Evaluator {
    /// Compiles `predicate`; recursion depth is bounded by the parser's nesting cap.
    package static func compile(_ predicate: ResolvedPredicate) -> RowPredicate {
        switch predicate {
        case .constant(let b):
            return { _ in b }
        case .and(let ps):
            if ps.contains(.constant(false)) { return { _ in false } }
            let fs = ps.filter { $0 != .constant(true) }.map(compile)
            switch fs.count {
            case 0: return { _ in true }
            case 1: return fs[0]
            case 2: let (a, b) = (fs[0], fs[1]); return { a($0) && b($0) }
            default: return { row in fs.allSatisfy { $0(row) } }
            }
        case .or(let ps):
            if ps.contains(.constant(true)) { return { _ in true } }
            let fs = ps.filter { $0 != .constant(false) }.map(compile)
            switch fs.count {
            case 0: return { _ in false }
            case 1: return fs[0]
            case 2: let (a, b) = (fs[0], fs[1]); return { a($0) || b($0) }
            default: return { row in fs.contains { $0(row) } }
            }
        case .not(let p):
            let f = compile(p)
            return { !f($0) }
        case .comparison(let c):
            return compile(c)
        case .path, .aggregate, .identity, .keyPaths, .geoWithin:
            preconditionFailure("a predicate through relationships is compiled with compileObject")
        }
    }

    /// Whether the property's slot reads as null in `row` (absent slots of optionals do).
    @inline(__always)
    static func isNull(_ row: RowView, _ slot: Int, optional: Bool) -> Bool {
        row.isNull(slot) || (optional && !row.hasSlot(slot))
    }

    /// One comparison, with the null rule applied around the type-specific test.
    private static func compile(_ c: ResolvedComparison) -> RowPredicate {
        let p = c.property
        let slot = p.id
        let optional = p.isOptional || p.type == .link
        switch c.operand {
        case .property(let q):
            let (op, options) = (c.op, c.options)
            return { row in ValueSemantics.compare(row.value(p), op, row.value(q), options: options) }
        case .value(.null):
            let wantNull = c.op == .equal
            return { row in isNull(row, slot, optional: optional) == wantNull }
        case .value(let v):
            let test = compileValueTest(p, c.op, c.options, v)
            guard optional else { return test }
            let whenNull = ValueSemantics.compare(.null, c.op, v, options: c.options)
            return { row in isNull(row, slot, optional: true) ? whenNull : test(row) }
        case .values(let vs) where c.op == .between:
            let low = compileValueTest(p, .greaterOrEqual, [], vs[0])
            let high = compileValueTest(p, .lessOrEqual, [], vs[1])
            guard optional else { return { low($0) && high($0) } }
            return { row in !isNull(row, slot, optional: true) && low(row) && high(row) }
        case .values(let vs):
            let matchesNull = vs.contains(.null)
            let test = compileMembership(p, c.options, vs.filter { !$0.isNull })
            guard optional else { return test }
            return { row in isNull(row, slot, optional: true) ? matchesNull : test(row) }
        }
    }

    /// `property op v` for a row where the property is not null.
    private static func compileValueTest(_ p: PropertySchema, _ op: ComparisonOperator, _ options: StringOptions,
                                         _ v: Value) -> RowPredicate {
        let slot = p.id
        switch (p.type, v) {
        case (.int, .int(let k)):
            return integerTest(slot, op, k)
        case (.int, .double(let d)):
            return numericTest(op, d) { Double($0.int(slot)) }
        case (.double, .double(let d)):
            return numericTest(op, d) { $0.double(slot) }
        case (.date, .date(let date)):
            return numericTest(op, date.timeIntervalSinceReferenceDate) { $0.double(slot) }
        case (.float, .float(let f)):
            return numericTest(op, f) { row in
                let b = row.slotBytes(slot)
                return b.count == 4 ? Float(bitPattern: b.loadUnaligned(as: UInt32.self).littleEndian) : 0
            }
        case (.bool, .bool(let b)) where op == .equal || op == .notEqual:
            let want = (op == .equal) == b
            return { row in (row.slotBytes(slot).first == 1) == want }
        case (.string, .string(let s)) where options.isEmpty:
            return BytesTest.compile(slot, op, Array(s.utf8))
        case (.data, .data(let d)):
            return BytesTest.compile(slot, op, Array(d))
        case (.decimal128, .decimal128(let d)):
            return DecimalTest.compile(slot, op, d)
        case (.link, .link(let k)) where op == .equal || op == .notEqual:
            let want = op == .equal
            return { row in (linkKey(row.slotBytes(slot)) == k) == want }
        case (.string, .string(let s)):
            return FoldedTest.compile(slot, op, options, s)
        default:
            return { row in ValueSemantics.compare(row.value(p), op, v, options: options) }
        }
    }

    /// Integer comparisons straight from the slot, one closure per operator.
    private static func integerTest(_ slot: Int, _ op: ComparisonOperator, _ k: Int64) -> RowPredicate {
        switch op {
        case .equal: return { $0.int(slot) == k }
        case .notEqual: return { $0.int(slot) != k }
        case .less: return { $0.int(slot) < k }
        case .lessOrEqual: return { $0.int(slot) <= k }
        case .greater: return { $0.int(slot) > k }
        case .greaterOrEqual: return { $0.int(slot) >= k }
        default: return { _ in false }
        }
    }

    /// Floating-point comparisons (IEEE: NaN is unequal to everything, unordered).
    private static func numericTest<T: BinaryFloatingPoint & Sendable>(
        _ op: ComparisonOperator, _ k: T, _ read: @escaping @Sendable (RowView) -> T
    ) -> RowPredicate {
        switch op {
        case .equal: return { read($0) == k }
        case .notEqual: return { read($0) != k }
        case .less: return { read($0) < k }
        case .lessOrEqual: return { read($0) <= k }
        case .greater: return { read($0) > k }
        case .greaterOrEqual: return { read($0) >= k }
        default: return { _ in false }
        }
    }

    /// IN over non-null constants: a hash set for integers and raw strings, a scan otherwise.
    private static func compileMembership(_ p: PropertySchema, _ options: StringOptions, _ vs: [Value]) -> RowPredicate {
        let slot = p.id
        if vs.isEmpty { return { _ in false } }
        switch p.type {
        case .int:
            let set = Set(vs.compactMap { v -> Int64? in if case .int(let i) = v { return i } else { return nil } })
            return { set.contains($0.int(slot)) }
        case .string where options.isEmpty:
            let set = BytesSet(vs.compactMap { v -> [UInt8]? in if case .string(let s) = v { return Array(s.utf8) } else { return nil } })
            return { set.contains($0.slotBytes(slot)) }
        case .string:
            // Folded, then byte equality, as `==[c]`: Swift string equality would also equate
            // canonically equivalent strings.
            let set = BytesSet(vs.compactMap { v -> [UInt8]? in
                if case .string(let s) = v { return Array(StringMatching.fold(s, options).utf8) } else { return nil }
            })
            return { row in
                var folded = StringMatching.fold(String(decoding: row.slotBytes(slot), as: UTF8.self), options)
                return folded.withUTF8 { set.contains(UnsafeRawBufferPointer($0)) }
            }
        default:
            let tests = vs.map { compileValueTest(p, .equal, options, $0) }
            return { row in tests.contains { $0(row) } }
        }
    }
}

/// The object key in a (non-null) link slot: a minimal little-endian unsigned integer.
@inline(__always)
func linkKey(_ b: UnsafeRawBufferPointer) -> ObjectKey {
    var x: UInt64 = 0
    for i in 0..<b.count { x |= UInt64(b[i]) << (8 * UInt64(i)) }
    return x
}

/// A set of byte strings that answers `contains` for a borrowed buffer without allocating.
struct BytesSet: Sendable {
    /// Byte strings grouped by the hash of their bytes.
    private var buckets: [Int: [[UInt8]]] = [:]

    /// A set holding `items`.
    init(_ items: [[UInt8]]) {
        for item in items { item.withUnsafeBytes { buckets[Self.hash($0), default: []].append(item) } }
    }

    /// The hash of raw bytes, the same for an array and a borrowed buffer with equal bytes.
    private static func hash(_ b: UnsafeRawBufferPointer) -> Int {
        var h = Hasher()
        h.combine(bytes: b)
        return h.finalize()
    }

    /// Whether the set holds exactly these bytes.
    func contains(_ b: UnsafeRawBufferPointer) -> Bool {
        guard let bucket = buckets[Self.hash(b)] else { return false }
        return bucket.contains { $0.withUnsafeBytes { compareBytes($0, b) == 0 } }
    }
}
