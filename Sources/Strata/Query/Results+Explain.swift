import Foundation
import StrataQuery

extension Results {
    /// Strata: how these results are computed, as one line of text. For example:
    ///
    /// - `scan Dog` (every object);
    /// - `scan Dog reading age, name then filter (age > 3 AND name CONTAINS 'x')`;
    /// - `primary key lookup on Dog.id for 1 value {7} then filter id == 7`;
    /// - `index prefix on Dog.name 'B' then filter name BEGINSWITH 'B'`;
    /// - `index range on Dog.born [2020-01-01T00:00:00Z, +inf) then filter born >= … then SORT(name ASC)`.
    /// - `list Person.dogs then filter age > 2` (results of a `List` or `LinkingObjects`
    ///   filter its objects, with no index).
    ///
    /// The first part is the plan step: the index (or primary key) it reads and how, or a
    /// scan with the properties the predicate decodes. When several indexes are usable, it is
    /// the one the query reads now, the one with the fewest entries for it, with their count.
    /// "then filter" shows the predicate re-checked on every candidate; then come the SORT,
    /// DISTINCT and LIMIT steps in order.
    public func explain() -> String {
        core.confinement.check()
        let drawnFrom: String?
        switch source {
        case .table: drawnFrom = nil
        case .list(let property, _, let ownerInfo): drawnFrom = "list \(ownerInfo.name).\(property)"
        case .backlinks(let property, _): drawnFrom = "linking objects \(info.name).\(property)"
        case .objects(let keys): drawnFrom = "\(keys.count) \(info.name) objects an NSPredicate chose"
        case .values: fatalError("Results of values (sorted(ascending:), distinct()) are read from their collection, with no query plan to explain")
        }
        do {
            return try translatingErrors(path: core.path) {
                try QueryExecution.explain(query, in: binding?.table, core.transaction(), className: info.name, source: drawnFrom)
            }
        } catch { trap(error) }
    }
}
