import Foundation
import Strata

/// The change set of a sorted `Results` of 100,000 Persons after one modification: one
/// observer of `objects(Person.self).sorted(byKeyPath: "age")`, then no-sync commits that
/// each change one Person, timed from the `write {}` return to the callback, which re-runs
/// the sorted query and compares 100,000 keys with the ones reported before. For reference,
/// the sorted query alone on a fresh `Results`.
enum SortedChangeSet {
    static let persons = 100_000
    /// Commits per kind of modification (and runs of the query alone); the row gives their median.
    static let repeats = 9
    /// How long to wait for one delivery.
    static let timeout = 60.0

    /// One kind of modification: what it does to a person, and the change set it must give.
    struct Modification {
        var label: String
        var apply: (Person) -> Void
        var expected: ChangeCounts
    }

    /// A change of the sort key, which moves the object, and of another property, which does not.
    static let modifications = [
        Modification(label: "age changed: the object moves", apply: { $0.age = ($0.age + 50) % 100 },
                     expected: ChangeCounts(deletions: 1, insertions: 1, modifications: 0)),
        Modification(label: "score changed: the object stays", apply: { $0.score += 1 },
                     expected: ChangeCounts(deletions: 0, insertions: 0, modifications: 1)),
    ]

    /// One summary per modification kind, then one for the sorted query alone.
    static func measure(directory: URL) throws -> [LatencySummary] {
        let engine = try StrataEngine(directory: directory, durable: false)
        try engine.insert(count: persons)
        let realm = engine.realm
        let observer = SortedObserver(realm.objects(Person.self).sorted(byKeyPath: "age"))
        try observer.await(updates: 0)
        var summaries: [LatencySummary] = []
        for modification in modifications {
            var durations: [Double?] = []
            for r in 0..<repeats {
                let person = realm.object(ofType: Person.self, forPrimaryKey: r * 9_973 % persons)!
                try realm.write { modification.apply(person) }
                let returned = monotonicSeconds()
                try observer.await(updates: observer.updates + 1)
                guard observer.last == modification.expected else {
                    throw BenchError("\(modification.label): the change set was \(observer.last), expected \(modification.expected)")
                }
                durations.append(observer.callbackTime - returned)
            }
            summaries.append(LatencySummary(observer: modification.label, durations: durations))
        }
        let alone: [Double?] = (0..<repeats).map { _ in
            let fresh = realm.objects(Person.self).sorted(byKeyPath: "age")
            let start = monotonicSeconds()
            _ = fresh.last  // evaluates the query and sorts every key
            return monotonicSeconds() - start
        }
        summaries.append(LatencySummary(observer: "the sorted query alone, for reference", durations: alone))
        return summaries
    }
}

/// How many deletions, insertions and modifications a change set has.
struct ChangeCounts: Equatable, CustomStringConvertible {
    var deletions = 0
    var insertions = 0
    var modifications = 0

    var description: String { "\(deletions) deletions, \(insertions) insertions, \(modifications) modifications" }
}

/// Observes a `Results` on the calling thread, noting the time and size of the last update.
private final class SortedObserver {
    private(set) var updates = 0
    private(set) var callbackTime = 0.0
    private(set) var last = ChangeCounts()
    private var isReady = false
    private var failure: Error?
    private var token: NotificationToken?

    /// Registers the observer of `results`; `await(updates: 0)` waits for its `.initial` callback.
    init(_ results: Results<Person>) {
        token = results.observe { [unowned self] change in
            switch change {
            case .initial:
                isReady = true
            case let .update(_, deletions, insertions, modifications):
                callbackTime = monotonicSeconds()
                updates += 1
                last = ChangeCounts(deletions: deletions.count, insertions: insertions.count, modifications: modifications.count)
            case .error(let error):
                failure = error
            }
        }
    }

    deinit { token?.invalidate() }

    /// Runs the run loop until the `.initial` callback and `count` updates came.
    func await(updates count: Int) throws {
        let done = runRunLoop(until: { failure != nil || isReady && updates >= count }, timeout: SortedChangeSet.timeout)
        if let failure { throw failure }
        if !done { throw BenchError("no callback within \(SortedChangeSet.timeout) s (\(updates) updates of \(count))") }
    }
}
