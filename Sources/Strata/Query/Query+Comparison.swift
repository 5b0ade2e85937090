import Foundation
import StrataQuery
import StrataStorage
import StrataValues

/// Marks the types that `<`, `<=`, `>`, `>=` apply to in type-safe queries: numbers and
/// dates (`_QueryNumeric`), strings and data (`_QueryBinary`), and their optionals.
public protocol _QueryOrdered {}
/// Marks the numeric types of type-safe queries: every integer width, `Float`, `Double`,
/// `Date`, `Decimal128` and their optionals.
public protocol _QueryNumeric: _QueryOrdered {}
extension Int: _QueryNumeric {}
extension Int8: _QueryNumeric {}
extension Int16: _QueryNumeric {}
extension Int32: _QueryNumeric {}
extension Int64: _QueryNumeric {}
extension Float: _QueryNumeric {}
extension Double: _QueryNumeric {}
extension Date: _QueryNumeric {}
extension Decimal128: _QueryNumeric {}
extension Optional: _QueryOrdered where Wrapped: _Persistable, Wrapped.PersistedType: _QueryOrdered {}
extension Optional: _QueryNumeric where Wrapped: _Persistable, Wrapped.PersistedType: _QueryNumeric {}

/// The order comparisons: numbers and dates by value (false on nil and NaN), strings and data
/// by their bytes (nil before any value).
extension Query where T: _HasPersistedType, T.PersistedType: _QueryOrdered {
    /// `property > value`.
    public static func > (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.greater, rhs) }
    /// `property > otherProperty`.
    public static func > (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.greater, to: rhs) }
    /// `property >= value`.
    public static func >= (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.greaterOrEqual, rhs) }
    /// `property >= otherProperty`.
    public static func >= (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.greaterOrEqual, to: rhs) }
    /// `property < value`.
    public static func < (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.less, rhs) }
    /// `property < otherProperty`.
    public static func < (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.less, to: rhs) }
    /// `property <= value`.
    public static func <= (_ lhs: Query, _ rhs: T) -> Query<Bool> { lhs.compare(.lessOrEqual, rhs) }
    /// `property <= otherProperty`.
    public static func <= (_ lhs: Query, _ rhs: Query) -> Query<Bool> { lhs.compare(.lessOrEqual, to: rhs) }
}

// MARK: Ranges

extension Query where T: Comparable {
    /// `low <= property < high`.
    public func contains(_ range: Range<T>) -> Query<Bool> {
        halfOpen(range.lowerBound, range.upperBound)
    }

    /// `property BETWEEN {low, high}`, both ends included.
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> {
        between(range.lowerBound, range.upperBound)
    }
}

extension Query where T: OptionalProtocol, T.Wrapped: Comparable {
    /// `low <= property < high` for an optional property (nil never matches).
    public func contains(_ range: Range<T.Wrapped>) -> Query<Bool> {
        halfOpen(range.lowerBound, range.upperBound)
    }

    /// `property BETWEEN {low, high}` for an optional property (nil never matches).
    public func contains(_ range: ClosedRange<T.Wrapped>) -> Query<Bool> {
        between(range.lowerBound, range.upperBound)
    }
}

extension Query {
    /// `self >= low AND self < high`.
    func halfOpen(_ low: Any, _ high: Any) -> Query<Bool> {
        let format = QueryFormat.comparison("&&", .comparison(">=", self.format, .constant(low), options: []),
                                            .comparison("<", self.format, .constant(high), options: []), options: [])
        let resolved = ResolvedPredicate.and([condition(.greaterOrEqual, .value(QueryValue.of(low))), condition(.less, .value(QueryValue.of(high)))])
        return Query<Bool>(.predicate(resolved), context, format: format)
    }

    /// `self BETWEEN {low, high}`.
    func between(_ low: Any, _ high: Any) -> Query<Bool> {
        compare(.between, values: [QueryValue.of(low), QueryValue.of(high)]).formatted(.between(format, .constant(low), .constant(high)))
    }
}
