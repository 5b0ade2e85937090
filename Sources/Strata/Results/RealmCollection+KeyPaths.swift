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
