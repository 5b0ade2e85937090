import Foundation

// Sorting a managed list's, set's or map's own values, and their distinct values, as live
// `Results` (RealmSwift's `sorted(ascending:)` and `distinct()`): the results read the
// collection again whenever the Realm's snapshot or write count moves on.

public extension RealmCollection where Element.PersistedType: SortableType {
    /// The values sorted ascending (or descending), nil first ascending. Traps on an
    /// unmanaged collection, as RealmSwift does.
    func sorted(ascending: Bool = true) -> Results<Element> {
        valueResults { $0.ascending = ascending }
    }

    /// The values with repeats left out, each where it first appears. Traps on an unmanaged
    /// collection, as RealmSwift does.
    func distinct() -> Results<Element> {
        valueResults { $0.isDistinct = true }
    }
}

public extension Map where Value.PersistedType: SortableType {
    /// The map's values sorted ascending (or descending), nil first ascending. Traps on an
    /// unmanaged map, as RealmSwift does.
    func sorted(ascending: Bool = true) -> Results<Value> { valueList.sorted(ascending: ascending) }

    /// The map's distinct values, in the order of their first keys. Traps on an unmanaged
    /// map, as RealmSwift does.
    func distinct() -> Results<Value> { valueList.distinct() }
}

extension RealmCollection {
    /// Results of the collection's values in the order `refine` makes of the current one:
    /// from a list or set, or from results of values (`list.distinct().sorted()`), wrapped
    /// in an `AnyRealmCollection` or not.
    func valueResults(_ refine: (inout ValueOrder) -> Void) -> Results<Element> {
        if let wrapper = self as? AnyRealmCollection<Element> { return wrapper.box.valueResults(refine) }
        if let results = self as? Results<Element>, case .values(let index, let owner, let ownerInfo, var order) = results.source {
            refine(&order)
            return Results(core: results.core, info: results.info, source: .values(index: index, owner: owner, ownerInfo: ownerInfo, order: order))
        }
        guard let store = (self as? any ListBackedCollection)?.store, let index = store.index else {
            fatalError("sorted(ascending:) and distinct() need a managed collection: add its object to a Realm first")
        }
        var order = ValueOrder()
        refine(&order)
        let ownerInfo = store.owner.binding!.info
        return Results(core: store.core, info: ownerInfo, source: .values(index: index, owner: store.ownerKey, ownerInfo: ownerInfo, order: order))
    }
}
