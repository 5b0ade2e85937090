import Foundation
import Synchronization

/// A change of sectioned results or of one of their sections, as their observers receive it.
@frozen public enum RealmSectionedResultsChange<Collection> {
    /// The first delivery: the collection as it is now.
    case initial(Collection)
    /// The collection changed. `deletions` are index paths in the previous version and
    /// `insertions` and `modifications` in the new one; `sectionsToDelete` are sections of the
    /// previous version (their rows are not listed in `deletions`), `sectionsToInsert`
    /// sections of the new one.
    case update(Collection, deletions: [IndexPath], insertions: [IndexPath], modifications: [IndexPath],
                sectionsToInsert: IndexSet, sectionsToDelete: IndexSet)
    /// Delivery failed.
    case error(Error)
}

/// Results grouped into sections by a key (RealmSwift's `SectionedResults`): made by
/// `sectioned(by:ascending:)` or `sectioned(by:sortDescriptors:)` on a collection, whose
/// elements are sorted and then grouped, each section holding the elements of one key in
/// sorted order, the sections in the order their first elements come. Live as the collection
/// is: the sections are worked out again once the Realm's snapshot moves on.
public struct SectionedResults<Key: _Persistable & Hashable, SectionElement: RealmCollectionValue>: RandomAccessCollection, Equatable {
    public typealias Element = ResultsSection<Key, SectionElement>

    /// The sorted elements the sections group.
    let results: Results<SectionElement>
    /// The section key of an element.
    let sectionKey: (SectionElement) -> Key
    /// The sections of the results' last evaluation.
    private let cache: SectionLayoutCache<Key>

    init(results: Results<SectionElement>, sectionKey: @escaping (SectionElement) -> Key) {
        self.results = results
        self.sectionKey = sectionKey
        cache = SectionLayoutCache()
    }

    /// The sections as the results are now.
    var layout: SectionLayout<Key> {
        results.core.confinement.check()
        return cache.layout(at: results.core.snapshot.stamp) { SectionLayout(keys: results.lazy.map(sectionKey)) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The number of sections.
    public var count: Int { layout.keys.count }

    /// The section at `position`.
    public subscript(position: Int) -> ResultsSection<Key, SectionElement> {
        let keys = layout.keys
        precondition(position >= 0 && position < keys.count, "Index \(position) is out of bounds (must be less than \(keys.count))")
        return ResultsSection(parent: self, key: keys[position])
    }

    /// The element at `indexPath` (`[section, item]`).
    public subscript(indexPath: IndexPath) -> SectionElement { self[indexPath.section][indexPath.item] }

    /// The keys of the sections, in section order.
    public var allKeys: [Key] { layout.keys }

    /// The Realm of the collection.
    public var realm: Realm? { results.realm }
    /// Whether the Realm was invalidated.
    public var isInvalidated: Bool { results.isInvalidated }
    /// Whether the sections are of a frozen collection.
    public var isFrozen: Bool { results.isFrozen }

    /// The sections of the collection frozen at its current version.
    public func freeze() -> SectionedResults {
        isFrozen ? self : SectionedResults(results: results.freeze(), sectionKey: sectionKey)
    }

    /// The sections of the live collection in the current thread's Realm.
    public func thaw() -> SectionedResults? {
        results.thaw().map { SectionedResults(results: $0, sectionKey: sectionKey) }
    }

    /// The same sectioned results (not two made alike).
    public static func == (lhs: SectionedResults, rhs: SectionedResults) -> Bool { lhs.cache === rhs.cache }

    /// Notifications of the sections' changes (of the properties `keyPaths` name, when given):
    /// `.initial`, then `.update` after each commit that changed them.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmSectionedResultsChange<SectionedResults>) -> Void) -> NotificationToken {
        observeSections(keyPaths: keyPaths, on: queue, onlyKey: nil) { change in
            block(change.map { $0 })
        }
    }

    /// `observe(keyPaths:on:_:)` with Swift key paths.
    public func observe(keyPaths: [PartialKeyPath<SectionElement>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmSectionedResultsChange<SectionedResults>) -> Void) -> NotificationToken
    where SectionElement: ObjectBase {
        observe(keyPaths: KeyPathRecorder.observedPaths(keyPaths), on: queue, block)
    }

    /// Observes the results under the sections and reports the changes of the sections (of
    /// the section of `key` only, when given, and then only when it changed), each with the
    /// sections as the observer's collection sees them.
    func observeSections(keyPaths: [String]?, on queue: DispatchQueue?, onlyKey key: Key?,
                         _ block: @escaping (RealmSectionedResultsChange<SectionedResults>) -> Void) -> NotificationToken {
        let sectionKey = self.sectionKey
        let last = SectionLayoutCache<Key>()
        return results.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let results):
                let sections = SectionedResults(results: results, sectionKey: sectionKey)
                last.keep(sections.layout)
                block(.initial(sections))
            case let .update(results, deletions, insertions, modifications):
                let sections = SectionedResults(results: results, sectionKey: sectionKey)
                let new = sections.layout
                guard let old = last.kept else { return }
                last.keep(new)
                let changes = SectionChanges(from: old, to: new, deletions: deletions, insertions: insertions,
                                             modifications: modifications, onlyKey: key)
                if key != nil && changes.isEmpty { return }
                block(.update(sections, deletions: changes.deletions, insertions: changes.insertions,
                              modifications: changes.modifications, sectionsToInsert: changes.sectionsToInsert,
                              sectionsToDelete: changes.sectionsToDelete))
            case .error(let error):
                block(.error(error))
            }
        }
    }
}

extension RealmSectionedResultsChange {
    /// The same change about the collection `transform` makes of this one's.
    func map<Other>(_ transform: (Collection) -> Other) -> RealmSectionedResultsChange<Other> {
        switch self {
        case .initial(let c): .initial(transform(c))
        case let .update(c, d, i, m, si, sd): .update(transform(c), deletions: d, insertions: i, modifications: m, sectionsToInsert: si, sectionsToDelete: sd)
        case .error(let e): .error(e)
        }
    }
}

/// The section layout last worked out, and the snapshot stamp it is of (a frozen Realm's
/// sections may be read from any thread, so it is kept under a lock).
final class SectionLayoutCache<Key: Hashable>: @unchecked Sendable {
    // Sendable invariant: `state` is read and written only under its lock.
    private let state = Mutex<(stamp: UInt64, layout: SectionLayout<Key>?)>((.max, nil))

    /// The layout at `stamp`: the kept one when it is of that stamp, else `make()`'s.
    func layout(at stamp: UInt64, _ make: () -> SectionLayout<Key>) -> SectionLayout<Key> {
        if let layout = state.withLock({ $0.stamp == stamp ? $0.layout : nil }) { return layout }
        let layout = make()
        state.withLock { $0 = (stamp, layout) }
        return layout
    }

    /// Keeps `layout`, whatever its stamp (an observer's last delivered layout).
    func keep(_ layout: SectionLayout<Key>) { state.withLock { $0 = (.max, layout) } }

    /// The layout `keep` kept.
    var kept: SectionLayout<Key>? { state.withLock { $0.layout } }
}
