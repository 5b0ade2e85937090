import Foundation

// Aggregates and sorting by Swift key paths (`\.age`, `\.owner?.age`): the string-named
// forms with the name of the persisted property the key path reads.

public extension RealmCollection where Element: ObjectBase {
    /// The least value of the property `keyPath` reads, or nil when there are no objects.
    func min<T: _HasPersistedType>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: MinMaxType {
        min(ofProperty: _name(for: keyPath))
    }

    /// The greatest value of the property `keyPath` reads, or nil when there are no objects.
    func max<T: _HasPersistedType>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: MinMaxType {
        max(ofProperty: _name(for: keyPath))
    }

    /// The sum of the property `keyPath` reads (zero when there are no objects).
    func sum<T: _HasPersistedType>(of keyPath: KeyPath<Element, T>) -> T where T.PersistedType: AddableType {
        sum(ofProperty: _name(for: keyPath))
    }

    /// The average of the property `keyPath` reads, or nil when there are no objects.
    func average<T: _HasPersistedType>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: AddableType {
        average(ofProperty: _name(for: keyPath))
    }

    /// The objects with repeats of the properties the key paths read left out, as
    /// `distinct(by:)` with their names.
    func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Iterator.Element == PartialKeyPath<Element> {
        distinct(by: keyPaths.map { _name(for: $0) })
    }
}

public extension RealmCollection where Element: KeypathSortable, Element: ObjectBase {
    /// Sorted by the property `keyPath` reads (ascending by default).
    func sorted<T: _HasPersistedType>(by keyPath: KeyPath<Element, T>, ascending: Bool = true) -> Results<Element>
    where T.PersistedType: SortableType {
        sorted(byKeyPath: _name(for: keyPath), ascending: ascending)
    }
}

public extension RealmCollection where Element: ObjectBase {
    /// The objects `predicate` accepts, as results (RealmSwift's `NSPredicate` form). On Linux
    /// an `NSPredicate` is a constant or a block, not a query: a constant is the query
    /// `TRUEPREDICATE` or `FALSEPREDICATE` (live results); a block is evaluated object by object
    /// now, and the results are those objects, in this collection's order, while they exist.
    /// Traps on an unmanaged collection, as RealmSwift does.
    func filter(_ predicate: NSPredicate) -> Results<Element> {
        for constant in [true, false] where predicate.isEqual(NSPredicate(value: constant)) {
            return filter(constant ? "TRUEPREDICATE" : "FALSEPREDICATE")
        }
        guard let realm else { fatalError("filter(_:) with an NSPredicate needs a managed collection: add its object to a Realm first") }
        let keys = filter { predicate.evaluate(with: $0) }.map(\.objectKey)
        return Results(core: realm.core, info: ModelClass.forType(Element.self), source: .objects(keys))
    }
}

public extension RealmCollection {
    /// The index of the first element `predicate` accepts, or nil.
    func index(matching predicate: NSPredicate) -> Int? {
        firstIndex { predicate.evaluate(with: $0) }.map { distance(from: startIndex, to: $0) }
    }
}
