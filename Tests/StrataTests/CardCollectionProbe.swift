import Foundation
import Strata

/// The collections a `CardCollectionProbe` observes: `Results`, `List` and `LinkingObjects`.
protocol ObservableCardCollection: RealmCollection where Element == Card {
    /// The collection's own `observe(keyPaths:on:_:)`.
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken
}

extension Results: ObservableCardCollection where Element == Card {}
extension List: ObservableCardCollection where Element == Card {}
extension LinkingObjects: ObservableCardCollection where Element == Card {}

/// What an observed collection of cards must hold, by the mirror.
enum ExpectedContents {
    /// The cards meeting the condition, in any order.
    case matching((CardState) -> Bool)
    /// The cards meeting the condition, ordered by `rank`.
    case sortedByRank((CardState) -> Bool, ascending: Bool)
    /// The pile of a deck, in list order (none once the deck is gone).
    case pile(deck: Int)

    /// What is wrong with `serials` as the collection's contents now.
    func problem(_ serials: [Int], _ mirror: CardMirror) -> String? {
        switch self {
        case .matching(let condition):
            let expected = mirror.cards.values.filter(condition).map(\.serial).sorted()
            return serials.sorted() == expected ? nil : "holds \(serials), expected \(expected) in any order"
        case let .sortedByRank(condition, ascending):
            let expected = mirror.cards.values.filter(condition).map(\.serial).sorted()
            if serials.sorted() != expected { return "holds \(serials), expected \(expected) in rank order" }
            let ranks = serials.map { mirror.card(serial: $0)!.rank }
            let ordered = zip(ranks, ranks.dropFirst()).allSatisfy { ascending ? $0 <= $1 : $0 >= $1 }
            return ordered ? nil : "holds \(serials) with ranks \(ranks): not in rank order"
        case .pile(let deck):
            let expected = (mirror.piles[deck] ?? []).map(mirror.serial)
            return serials == expected ? nil : "holds \(serials), expected \(expected)"
        }
    }
}

/// One observer of a collection of cards and what it was told: the serials it last
/// reported (the previous snapshot) and the callbacks since the last check.
final class CardCollectionProbe {
    let name: String
    /// The properties whose writes are modifications (`keyPaths`, or every property).
    private let observed: Set<String>
    private let expected: ExpectedContents
    /// The serials the collection holds now.
    private let read: () -> [Int]
    private var token: NotificationToken?
    /// The serials last reported: at `.initial`, then after each update; nil before `.initial`.
    private(set) var reported: [Int]?
    /// The callbacks since the last `check`: the serials passed and the indices.
    private var updates: [(serials: [Int], change: ReportedChange)] = []
    private var problems: [String] = []

    init<C: ObservableCardCollection>(_ name: String, _ collection: C, keyPaths: [String]?, expected: ExpectedContents) {
        self.name = name
        observed = Set(keyPaths ?? cardProperties)
        self.expected = expected
        read = { serials(of: collection) }
        token = collection.observe(keyPaths: keyPaths, on: nil) { [weak self] change in
            guard let self else { return }
            switch change {
            case .initial(let collection):
                if reported != nil { problems.append("a second .initial") }
                reported = serials(of: collection)
            case let .update(collection, deletions, insertions, modifications):
                updates.append((serials(of: collection), ReportedChange(deletions: deletions, insertions: insertions, modifications: modifications)))
            case .error(let error):
                problems.append("error \(error)")
            }
        }
    }

    deinit { token?.invalidate() }

    /// What is wrong with the `.initial` callback.
    func checkInitial(_ mirror: CardMirror) -> String? {
        guard let reported else { return "no .initial" }
        return expected.problem(reported, mirror).map { ".initial \($0)" }
    }

    /// What is wrong with the callbacks of the delivery that just ran, given the mirror as
    /// it is now and what it says was written since the previous delivery. Takes the new
    /// contents as the previous snapshot of the next check.
    func check(_ mirror: CardMirror) -> String? {
        defer { updates = []; problems = [] }
        guard let old = reported else { return "checked before .initial" }
        if !problems.isEmpty { return problems.joined(separator: "; ") }
        if updates.count > 1 { return "\(updates.count) callbacks in one delivery" }
        let new = updates.first?.serials ?? read()
        reported = new
        if let problem = expected.problem(new, mirror) { return problem }
        let written = mirror.modified(observing: observed).intersection(old)
        guard let change = updates.first?.change else {
            return ChangeSetCheck.mustReport(old: old, new: new, written: written)
                ? "no callback for \(old) → \(new) (written: \(written.sorted()))" : nil
        }
        let found = ChangeSetCheck.problems(old: old, new: new, change: change, written: written)
        return found.isEmpty ? nil : "\(old) → \(new), written \(written.sorted()), reported \(change): " + found.joined(separator: "; ")
    }

    /// Stops the observer.
    func stop() {
        token?.invalidate()
        token = nil
    }
}

/// The serials of a collection's cards, in its order (none once a list's object is deleted).
private func serials<C: RealmCollection>(of collection: C) -> [Int] where C.Element == Card {
    collection.isInvalidated ? [] : collection.map(\.serial)
}

