import Foundation
import StrataQuery
import StrataStorage

/// The `[c]` and `[d]` modifiers of a type-safe string comparison.
public struct StringOptions: OptionSet, Sendable {
    /// Bit 0: case-insensitive; bit 1: diacritic-insensitive.
    public let rawValue: Int8
    /// Options from their bits.
    public init(rawValue: Int8) { self.rawValue = rawValue }
    /// `[c]`: compare after Unicode case folding.
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// `[d]`: compare with diacritics removed.
    public static let diacriticInsensitive = StringOptions(rawValue: 2)

    /// The same options as the query engine spells them.
    var engineOptions: StrataQuery.StringOptions { StrataQuery.StringOptions(rawValue: UInt8(rawValue & 3)) }
}

/// Marks the types the string operators apply to on raw bytes: `String`, `Data` and their
/// optionals (which order by their bytes).
public protocol _QueryBinary: _QueryOrdered {}
/// Marks the types `like` applies to: `String` and `String?`.
public protocol _QueryString: _QueryBinary {}
extension String: _QueryString {}
extension Data: _QueryBinary {}
extension Optional: _QueryBinary where Wrapped: _Persistable, Wrapped.PersistedType: _QueryBinary {}
extension Optional: _QueryString where Wrapped: _Persistable, Wrapped.PersistedType: _QueryString {}

extension Query where T: _HasPersistedType, T.PersistedType: _QueryString {
    /// `property LIKE pattern`: `*` matches any run of characters, `?` exactly one; the
    /// pattern must match the whole value. `caseInsensitive` is `LIKE[c]`.
    public func like(_ value: T, caseInsensitive: Bool = false) -> Query<Bool> {
        compare(.like, value, options: caseInsensitive ? .caseInsensitive : [])
    }

    /// `property LIKE otherKeyPath`: the other string is the pattern.
    public func like<U>(_ column: Query<U>, caseInsensitive: Bool = false) -> Query<Bool> {
        compare(.like, options: caseInsensitive ? .caseInsensitive : [], to: column)
    }
}

extension Query where T: _HasPersistedType, T.PersistedType: _QueryBinary {
    /// `property CONTAINS value` (an empty value matches nothing).
    public func contains(_ value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.contains, value, options: options.engineOptions)
    }

    /// `property BEGINSWITH value` (an empty value matches nothing). Without options, on an
    /// indexed string, this is a prefix scan of the index.
    public func starts(with value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.beginsWith, value, options: options.engineOptions)
    }

    /// `property ENDSWITH value` (an empty value matches nothing).
    public func ends(with value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.endsWith, value, options: options.engineOptions)
    }

    /// `property ==[options] value`.
    public func equals(_ value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.equal, value, options: options.engineOptions)
    }

    /// `property !=[options] value` (matches nil unless `value` is nil).
    public func notEquals(_ value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.notEqual, value, options: options.engineOptions)
    }

    // Against another key path (`$0.name.starts(with: $0.owner.name)`): the same operators
    // with the other side's value, which may be reached through relationships.

    /// `property CONTAINS[options] otherKeyPath`.
    public func contains<U>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool>
    where U: _HasPersistedType, U.PersistedType: _QueryBinary {
        compare(.contains, options: options.engineOptions, to: column)
    }

    /// `property BEGINSWITH[options] otherKeyPath`.
    public func starts<U>(with column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.beginsWith, options: options.engineOptions, to: column)
    }

    /// `property ENDSWITH[options] otherKeyPath`.
    public func ends<U>(with column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.endsWith, options: options.engineOptions, to: column)
    }

    /// `property ==[options] otherKeyPath`.
    public func equals<U>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.equal, options: options.engineOptions, to: column)
    }

    /// `property !=[options] otherKeyPath`.
    public func notEquals<U>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.notEqual, options: options.engineOptions, to: column)
    }
}
