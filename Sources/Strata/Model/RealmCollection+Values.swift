import Foundation
import StrataStorage
import StrataValues

// Aggregates over a list's or set's own values (collections of numbers and dates). Nil
// elements are ignored; `min`/`max`/`average` of no values are nil and `sum` is zero, as in
// RealmSwift.

public extension RealmCollection where Element.PersistedType: MinMaxType {
    /// The smallest element, or nil.
    func min() -> Element? { extreme(wantMax: false) }
    /// The largest element, or nil.
    func max() -> Element? { extreme(wantMax: true) }
}

public extension RealmCollection where Element.PersistedType: AddableType {
    /// The sum of the elements. Of mixed values, the sum of the numbers among them: a
    /// decimal128 for a managed list or set (zero as a decimal128 when there are none), a
    /// double for an unmanaged one (zero as an integer), as in RealmSwift.
    func sum() -> Element { sum(emptyMixedAsInteger: (self as? any ListBackedCollection)?.store == nil) }
}

extension RealmCollection where Element.PersistedType: AddableType {
    /// `sum()`, saying how a sum of no mixed numbers is given: zero as an integer (unmanaged
    /// collections, maps) or as a decimal128.
    func sum(emptyMixedAsInteger: Bool) -> Element {
        let type = (Element.self as! any _Persistable.Type)._strataTypeInfo.type
        if type == .decimal128 { return element(.decimal128(decimalSum().total)) }
        if type == .mixed { return element(mixedAggregate(mean: false) ?? (emptyMixedAsInteger ? .int(0) : .decimal128(.zero))) }
        var ints: Int64 = 0, doubles = 0.0
        for v in storedValues() {
            if case .int(let i) = v { ints &+= i } else { doubles += v.numeric ?? 0 }
        }
        let total: StrataStorage.Value = switch type {
        case .int: .int(ints)
        case .float: .float(Float(doubles))
        default: .double(doubles)
        }
        return element(total)
    }

    /// The mean of the elements, or nil when there are none. Of mixed values, the mean of the
    /// numbers among them (a decimal128 for a managed list or set, a double for an unmanaged
    /// one), or nil when there are none.
    public func average<T: _HasPersistedType>() -> T? where T.PersistedType: AddableType {
        guard let type = T.self as? any _Persistable.Type else { return nil }
        if (Element.self as! any _Persistable.Type)._strataTypeInfo.type == .mixed {
            return mixedAggregate(mean: true).flatMap { type._strataFrom(_StrataValue($0)) as? T }
        }
        if (Element.self as! any _Persistable.Type)._strataTypeInfo.type == .decimal128 {
            // The exact decimal mean, as a decimal or as the nearest double.
            let (total, count) = decimalSum()
            guard count > 0 else { return nil }
            let mean = total / BID128(integer: count)
            let value: StrataStorage.Value = type._strataTypeInfo.type == .decimal128 ? .decimal128(mean) : .double(mean.doubleValue)
            return type._strataFrom(_StrataValue(value)) as? T
        }
        let numbers = storedValues().compactMap(\.numeric)
        guard !numbers.isEmpty else { return nil }
        let mean = numbers.reduce(0, +) / Double(numbers.count)
        let value: StrataStorage.Value = switch type._strataTypeInfo.type {
        case .int: .int(Int64(mean))
        case .float: .float(Float(mean))
        default: .double(mean)
        }
        return type._strataFrom(_StrataValue(value)) as? T
    }
}

extension RealmCollection {
    /// The stored values of the elements, nils left out: a managed list's or set's read from
    /// the store at once.
    func storedValues() -> [StrataStorage.Value] {
        let store = (self as? any ListBackedCollection)?.store
        let values = store.map { $0.read { try $0.values() } } ?? map { ($0 as! any _Persistable)._strataValue.value }
        return values.filter { !$0.isNull }
    }

    /// An element from a stored (non-link) value.
    func element(_ value: StrataStorage.Value) -> Element {
        (Element.self as! any _Persistable.Type)._strataFrom(_StrataValue(value)) as! Element
    }

    /// The exact sum of the elements as decimal128s, and how many there are.
    private func decimalSum() -> (total: BID128, count: Int) {
        let values = storedValues()
        return (StrataStorage.Value.decimalSum(values), values.count)
    }

    /// The sum (or with `mean`, the mean) of the numbers among mixed elements, as RealmSwift
    /// gives them: a decimal128 for a managed collection, a double for an unmanaged one; nil
    /// when there are no numbers.
    private func mixedAggregate(mean: Bool) -> StrataStorage.Value? {
        let numbers = storedValues().filter { $0.asDecimal128 != nil }
        guard !numbers.isEmpty else { return nil }
        let isManaged = (self as? any ListBackedCollection)?.store != nil
        if isManaged {
            let total = StrataStorage.Value.decimalSum(numbers)
            return .decimal128(mean ? total / BID128(integer: numbers.count) : total)
        }
        let total = numbers.reduce(0.0) { $0 + ($1.numeric ?? $1.asDecimal128!.doubleValue) }
        return .double(mean ? total / Double(numbers.count) : total)
    }

    private func extreme(wantMax: Bool) -> Element? {
        storedValues().max { a, b in
            let c = StrataStorage.Value.compare(a, b)
            return wantMax ? c < 0 : c > 0
        }.map(element)
    }
}
