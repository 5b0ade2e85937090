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

/// A string comparison under `[c]`/`[d]` with one constant: the constant is folded once;
/// ASCII values are folded byte by byte on the fly, other values are decoded and folded.
struct FoldedTest: Sendable {
    private let op: ComparisonOperator
    private let options: StringOptions
    /// The folded constant's UTF-8 bytes.
    private let folded: [UInt8]
    private let foldedIsASCII: Bool
    /// Whether `[c]` applies (ASCII folding is then lower-casing).
    private let lower: Bool
    /// For LIKE, the folded pattern, built once.
    private let like: [StringMatching.LikePattern.Element]?

    /// The test of `op[options] constant`.
    init(_ op: ComparisonOperator, _ options: StringOptions, _ constant: String) {
        (self.op, self.options) = (op, options)
        folded = Array(StringMatching.fold(constant, options).utf8)
        foldedIsASCII = folded.allSatisfy { $0 < 0x80 }
        lower = options.contains(.caseInsensitive)
        like = op == .like ? StringMatching.LikePattern(folded).elements : nil
    }

    /// Whether no value can pass (BEGINSWITH, ENDSWITH and CONTAINS with an empty pattern).
    var matchesNothing: Bool { folded.isEmpty && (op == .beginsWith || op == .endsWith || op == .contains) }

    /// Whether the string with UTF-8 bytes `b` passes.
    @inline(__always)
    func matches(_ b: UnsafeRawBufferPointer) -> Bool {
        if let like {
            if StringMatching.isASCII(b) {
                return StringMatching.like(pattern: like, scalars: b.map { UInt32(lower ? StringMatching.lowerASCII($0) : $0) })
            }
            let text = StringMatching.fold(String(decoding: b, as: UTF8.self), options)
            return StringMatching.like(pattern: like, scalars: text.unicodeScalars.map(\.value))
        }
        if StringMatching.isASCII(b) {
            if !foldedIsASCII { return op == .notEqual }
            if lower { return StringMatching.matches(op, text: b.lazy.map(StringMatching.lowerASCII), pattern: folded) }
            return StringMatching.matches(op, text: b, pattern: folded)
        }
        let text = Array(StringMatching.fold(String(decoding: b, as: UTF8.self), options).utf8)
        return StringMatching.matches(op, text: text, pattern: folded)
    }

    /// `slot op[options] constant` for a string slot.
    static func compile(_ slot: Int, _ op: ComparisonOperator, _ options: StringOptions, _ constant: String) -> RowPredicate {
        let test = FoldedTest(op, options, constant)
        if test.matchesNothing { return { _ in false } }
        return { row in test.matches(row.slotBytes(slot)) }
    }
}
