import Foundation

/// Key-value coding's collection operators over the values of one property of a collection's
/// objects (`value(forKeyPath: "@sum.age")`), as Foundation computes them: numbers as
/// `NSNumber`, nil values left out.
enum CollectionOperator {
    /// `value(forKeyPath:)` of a collection of `count` objects whose property values
    /// `values(name)` gives: a property's values, `@count`, or an operator over a property.
    static func value(forKeyPath keyPath: String, count: Int, _ values: (String) -> Any?) -> Any? {
        guard keyPath.hasPrefix("@") else { return values(keyPath) }
        let parts = keyPath.dropFirst().split(separator: ".", maxSplits: 1).map(String.init)
        if parts == ["count"] { return NSNumber(value: count) }
        guard parts.count == 2 else { fatalError("Unsupported collection operator in key path '\(keyPath)'") }
        return apply(parts[0], to: values(parts[1]) as? [Any?] ?? [], keyPath: keyPath)
    }

    /// `@name` applied to `values` (those of the property `keyPath` names); traps for an
    /// operator Foundation does not have.
    static func apply(_ name: String, to values: [Any?], keyPath: String) -> Any? {
        let present = values.compactMap { ValueConversion.flatten($0) }
        switch name {
        case "unionOfObjects":
            return NSArray(array: present)
        case "distinctUnionOfObjects":
            var seen = Set<AnyHashable>()
            return NSArray(array: present.filter { ($0 as? AnyHashable).map { seen.insert($0).inserted } ?? true })
        case "sum":
            // An integer while every value is one; a double otherwise.
            let integers = present.compactMap { ValueConversion.integer($0, width: 64) }
            if integers.count == present.count { return NSNumber(value: integers.reduce(0, &+)) }
            return NSNumber(value: numbers(present).reduce(0) { $0 + $1.doubleValue })
        case "avg":
            let ns = numbers(present)
            return ns.isEmpty ? nil : NSNumber(value: ns.reduce(0) { $0 + $1.doubleValue } / Double(ns.count))
        case "min":
            return numbers(present).min { $0.compare($1) == .orderedAscending }
        case "max":
            return numbers(present).max { $0.compare($1) == .orderedAscending }
        default:
            fatalError("Unsupported collection operator '@\(name)' in key path '\(keyPath)': use @count, @sum, @avg, @min, @max, @unionOfObjects or @distinctUnionOfObjects")
        }
    }

    /// The values as numbers (integers and floating point alike).
    private static func numbers(_ values: [Any]) -> [NSNumber] {
        values.compactMap { KeyValueCoding.bridged($0) as? NSNumber }
    }
}
