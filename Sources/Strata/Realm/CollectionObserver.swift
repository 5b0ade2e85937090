import Foundation
import StrataStorage

extension Results {
    /// Observes the results: `.initial(results)` on a later turn of this thread's run loop,
    /// then `.update(results, deletions:, insertions:, modifications:)` after each local
    /// commit or `refresh()` that changes them (changes made before the run loop turns are
    /// reported together). With `keyPaths`, a change of other properties of the objects is
    /// not reported as a modification. With `queue`, callbacks run on that serial queue, with
    /// the results of the Realm confined to it; otherwise on this thread's run loop.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        precondition(!state.holdsValues, "Results of values (sorted(ascending:), distinct()) cannot be observed: observe the list, set or map they come from")
        if let queue = deliveryQueue(core, queue) {
            return Strata.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, on: nil, block) }
        }
        let observer = CollectionObserver(results: self, keyPaths: keyPaths) { change in
            block(change)
        }
        core.notifications.add(observer, core)
        return observer
    }
}

extension LinkingObjects {
    /// Observes the objects linking here (see `Results.observe`).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        guard let results else { preconditionFailure("Only collections which are managed by a Realm support change notifications") }
        if let queue = deliveryQueue(results.core, queue) {
            return Strata.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, on: nil, block) }
        }
        let observer = CollectionObserver(results: results, keyPaths: keyPaths) { change in block(change.map { _ in self }) }
        results.core.notifications.add(observer, results.core)
        return observer
    }
}

/// Observes one `Results`: its keys as last reported, and the version they were read at.
final class CollectionObserver<Element: RealmCollectionValue>: Observer {
    let results: Results<Element>
    let keyPaths: [String]?
    let block: (RealmCollectionChange<Results<Element>>) -> Void
    /// The keys last reported, in order; nil until `.initial` is delivered.
    private var reported: [ObjectKey]?
    override var awaitsInitial: Bool { reported == nil }
    /// How many times the query was run to compute a change (tests check that unrelated
    /// commits do not run it).
    package private(set) var evaluations = 0

    init(results: Results<Element>, keyPaths: [String]?, block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) {
        self.results = results
        self.keyPaths = keyPaths
        self.block = block
        super.init(core: results.core)
        if let keyPaths, let binding = results.binding {
            _ = propertyMask(keyPaths, binding.querySchema, className: results.info.name)
        }
    }

    /// The classes whose changes may change the results: the class, its link targets (a
    /// query may read through links), and a list's owner class. Worked out once, since every
    /// delivery asks every observer.
    private lazy var dependencies: Set<String> = {
        var names: Set<String>
        do { names = Set(try ModelClass.withLinkTargets([results.info]).map(\.name)) } catch { trap(error) }
        if case .list(_, _, let ownerInfo) = results.source { names.insert(ownerInfo.name) }
        return names
    }()

    override func deliver(_ log: ChangeLog) {
        guard let old = reported else {
            reported = currentKeys()
            version = log.version
            block(.initial(results))
            return
        }
        guard let since = advance(to: log) else { return }
        guard log.touches(dependencies, since: since) else { return }
        let new = currentKeys()
        reported = new
        let delta = log.delta(results.info.name, since: since)
        let mask = results.binding.map { propertyMask(keyPaths, $0.querySchema, className: results.info.name) } ?? .max
        let diff = CollectionDiff(old: old, new: new, delta: delta, mask: mask)
        if diff.isEmpty { return }
        block(.update(results, deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications))
    }

    override func fail(_ error: Swift.Error) { block(.error(error)) }

    override func rebase() {
        super.rebase()
        if reported != nil { reported = currentKeys() }
    }

    private func currentKeys() -> [ObjectKey] {
        evaluations += 1
        return results.keys
    }
}

/// The indices that turn one ordered key array into another: deletions (old indices),
/// insertions (new indices), and modifications (old indices of objects present in both whose
/// masked properties changed). An object that changed position is a deletion and an
/// insertion; so is one deleted and replaced by a new object with the same key. Repeated keys
/// (a list holding an object twice) pair up occurrence by occurrence.
struct CollectionDiff {
    var deletions: [Int] = []
    var insertions: [Int] = []
    var modifications: [Int] = []

    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    init(old: [ObjectKey], new: [ObjectKey], delta: ClassDelta, mask: UInt64) {
        struct Occurrence: Hashable { let key: ObjectKey; let n: Int }
        func occurrences(_ keys: [ObjectKey]) -> [Occurrence] {
            var seen: [ObjectKey: Int] = [:]
            seen.reserveCapacity(keys.count)
            return keys.map { key in
                let n = seen[key, default: 0]
                seen[key] = n + 1
                return Occurrence(key: key, n: n)
            }
        }
        let oldItems = occurrences(old), newItems = occurrences(new)
        var newIndex: [Occurrence: Int] = [:]
        newIndex.reserveCapacity(newItems.count)
        for (i, item) in newItems.enumerated() where !delta.removed(item.key) { newIndex[item] = i }
        // The old items still present, with their new positions, in old order.
        var common: [(old: Int, new: Int)] = []
        for (i, item) in oldItems.enumerated() {
            if let j = newIndex[item] { common.append((i, j)) } else { deletions.append(i) }
        }
        // Those whose new positions form the longest increasing run stay; the others moved.
        let stays = Self.longestIncreasing(common.map(\.new))
        var kept = [Bool](repeating: false, count: new.count)  // by new index: the item stayed
        for (c, pair) in common.enumerated() {
            if stays[c] {
                kept[pair.new] = true
                if delta.mask(old[pair.old]) & mask != 0 { modifications.append(pair.old) }
            } else {
                deletions.append(pair.old)
            }
        }
        deletions.sort()
        insertions = (0..<new.count).filter { !kept[$0] }
    }

    /// Marks the elements of one longest strictly increasing subsequence of `values`.
    static func longestIncreasing(_ values: [Int]) -> [Bool] {
        var marks = [Bool](repeating: false, count: values.count)
        guard !values.isEmpty else { return marks }
        // Fast path: nothing moved.
        if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) { return [Bool](repeating: true, count: values.count) }
        var tails: [Int] = []          // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var i = tails.last!
        while i >= 0 {
            marks[i] = true
            i = previous[i]
        }
        return marks
    }
}
