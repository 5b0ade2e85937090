import Foundation

/// One section of `SectionedResults`: the elements with one key, in sorted order (RealmSwift's
/// `ResultsSection`). Live as its sectioned results are; a section whose key no longer
/// occurs is empty.
public struct ResultsSection<Key: _Persistable & Hashable, T: RealmCollectionValue>: RandomAccessCollection, Identifiable, Equatable {
    /// The sectioned results the section is part of.
    let parent: SectionedResults<Key, T>
    /// The section's key.
    public let key: Key
    /// The section's key, as its identity.
    public var id: Key { key }

    /// The positions of the section's elements in the sorted results.
    private var rows: [Int] {
        let layout = parent.layout
        return layout.sectionOfKey[key].map { layout.rows[$0] } ?? []
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The number of elements in the section.
    public var count: Int { rows.count }

    /// The element at `position` in the section.
    public subscript(position: Int) -> T {
        let rows = rows
        precondition(position >= 0 && position < rows.count, "Index \(position) is out of bounds (must be less than \(rows.count))")
        return parent.results[rows[position]]
    }

    /// The Realm of the collection.
    public var realm: Realm? { parent.realm }
    /// Whether the Realm was invalidated.
    public var isInvalidated: Bool { parent.isInvalidated }
    /// Whether the section is of a frozen collection.
    public var isFrozen: Bool { parent.isFrozen }

    /// The section frozen at the collection's current version.
    public func freeze() -> ResultsSection { ResultsSection(parent: parent.freeze(), key: key) }

    /// The section of the live collection in the current thread's Realm.
    public func thaw() -> ResultsSection? { parent.thaw().map { ResultsSection(parent: $0, key: key) } }

    /// The same section of the same sectioned results.
    public static func == (lhs: ResultsSection, rhs: ResultsSection) -> Bool { lhs.parent == rhs.parent && lhs.key == rhs.key }

    /// Notifications of this section's changes (of the properties `keyPaths` name, when
    /// given): `.initial`, then `.update` after each commit that changed this section, with
    /// index paths in the sectioned results (the section's own index then and now).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmSectionedResultsChange<ResultsSection>) -> Void) -> NotificationToken {
        let key = key
        return parent.observeSections(keyPaths: keyPaths, on: queue, onlyKey: key) { change in
            block(change.map { ResultsSection(parent: $0, key: key) })
        }
    }

    /// `observe(keyPaths:on:_:)` with Swift key paths.
    public func observe(keyPaths: [PartialKeyPath<T>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmSectionedResultsChange<ResultsSection>) -> Void) -> NotificationToken
    where T: ObjectBase {
        observe(keyPaths: KeyPathRecorder.observedPaths(keyPaths), on: queue, block)
    }
}
