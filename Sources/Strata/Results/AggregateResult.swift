import StrataStorage

/// Aggregates (`min`, `max`, `sum`, `average`) of values, and their results in the Swift type
/// the caller asks for.
enum AggregateResult {
    /// `value`, an aggregate, as `T` (numbers converted to the requested numeric type; nil
    /// when `T` cannot hold it).
    static func convert<T>(_ value: StrataStorage.Value) -> T? {
        guard let type = T.self as? any _Persistable.Type else { return ObjectiveCBridging.aggregate(value, as: T.self) }
        let info = type._strataTypeInfo
        let adapted: StrataStorage.Value
        switch (info.type, value) {
        case (.int, .double(let d)): adapted = .int(Int64(d))
        case (.int, .float(let f)): adapted = .int(Int64(f))
        case (.double, .int(let i)): adapted = .double(Double(i))
        case (.double, .float(let f)): adapted = .double(Double(f))
        case (.float, .int(let i)): adapted = .float(Float(i))
        case (.float, .double(let d)): adapted = .float(Float(d))
        case (.int, .int), (.double, .double), (.float, .float), (.date, .date), (.decimal128, .decimal128): adapted = value
        case (.double, .decimal128(let d)): adapted = .double(d.doubleValue)
        default: return nil
        }
        return type._strataFrom(_StrataValue(adapted)) as? T
    }

    /// The least (or, `greatest`, the greatest) of `values`, or nil when there are none.
    static func extreme(_ values: [StrataStorage.Value], greatest: Bool) -> StrataStorage.Value? {
        values.max { a, b in greatest ? StrataStorage.Value.compare(a, b) < 0 : StrataStorage.Value.compare(a, b) > 0 }
    }

    /// The sum of `values`, of a property of `type`: integers exactly, decimals exactly, the
    /// rest as doubles.
    static func sum(_ values: [StrataStorage.Value], of type: StrataStorage.PropertyType) -> StrataStorage.Value {
        switch type {
        case .int: .int(values.reduce(0) { total, v in if case .int(let i) = v { total &+ i } else { total } })
        case .decimal128: .decimal128(values.reduce(BID128.zero) { $0 + ($1.asDecimal128 ?? .zero) })
        default: .double(values.reduce(0) { $0 + ($1.numeric ?? 0) })
        }
    }

    /// The mean of `values`, of a property of `type`, or nil when there are none.
    static func average(_ values: [StrataStorage.Value], of type: StrataStorage.PropertyType) -> StrataStorage.Value? {
        guard !values.isEmpty else { return nil }
        if type == .decimal128, case .decimal128(let total) = sum(values, of: type) { return .decimal128(total / BID128(integer: values.count)) }
        return .double((sum(values, of: type).numeric ?? 0) / Double(values.count))
    }
}

extension AggregateResult {
    /// The non-null values of property `property` of `objects` (an unmanaged collection's,
    /// whose aggregates RealmSwift computes from its objects too), and the property's type.
    /// Traps on a property the class does not have, or a collection that holds no objects.
    static func values<S: Sequence>(of property: String, in objects: S) -> (values: [StrataStorage.Value], type: StrataStorage.PropertyType) {
        guard let type = S.Element.self as? ObjectBase.Type else {
            fatalError("Aggregates of a property need a collection of objects, not of \(S.Element.self)")
        }
        let info = ModelClass.forType(type)
        guard let index = info.index(of: property), !info.properties[index].schema.isList else {
            fatalError("Invalid property name '\(property)' for class '\(info.name)'")
        }
        let schema = info.properties[index].schema
        let values = objects.compactMap { element -> StrataStorage.Value? in
            guard let object = element as? Object,
                  let value = try? ValueConversion.value(object.value(forKey: property), for: schema, className: info.name) else { return nil }
            return value.isNull ? nil : value
        }
        return (values, schema.type)
    }

    /// The least (or greatest) value of property `property` of `objects`, as `T`.
    static func extreme<T, S: Sequence>(of property: String, in objects: S, greatest: Bool) -> T? {
        extreme(values(of: property, in: objects).values, greatest: greatest).flatMap(convert)
    }

    /// The sum of property `property` of `objects`, as `T`.
    static func sum<T, S: Sequence>(of property: String, in objects: S) -> T {
        let (values, type) = values(of: property, in: objects)
        return convert(sum(values, of: type))!
    }

    /// The mean of property `property` of `objects`, as `T`, or nil when none has a value.
    static func average<T, S: Sequence>(of property: String, in objects: S) -> T? {
        let (values, type) = values(of: property, in: objects)
        return average(values, of: type).flatMap(convert)
    }
}
