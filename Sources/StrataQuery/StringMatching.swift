import Foundation

/// String comparison rules of the query language: `[c]` and `[d]` folding, the four string
/// operators, and LIKE wildcards. Shared by the fast byte-level paths and the general path so
/// both agree.
package enum StringMatching {
    /// Applies `[c]` (Unicode case folding) and `[d]` (diacritics removed) to `s`.
    package static func fold(_ s: String, _ options: StringOptions) -> String {
        if options.isEmpty { return s }
        var foundation: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foundation.insert(.diacriticInsensitive) }
        return s.folding(options: foundation, locale: nil)
    }

    /// Whether every byte is ASCII, in which case folding is ASCII lower-casing (for `[c]`)
    /// or nothing (for `[d]`), with no allocation.
    @inline(__always)
    package static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for b in bytes where b >= 0x80 { return false }
        return true
    }

    /// ASCII lower-casing of one byte.
    @inline(__always)
    package static func lowerASCII(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// Whether `text` satisfies `op` against `pattern` (both already folded, as UTF-8 bytes).
    /// An empty pattern matches nothing for BEGINSWITH, ENDSWITH and CONTAINS (as in Realm);
    /// `==` is byte equality; LIKE uses `like`.
    package static func matches<T: RandomAccessCollection<UInt8>, P: RandomAccessCollection<UInt8>>(
        _ op: ComparisonOperator, text: T, pattern: P
    ) -> Bool where T.Index == Int, P.Index == Int {
        switch op {
        case .equal: return text.elementsEqual(pattern)
        case .notEqual: return !text.elementsEqual(pattern)
        case .beginsWith:
            return !pattern.isEmpty && text.count >= pattern.count && text.prefix(pattern.count).elementsEqual(pattern)
        case .endsWith:
            return !pattern.isEmpty && text.count >= pattern.count && text.suffix(pattern.count).elementsEqual(pattern)
        case .contains:
            return !pattern.isEmpty && contains(text, pattern)
        case .like:
            return like(pattern: LikePattern(pattern), text: text)
        default:
            return false
        }
    }

    /// Naive substring search (patterns are short; the first-byte scan keeps it fast).
    package static func contains<T: RandomAccessCollection<UInt8>, P: RandomAccessCollection<UInt8>>(
        _ text: T, _ pattern: P
    ) -> Bool where T.Index == Int, P.Index == Int {
        let n = text.count, m = pattern.count
        if m == 0 { return true }
        if m > n { return false }
        let first = pattern[pattern.startIndex]
        let t0 = text.startIndex, p0 = pattern.startIndex
        var i = 0
        while i <= n - m {
            if text[t0 + i] == first {
                var k = 1
                while k < m && text[t0 + i + k] == pattern[p0 + k] { k += 1 }
                if k == m { return true }
            }
            i += 1
        }
        return false
    }

    /// A LIKE pattern: `*` matches any run of characters, `?` exactly one, everything else
    /// itself. Characters are Unicode scalars, so `?` matches one scalar of a non-ASCII text.
    package struct LikePattern: Sendable {
        /// One pattern element.
        package enum Element: Equatable, Sendable { case star, one, scalar(UInt32) }
        /// The elements in order.
        package let elements: [Element]

        /// Builds the pattern from UTF-8 bytes.
        package init<P: Collection<UInt8>>(_ utf8: P) {
            elements = String(decoding: utf8, as: UTF8.self).unicodeScalars.map {
                $0 == "*" ? .star : ($0 == "?" ? .one : .scalar($0.value))
            }
        }
    }

    /// Whether `text` (UTF-8) matches `pattern`; iterative, O(text × pattern) at worst.
    package static func like<T: Collection<UInt8>>(pattern: LikePattern, text: T) -> Bool {
        let scalars = Array(String(decoding: text, as: UTF8.self).unicodeScalars.map(\.value))
        return like(pattern: pattern.elements, scalars: scalars)
    }

    /// Wildcard matching with a single backtrack point (the last `*`).
    package static func like(pattern: [LikePattern.Element], scalars: [UInt32]) -> Bool {
        var p = 0, t = 0, starP = -1, starT = 0
        let m = pattern.count, n = scalars.count
        while t < n {
            if p < m, pattern[p] == .one || pattern[p] == .scalar(scalars[t]) {
                p += 1
                t += 1
            } else if p < m, pattern[p] == .star {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < m, pattern[p] == .star { p += 1 }
        return p == m
    }
}
