import Foundation
import StrataStorage

/// Comparisons of string and data slots as raw bytes, without decoding: `==`, ordering by
/// unsigned bytes (UTF-8 order for strings), and the string operators.
enum BytesTest {
    /// `slot op pattern` on raw bytes. BEGINSWITH, ENDSWITH and CONTAINS with an empty pattern
    /// match nothing (Realm's rule).
    static func compile(_ slot: Int, _ op: ComparisonOperator, _ pattern: [UInt8]) -> RowPredicate {
        let n = pattern.count
        switch op {
        case .equal:
            return { row in
                let b = row.slotBytes(slot)
                return b.count == n && pattern.withUnsafeBytes { compareBytes(b, $0) == 0 }
            }
        case .notEqual:
            return { row in
                let b = row.slotBytes(slot)
                return b.count != n || pattern.withUnsafeBytes { compareBytes(b, $0) != 0 }
            }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return { row in
                let b = row.slotBytes(slot)
                return ValueSemantics.ordered(pattern.withUnsafeBytes { compareBytes(b, $0) }, op)
            }
        case .beginsWith:
            if n == 0 { return { _ in false } }
            return { row in
                let b = row.slotBytes(slot)
                return b.count >= n && pattern.withUnsafeBytes { memcmp(b.baseAddress!, $0.baseAddress!, n) == 0 }
            }
        case .endsWith:
            if n == 0 { return { _ in false } }
            return { row in
                let b = row.slotBytes(slot)
                return b.count >= n && pattern.withUnsafeBytes { memcmp(b.baseAddress! + (b.count - n), $0.baseAddress!, n) == 0 }
            }
        case .contains:
            if n == 0 { return { _ in false } }
            return { row in StringMatching.contains(row.slotBytes(slot), pattern) }
        case .like:
            let like = StringMatching.LikePattern(pattern)
            return { row in
                let b = row.slotBytes(slot)
                if StringMatching.isASCII(b) { return StringMatching.like(pattern: like.elements, scalars: b.map(UInt32.init)) }
                return StringMatching.like(pattern: like, text: b)
            }
        default:
            return { _ in false }
        }
    }
}

/// String comparisons under `[c]`/`[d]`: the constant is folded once; ASCII rows are folded
/// byte by byte on the fly, other rows are decoded and folded.
enum FoldedTest {
    /// `slot op[options] constant` for a string slot; LIKE patterns are built once.
    static func compile(_ slot: Int, _ op: ComparisonOperator, _ options: StringOptions, _ constant: String) -> RowPredicate {
        let folded = Array(StringMatching.fold(constant, options).utf8)
        let foldedIsASCII = folded.allSatisfy { $0 < 0x80 }
        let lower = options.contains(.caseInsensitive)
        if folded.isEmpty, op == .beginsWith || op == .endsWith || op == .contains { return { _ in false } }
        if op == .like {
            let like = StringMatching.LikePattern(folded).elements
            return { row in
                let b = row.slotBytes(slot)
                if StringMatching.isASCII(b) {
                    return StringMatching.like(pattern: like, scalars: b.map { UInt32(lower ? StringMatching.lowerASCII($0) : $0) })
                }
                let text = StringMatching.fold(String(decoding: b, as: UTF8.self), options)
                return StringMatching.like(pattern: like, scalars: text.unicodeScalars.map(\.value))
            }
        }
        return { row in
            let b = row.slotBytes(slot)
            if StringMatching.isASCII(b) {
                if !foldedIsASCII { return op == .notEqual }
                if lower { return StringMatching.matches(op, text: b.lazy.map(StringMatching.lowerASCII), pattern: folded) }
                return StringMatching.matches(op, text: b, pattern: folded)
            }
            let text = Array(StringMatching.fold(String(decoding: b, as: UTF8.self), options).utf8)
            return StringMatching.matches(op, text: text, pattern: folded)
        }
    }
}
