import Foundation
import StrataStorage

/// A way to narrow a scan with an index: the objects whose `property` equals one of `values`.
///
/// Found from a top-level conjunct `indexed == constant` or `indexed IN {constants}` (without
/// `[c]`/`[d]`). Candidates fetched this way are a superset of the matches, so the caller must
/// still apply the whole predicate to each. `values` are already of the property's type and
/// never null; an empty list means no object can match.
package struct IndexHint: Equatable, Sendable, CustomStringConvertible {
    /// The primary-key or indexed property to look up.
    package var property: PropertySchema
    /// The keys to look up, without duplicates, in the order written.
    package var values: [Value]

    /// "name IN {'a', 'b'}" style text, for `explain`.
    package var description: String {
        "index on \(property.name)\(property.isPrimaryKey ? " (primary key)" : ""): " + values.map(literalText).joined(separator: ", ")
    }

    /// The best hint in `predicate`: a primary key over a secondary index, then fewer values.
    package static func find(in predicate: ResolvedPredicate) -> IndexHint? {
        let conjuncts: [ResolvedPredicate]
        if case .and(let ps) = predicate { conjuncts = ps } else { conjuncts = [predicate] }
        var best: IndexHint?
        for case .comparison(let c) in conjuncts {
            guard let hint = hint(c) else { continue }
            if let b = best {
                let better = (hint.property.isPrimaryKey && !b.property.isPrimaryKey)
                    || (hint.property.isPrimaryKey == b.property.isPrimaryKey && hint.values.count < b.values.count)
                if !better { continue }
            }
            best = hint
        }
        return best
    }

    /// The hint of one comparison (`indexed == c` or `indexed IN {…}`), or nil.
    package static func hint(_ c: ResolvedComparison) -> IndexHint? {
        guard c.property.hasIndex, c.options.isEmpty else { return nil }
        var raw: [Value]
        switch (c.op, c.operand) {
        case (.equal, .value(let v)):
            if v.isNull { return nil }
            if c.property.type == .mixed { raw = [v]; break }
            return IndexHint(property: c.property, values: fits(v, c.property.type) ? [v] : [])
        case (.in, .values(let vs)): raw = vs
        default: return nil
        }
        if raw.contains(where: \.isNull) { return nil }
        if c.property.type == .mixed { raw = raw.flatMap(mixedForms) }
        if raw.count == 1 { return IndexHint(property: c.property, values: fits(raw[0], c.property.type) ? raw : []) }
        if c.property.type == .int {
            // Ints are stored as themselves: equal ints, equal bytes.
            var seen = Set<Int64>(minimumCapacity: raw.count)
            return IndexHint(property: c.property, values: raw.filter { v in
                if case .int(let i) = v { return seen.insert(i).inserted }
                return false
            })
        }
        // Repeats are dropped by stored bytes: Swift equality of strings is canonical
        // equivalence, which would merge "é" and "e\u{301}", two different values.
        var seen = Set<[UInt8]>()
        let values = raw.filter { v in
            var bytes: [UInt8] = []
            ValueCodec.encode(v, mixed: c.property.type == .mixed, into: &bytes)
            return fits(v, c.property.type) && seen.insert(bytes).inserted
        }
        return IndexHint(property: c.property, values: values)
    }

    /// Whether a resolved constant is stored as `type` (an int property compared with 8.5 is
    /// not: no object can have that value).
    static func fits(_ v: Value, _ type: PropertyType) -> Bool {
        switch (v, type) {
        case (.int, .int), (.float, .float), (.double, .double), (.bool, .bool), (.string, .string),
             (.data, .data), (.date, .date), (.uuid, .uuid), (.objectId, .objectId), (.decimal128, .decimal128): true
        case (.link, .mixed): false
        case (_, .mixed): true
        default: false
        }
    }

    /// The stored values a mixed property equal to `v` may hold, each indexed under a key of
    /// its own: a number as every numeric kind that holds it exactly (an int, a double, which
    /// a float shares its key with, and a decimal), a string also as data and data as a string.
    static func mixedForms(_ v: Value) -> [Value] {
        switch v {
        case .int, .float, .double, .decimal128:
            let d = if case .decimal128(let x) = v { x.doubleValue } else { v.numeric! }
            var forms = [v, .double(d)]
            if d.rounded() == d, d >= -9.2e18, d <= 9.2e18 { forms.append(.int(Int64(d))) }
            if let decimal = v.asDecimal128 { forms.append(.decimal128(decimal)) }
            return forms.filter { Value.compare($0, v) == 0 }
        case .string(let s): return [v, .data(Data(s.utf8))]
        case .data(let d): return [v, .string(String(decoding: d, as: UTF8.self))]
        default: return [v]
        }
    }
}
