import StrataStorage

/// A Swift type stored as another `@Persisted` type: a `PersistableEnum` as its raw value, a
/// `CustomPersistable` or `FailableCustomPersistable` as its `persistableValue`. Queries,
/// `create` and `setValue(_:forKey:)` take such a value as that stored form.
public protocol _MappedPersistable: _PersistableInsideOptional, _RealmCollectionValueInsideOptional {
    /// The value as the type it is stored as (the raw value, the `persistableValue`).
    var _strataStoredForm: Any { get }
}

/// Lists of mapped values given as one argument (`kind IN %@` with `[Kind]`).
protocol MappedValues {
    /// Each element as the type it is stored as.
    var storedForms: [Any] { get }
}

extension Array: MappedValues where Element: _MappedPersistable {
    var storedForms: [Any] { map(\._strataStoredForm) }
}

extension Set: MappedValues where Element: _MappedPersistable {
    var storedForms: [Any] { map(\._strataStoredForm) }
}

enum MappedArguments {
    /// `argument` with a mapped value, or a list of them, replaced by its stored form (an
    /// optional one unwrapped first); any other argument as it is.
    static func storedForm(_ argument: Any) -> Any {
        let given = ValueConversion.flatten(argument) ?? argument
        if let mapped = given as? any _MappedPersistable { return mapped._strataStoredForm }
        if let list = given as? any MappedValues { return list.storedForms }
        return argument
    }
}
