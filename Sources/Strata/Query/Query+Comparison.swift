import Foundation
import StrataQuery
import StrataStorage
import StrataValues

/// Marks the types that `<`, `<=`, `>`, `>=` apply to in type-safe queries: every integer
/// width, `Float`, `Double`, `Date` and their optionals.
public protocol _QueryNumeric {}
extension Int: _QueryNumeric {}
extension Int8: _QueryNumeric {}
extension Int16: _QueryNumeric {}
extension Int32: _QueryNumeric {}
extension Int64: _QueryNumeric {}
extension Float: _QueryNumeric {}
extension Double: _QueryNumeric {}
extension Date: _QueryNumeric {}
extension Decimal128: _QueryNumeric {}
extension Optional: _QueryNumeric where Wrapped: _Persistable, Wrapped.PersistedType: _QueryNumeric {}

extension Query where T: _HasPersistedType, T.PersistedType: _QueryNumeric {
    /// `property > value` (false on nil and NaN).
    public static func > (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.greater, rhs) }
    /// `property > otherProperty`.
    public static func > (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.greater, to: rhs) }
    /// `property >= value` (false on nil and NaN).
    public static func >= (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.greaterOrEqual, rhs) }
    /// `property >= otherProperty`.
    public static func >= (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.greaterOrEqual, to: rhs) }
    /// `property < value` (false on nil and NaN).
    public static func < (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.less, rhs) }
    /// `property < otherProperty`.
    public static func < (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.less, to: rhs) }
    /// `property <= value` (false on nil and NaN).
    public static func <= (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.lessOrEqual, rhs) }
    /// `property <= otherProperty`.
    public static func <= (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.lessOrEqual, to: rhs) }
}

// MARK: Ranges

extension Query where T: Comparable {
    /// `property >= range.lowerBound AND property < range.upperBound`.
    public func contains(_ range: Range<T>) -> Query<Bool> {
        halfOpen(QueryValue.of(range.lowerBound), QueryValue.of(range.upperBound))
    }

    /// `property BETWEEN {range.lowerBound, range.upperBound}` (inclusive).
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> {
        compare(.between, values: [QueryValue.of(range.lowerBound), QueryValue.of(range.upperBound)])
    }
}

extension Query where T: OptionalProtocol, T.Wrapped: Comparable {
    /// `property >= range.lowerBound AND property < range.upperBound` (false on nil).
    public func contains(_ range: Range<T.Wrapped>) -> Query<Bool> {
        halfOpen(QueryValue.of(range.lowerBound), QueryValue.of(range.upperBound))
    }

    /// `property BETWEEN {range.lowerBound, range.upperBound}` (inclusive; false on nil).
    public func contains(_ range: ClosedRange<T.Wrapped>) -> Query<Bool> {
        compare(.between, values: [QueryValue.of(range.lowerBound), QueryValue.of(range.upperBound)])
    }
}

extension Query {
    /// `property >= low AND property < high`, as RealmSwift builds a `Range`.
    func halfOpen(_ low: Value, _ high: Value) -> Query<Bool> {
        Query<Bool>(.predicate(.and([condition(.greaterOrEqual, .value(low)), condition(.less, .value(high))])), context)
    }
}
