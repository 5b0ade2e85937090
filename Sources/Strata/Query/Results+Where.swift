import Foundation
import StrataQuery
import StrataStorage

extension RealmCollection {
    /// The objects matching a type-safe condition:
    /// `people.where { $0.age > 8 && $0.name.starts(with: "A") }`.
    ///
    /// The condition becomes the same resolved predicate as the equivalent string query, so
    /// it uses the same plan (see `Results.explain()`). Traps on a condition the string form
    /// would reject (such as `>` with nil), as RealmSwift does.
    public func `where`(_ isIncluded: ((Query<Element>) -> Query<Bool>)) -> Results<Element> {
        guard let results = queryResults else {
            fatalError("where(_:) needs Results, or a managed List, MutableSet or LinkingObjects")
        }
        return results.filtered(isIncluded)
    }

    /// The collection as `Results` to query: itself, or the objects of a managed `List`,
    /// `MutableSet` or `LinkingObjects` (whose queries keep their order and repeats).
    var queryResults: Results<Element>? {
        if let results = self as? Results<Element> { return results }
        return (self as? any QueryableCollection)?.anyQueryResults as? Results<Element>
    }

    /// The index of the first object matching a type-safe condition, or nil.
    public func index(matching isIncluded: ((Query<Element>) -> Query<Bool>)) -> Int? {
        guard let results = queryResults else {
            fatalError("index(matching:) with a type-safe condition needs Results, or a managed List, MutableSet or LinkingObjects")
        }
        let matching = Set(results.filtered(isIncluded).keys)
        return results.keys.firstIndex { matching.contains($0) }
    }
}

extension Results {
    /// These results narrowed by a type-safe condition (ANDed with the current predicate).
    func filtered(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        core.confinement.check()
        let schema = querySchema
        let condition = isIncluded(Query<Element>(.object, QueryContext(schema: schema, lookup: core.schemaLookup(), core: core), format: .root))
        let compiled = CompiledQuery(ResolvedQuery(predicate: condition.predicate, suffixes: []), schema: schema)
        return refined(by: query.map { $0.and(compiled) } ?? compiled)
    }
}

/// A collection whose queries run on `Results` of its objects.
protocol QueryableCollection {
    /// Those results (a `Results<Element>`), or nil when the collection is not managed.
    var anyQueryResults: Any? { get }
}

extension List: QueryableCollection {
    var anyQueryResults: Any? { realm == nil ? nil : results }
}

extension MutableSet: QueryableCollection {
    var anyQueryResults: Any? { realm == nil ? nil : results }
}

extension LinkingObjects: QueryableCollection {
    var anyQueryResults: Any? { results }
}
