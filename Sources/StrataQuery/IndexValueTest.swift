import StrataStorage

/// A comparison of a string property with string constants, as a test of one stored value
/// (its UTF-8 bytes, or nil for null): what a scan of the property's index asks of each
/// distinct key (`IndexAccess.test`), with the same rules as the compiled row predicates.
package enum IndexValueTest {
    /// The test of `c`: `==`, a string operator or `IN`, with or without `[c]`/`[d]`, against
    /// non-null string constants (null never passes).
    package static func compile(_ c: ResolvedComparison) -> @Sendable (UnsafeRawBufferPointer?) -> Bool {
        let constants: [String]
        switch c.operand {
        case .value(.string(let s)): constants = [s]
        case .values(let vs): constants = vs.compactMap { if case .string(let s) = $0 { s } else { nil } }
        default: constants = []
        }
        let op: ComparisonOperator = c.op == .in ? .equal : c.op
        if c.options.isEmpty {
            let tests = constants.map { exact(op, Array($0.utf8)) }
            return { value in value.map { b in tests.contains { $0(b) } } ?? false }
        }
        let tests = constants.map { FoldedTest(op, c.options, $0) }.filter { !$0.matchesNothing }
        return { value in value.map { b in tests.contains { $0.matches(b) } } ?? false }
    }

    /// `value op pattern` on raw bytes, without options.
    private static func exact(_ op: ComparisonOperator, _ pattern: [UInt8]) -> @Sendable (UnsafeRawBufferPointer) -> Bool {
        if op == .like {
            let like = StringMatching.LikePattern(pattern)
            return { StringMatching.like(pattern: like, text: $0) }
        }
        return { StringMatching.matches(op, text: $0, pattern: pattern) }
    }
}
