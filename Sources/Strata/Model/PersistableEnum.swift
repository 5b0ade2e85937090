/// An enum stored as its raw value, which must itself be a stored type:
///
/// ```swift
/// enum Kind: Int, PersistableEnum { case small = 1, large = 2 }
/// final class Box: Object { @Persisted var kind: Kind }
/// ```
///
/// A property declared without a value starts as the first case. Queries compare the raw
/// values (`where { $0.kind == .small }`, `"kind == %@"` with `Kind.small`). A stored raw
/// value that names no case (written by other code) reads as nil through an optional
/// property and traps with a message through a non-optional one, as in RealmSwift.
public protocol PersistableEnum: _MappedPersistable, RealmOptionalType, RawRepresentable, CaseIterable, Comparable, MinMaxType
    where RawValue: _PersistableInsideOptional & Comparable, PersistedType == RawValue {}

/// RealmSwift's older name for an enum stored as its raw value (declared
/// `@objc enum Kind: Int, RealmEnum` there): a `PersistableEnum`, for `RealmProperty<Kind?>`,
/// `RealmOptional<Kind>` and `@Persisted` alike.
public protocol RealmEnum: PersistableEnum {}

extension PersistableEnum {
    /// Cases order by their raw values.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public static var _strataTypeInfo: _StrataTypeInfo { RawValue._strataTypeInfo }
    /// The case of a stored raw value. Null, which no non-optional property stores (a key
    /// path being recorded for a query reads it), is the default case.
    public static func _strataFrom(_ value: _StrataValue) -> Self {
        value.value.isNull ? _strataDefault : withCase(RawValue._strataFrom(value))
    }
    public static func _strataFromStored(_ value: _StrataValue) -> Self? { Self(rawValue: RawValue._strataFrom(value)) }
    public var _strataValue: _StrataValue { rawValue._strataValue }
    public static var _strataDefault: Self { allCases.first! }
    public var _strataStoredForm: Any { rawValue }

    /// The case of a stored raw value; traps with a message when there is none.
    private static func withCase(_ raw: RawValue) -> Self {
        guard let value = Self(rawValue: raw) else {
            fatalError("The stored value '\(raw)' is not a raw value of any case of \(Self.self)")
        }
        return value
    }
}
