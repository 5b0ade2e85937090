import Foundation

/// A range of values of one property for an index scan: each bound optional (unbounded) and
/// inclusive or exclusive. Bounds are of the property's stored type and never null or NaN.
package struct IndexRange: Equatable, Sendable, CustomStringConvertible {
    /// The smallest value, or nil for no lower bound.
    package var lower: Value?
    /// Whether a value equal to `lower` is inside.
    package var lowerInclusive: Bool
    /// The largest value, or nil for no upper bound.
    package var upper: Value?
    /// Whether a value equal to `upper` is inside.
    package var upperInclusive: Bool

    /// A range from its bounds.
    package init(lower: Value?, lowerInclusive: Bool = true, upper: Value?, upperInclusive: Bool = true) {
        self.lower = lower
        self.lowerInclusive = lowerInclusive
        self.upper = upper
        self.upperInclusive = upperInclusive
    }

    /// How many integers the range holds, when both bounds are integers (nil otherwise, or
    /// when there are more than `Int.max`).
    package var integerCount: Int? {
        guard case .int(var first)? = lower, case .int(var last)? = upper else { return nil }
        if !lowerInclusive {
            guard first < .max else { return 0 }
            first += 1
        }
        if !upperInclusive {
            guard last > .min else { return 0 }
            last -= 1
        }
        guard first <= last else { return 0 }
        let (span, overflow) = last.subtractingReportingOverflow(first)
        return overflow || span == .max ? nil : Int(span) + 1
    }

    /// Interval notation: `[3, 10)`, `(-inf, 'm']`; dates as ISO 8601.
    package var description: String {
        (lower.map { (lowerInclusive ? "[" : "(") + rangeText($0) } ?? "(-inf") + ", "
            + (upper.map { rangeText($0) + (upperInclusive ? "]" : ")") } ?? "+inf)")
    }
}

/// A bound as text: dates in ISO 8601 (UTC), strings quoted, numbers as written.
private func rangeText(_ v: Value) -> String {
    switch v {
    case .date(let d):
        let f = ISO8601DateFormatter()
        if d.timeIntervalSinceReferenceDate.rounded(.down) != d.timeIntervalSinceReferenceDate {
            f.formatOptions.insert(.withFractionalSeconds)
        }
        return f.string(from: d)
    case .string(let s): return "'\(s)'"
    default: return describe(v)
    }
}
