import Foundation
import StrataQuery
import StrataStorage

// Type-safe queries on maps (RealmSwift's `Query` over a `RealmKeyedCollection`):
// `$0.stock["tea"] > 2`, `$0.stock.keys.contains("tea")`, `$0.stock.values > 2` (ANY),
// `$0.stock.count > 1`, `$0.stock.contains(3)`, `$0.pets["rex"].age > 2`. Each builds the
// predicate the string form builds (`stock['tea'] > 2`, `ANY stock.@keys CONTAINS 'tea'`, …).

extension Query where T: RealmKeyedCollection {
    /// The value under `key` (nil when the map has no such key): `$0.stock["tea"] > 2`.
    public subscript(member: T.Key) -> Query<T.Value> {
        Query<T.Value>(.collection(mapSteps { $0.mapEntry(member._strataMapKey) }), context,
                       format: .mapSubscript(format.wholeCollection(), key: member))
    }

    /// The map's keys: `$0.stock.keys == "tea"` holds when ANY key is "tea".
    public var keys: Query<String> { Query<String>(.collection(mapSteps(\.mapKeys)), context, format: format.appending("@allKeys")) }

    /// The map's values: `$0.stock.values > 2` holds when ANY value is greater than 2.
    public var values: Query<T.Value> { Query<T.Value>(.collection(mapSteps { $0 }), context, format: format.appending("@allValues")) }

    /// The number of entries (`@count`).
    public var count: Query<Int> {
        Query<Int>(.aggregate(mapSteps { $0 }, .count, filter: nil), context, format: format.wholeCollection(appending: "@count"))
    }

    /// Whether `value` is one of the values.
    public func contains(_ value: T.Value) -> Query<Bool> {
        let format = QueryFormat.comparison("IN", .constant(value), self.format.wholeCollection(), options: [])
        if let object = QueryValue.object(value) {
            return compare(.equal, objects: [object], memberwise: QueryValue.isMapped(value)).formatted(format)
        }
        return elements(.equal, .value(QueryValue.of(value))).formatted(format)
    }

    /// Whether any of `collection` is one of the values.
    public func containsAny<U: Sequence>(in collection: U) -> Query<Bool> where U.Element == T.Value {
        let items = Array(collection)
        let format = QueryFormat.comparison("IN", self.format, .constant(items), options: [])
        if isValueList { return elements(.in, .values(items.map { QueryValue.of($0) })).formatted(format) }
        return compare(.in, objects: items.compactMap { QueryValue.object($0) }).formatted(format)
    }

    /// The steps to the map, its last one's property made what `property` makes of it.
    private func mapSteps(_ property: (PropertySchema) -> PropertySchema) -> [LinkStep] {
        guard case .collection(var steps) = node, case .list(let owner, let map)? = steps.last, map.isMap else {
            fatalError("Invalid query: keys, values and subscripts need a map property, such as $0.stock")
        }
        steps[steps.count - 1] = .list(owner: owner, property: property(map))
        return steps
    }
}

extension Query where T: RealmKeyedCollection, T.Value: Comparable {
    /// Every value in the range: `values.@min >= low AND values.@max < high`.
    public func contains(_ range: Range<T.Value>) -> Query<Bool> { bounded(range) }

    /// Every value in the range: `values.@min >= low AND values.@max <= high`.
    public func contains(_ range: ClosedRange<T.Value>) -> Query<Bool> { bounded(range) }
}

extension Query where T: RealmKeyedCollection, T.Value: OptionalProtocol, T.Value.Wrapped: Comparable {
    /// Every (non-nil) value in the range: `values.@min >= low AND values.@max < high`.
    public func contains(_ range: Range<T.Value.Wrapped>) -> Query<Bool> { bounded(range) }

    /// Every (non-nil) value in the range: `values.@min >= low AND values.@max <= high`.
    public func contains(_ range: ClosedRange<T.Value.Wrapped>) -> Query<Bool> { bounded(range) }
}

extension Query where T: RealmKeyedCollection, T.Value: _HasPersistedType, T.Value.PersistedType: _QueryNumeric {
    /// `values.@min` (null for an empty map).
    public var min: Query<T.Value> { valueAggregate("@min") { .min($0) } }
    /// `values.@max` (null for an empty map).
    public var max: Query<T.Value> { valueAggregate("@max") { .max($0) } }
    /// `values.@avg` (null for an empty map).
    public var avg: Query<T.Value> { valueAggregate("@avg") { .avg($0) } }
    /// `values.@sum` (0 for an empty map).
    public var sum: Query<T.Value> { valueAggregate("@sum") { .sum($0) } }
}
