/// A type stored as a supported type (`PersistedType`) it converts to and from without fail:
///
/// ```swift
/// struct Celsius: CustomPersistable {
///     typealias PersistedType = Double
///     var degrees: Double
///     init(persistedValue: Double) { degrees = persistedValue }
///     var persistableValue: Double { degrees }
/// }
/// ```
///
/// Queries compare the persisted values and take either type as a value.
public protocol CustomPersistable: _CustomPersistable {
    /// The value a stored `PersistedType` value stands for.
    init(persistedValue: PersistedType)
    /// The value to store.
    var persistableValue: PersistedType { get }
}

/// A type stored as a supported type (`PersistedType`) that not every stored value converts
/// back to (`URL` stored as a `String`). A stored value that does not convert reads as nil
/// through an optional property and traps with a message through a non-optional one, as in
/// RealmSwift. The conversion must succeed for the default `PersistedType` value when a
/// non-optional property is declared without a value.
public protocol FailableCustomPersistable: _CustomPersistable {
    /// The value a stored `PersistedType` value stands for, or nil when there is none.
    init?(persistedValue: PersistedType)
    /// The value to store.
    var persistableValue: PersistedType { get }
}

/// What `CustomPersistable` and `FailableCustomPersistable` share (opaque to users).
public protocol _CustomPersistable: _MappedPersistable where PersistedType: _PersistableInsideOptional {
    /// The value to store.
    var persistableValue: PersistedType { get }
}

extension _CustomPersistable {
    public static var _strataTypeInfo: _StrataTypeInfo {
        var info = PersistedType._strataTypeInfo
        info.isCustomMapping = true
        return info
    }
    public var _strataValue: _StrataValue { persistableValue._strataValue }
    public var _strataStoredForm: Any { persistableValue }
}

extension _CustomPersistable where PersistedType: Hashable {
    /// Hashes the persisted value (equal values must have equal persisted values).
    public func hash(into hasher: inout Hasher) { persistableValue.hash(into: &hasher) }
}

extension CustomPersistable {
    public static func _strataFrom(_ value: _StrataValue) -> Self { Self(persistedValue: PersistedType._strataFrom(value)) }
    public static func _strataRead(_ object: ObjectBase, _ index: Int) -> Self {
        Self(persistedValue: PersistedType._strataRead(object, index))
    }
    public static var _strataDefault: Self { Self(persistedValue: PersistedType._strataDefault) }
}

extension FailableCustomPersistable {
    /// The value of a stored one. Null, which no non-optional property stores (a key path
    /// being recorded for a query reads it), is the default value.
    public static func _strataFrom(_ value: _StrataValue) -> Self {
        value.value.isNull ? _strataDefault : converted(PersistedType._strataFrom(value))
    }
    public static func _strataFromStored(_ value: _StrataValue) -> Self? { Self(persistedValue: PersistedType._strataFrom(value)) }
    public static var _strataDefaultIfAny: Self? { Self(persistedValue: PersistedType._strataDefault) }
    public static var _strataDefault: Self {
        guard let value = _strataDefaultIfAny else {
            fatalError("Failed to make a default \(Self.self) from the default \(PersistedType.self) value: the conversion must succeed, or the property must be optional or declared with a value")
        }
        return value
    }

    /// The value of a stored one; traps with a message when it does not convert.
    private static func converted(_ persisted: PersistedType) -> Self {
        guard let value = Self(persistedValue: persisted) else {
            fatalError("Failed to convert persisted value '\(persisted)' to type '\(Self.self)' in a non-optional context")
        }
        return value
    }
}
