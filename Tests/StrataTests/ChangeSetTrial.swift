import Foundation
import Strata

/// One seed of the change-set property test: rounds of random commits to one file (one to
/// four commits a round, coalescing before the run loop turns; some made first on another
/// thread), each followed by one delivery on the observing thread whose callbacks, for every
/// observer at once, are checked against the mirror.
final class ChangeSetTrial {
    private let realm: Realm
    private let neighbour: NeighbourRealm
    private var writer: CardWriter
    /// Observers of results of the whole class.
    private var classProbes: [CardCollectionProbe] = []
    /// Observers of deck 1's pile and members (made again when a `deleteAll` removed it).
    private var deckProbes: [CardCollectionProbe] = []
    /// Every object probe made, including those that reported `.deleted` (they must stay
    /// silent).
    private var objects: [CardObjectProbe] = []
    private var realmToken: NotificationToken?
    /// The Realm's version when its own observer was last told (inside a local commit, or
    /// when autorefresh moved it).
    private var toldVersion: UInt64 = 0
    /// The Realm's version at the last delivery.
    private var deliveredVersion: UInt64 = 0

    /// The key paths of the object observers: one live observer of a random card for each.
    static let objectKeyPaths: [[String]?] = [nil, ["label"], ["score", "rank"], ["deck"]]

    /// A trial on the file of `configuration`, observed on this thread.
    init(configuration: Realm.Configuration, seed: UInt64) throws {
        realm = try Realm(configuration: configuration)
        neighbour = try NeighbourRealm(configuration: configuration)
        writer = CardWriter(realm: realm, seed: seed)
    }

    deinit {
        realmToken?.invalidate()
        neighbour.close()
    }

    /// Runs `rounds` rounds; returns the first problem found, with the writes behind it.
    func run(rounds: Int) throws -> String? {
        try writer.stock(cards: 10)
        _ = writer.takeLog()
        writer.mirror.delivered()
        deliveredVersion = realm.version
        realmToken = realm.observe { [weak self] _, realm in self?.toldVersion = realm.version }
        replaceDeletedObjectProbes()
        classProbes = cardProbes()
        deckProbes = deckOneProbes()
        if let problem = awaitInitial(classProbes + deckProbes) { return problem }
        for round in 1...rounds {
            // Commits on the other thread come first: a later one there would be a second delivery.
            let elsewhere = writer.random.chance(0.25) ? Int.random(in: 1...2, using: &writer.random) : 0
            let here = [elsewhere > 0 ? 0 : 1, 1, 1, 2, 2, 3].randomElement(using: &writer.random)!
            var newest = realm.version
            for _ in 0..<elsewhere { newest = try neighbour.run { try self.writer.commit(through: $0) } }
            for _ in 0..<here { try writer.commit() }
            if let problem = deliver(upTo: max(newest, realm.version)) { return "round \(round): \(problem)" }
            if writer.mirror.piles[1] == nil, let problem = try restockAfterDeleteAll() {
                return "round \(round), after deleteAll: \(problem)"
            }
            replaceDeletedObjectProbes()
        }
        return nil
    }

    /// Observers of the whole class: filtered, sorted, filtered and sorted, and through a link.
    private func cardProbes() -> [CardCollectionProbe] {
        let cards = realm.objects(Card.self)
        return [
            CardCollectionProbe("score >= 50, key paths label and deck", cards.filter("score >= 50"), keyPaths: ["label", "deck"],
                                expected: .matching { $0.score >= 50 }),
            CardCollectionProbe("sorted by rank", cards.sorted(byKeyPath: "rank"), keyPaths: nil,
                                expected: .sortedByRank({ _ in true }, ascending: true)),
            CardCollectionProbe("score < 70 AND label != 'e' by rank descending, key paths score and note",
                                cards.filter("score < 70 AND label != 'e'").sorted(byKeyPath: "rank", ascending: false),
                                keyPaths: ["score", "note"], expected: .sortedByRank({ $0.score < 70 && $0.label != "e" }, ascending: false)),
            CardCollectionProbe("deck.id == 2, key path note", cards.filter("deck.id == 2"), keyPaths: ["note"],
                                expected: .matching { $0.deck == 2 }),
        ]
    }

    /// Observers of deck 1's pile (twice: every property, and `rank` only) and of the cards
    /// linking to it (as they come, and sorted).
    private func deckOneProbes() -> [CardCollectionProbe] {
        let deck = realm.object(ofType: Deck.self, forPrimaryKey: 1)!
        return [
            CardCollectionProbe("pile of deck 1", deck.pile, keyPaths: nil, expected: .pile(deck: 1)),
            CardCollectionProbe("pile of deck 1, key path rank", deck.pile, keyPaths: ["rank"], expected: .pile(deck: 1)),
            CardCollectionProbe("members of deck 1, key path score", deck.members, keyPaths: ["score"], expected: .matching { $0.deck == 1 }),
            CardCollectionProbe("members of deck 1 by rank", deck.members.sorted(byKeyPath: "rank"), keyPaths: nil,
                                expected: .sortedByRank({ $0.deck == 1 }, ascending: true)),
        ]
    }

    /// Runs the run loop until `probes` have had their `.initial`; returns what is wrong
    /// with it.
    private func awaitInitial(_ probes: [CardCollectionProbe]) -> String? {
        runRunLoop { probes.allSatisfy { $0.reported != nil } }
        let problems = probes.compactMap { probe in probe.checkInitial(writer.mirror).map { "\(probe.name): \($0)" } }
        return problems.isEmpty ? nil : problems.joined(separator: "\n")
    }

    /// After a `deleteAll` (its delivery checked that deck 1's observers saw every element
    /// go): stops them, creates the decks and some cards again, and observes the new deck 1.
    private func restockAfterDeleteAll() throws -> String? {
        deckProbes.forEach { $0.stop() }
        deckProbes = []
        try writer.stock(cards: Int.random(in: 0...6, using: &writer.random))
        if let problem = deliver(upTo: realm.version) { return problem }
        deckProbes = deckOneProbes()
        return awaitInitial(deckProbes)
    }

    /// Runs the run loop until the commits up to version `newest` are delivered, then checks
    /// every observer; returns the problems found, with the writes behind them.
    private func deliver(upTo newest: UInt64) -> String? {
        let log = writer.takeLog()
        if newest != deliveredVersion {
            // Delivery to every observer is one step on the run loop, scheduled by the commit
            // (or made when autorefresh moves the Realm).
            let delivered = { self.realm.version >= newest && self.toldVersion >= newest }
            runScheduledDeliveries(andUntil: delivered)
            guard delivered() else { return "version \(newest) was not delivered" }
            deliveredVersion = realm.version
        }
        var problems = (classProbes + deckProbes).compactMap { probe in probe.check(writer.mirror).map { "\(probe.name): \($0)" } }
        problems += objects.compactMap { probe in
            probe.check(writer.mirror).map { "card with serial \(probe.serial), key paths \(probe.keyPaths ?? ["all"]): \($0)" }
        }
        writer.mirror.delivered()
        guard !problems.isEmpty else { return nil }
        return (problems + ["writes since the previous delivery:"] + log).joined(separator: "\n")
    }

    /// Observes a random card for each key-path set that has no live object observer.
    private func replaceDeletedObjectProbes() {
        for keyPaths in Self.objectKeyPaths where !objects.contains(where: { !$0.isFinished && $0.keyPaths == keyPaths }) {
            guard let id = writer.mirror.cards.keys.sorted().randomElement(using: &writer.random) else { return }
            objects.append(CardObjectProbe(realm.object(ofType: Card.self, forPrimaryKey: id)!, writer.mirror.cards[id]!, keyPaths: keyPaths))
        }
    }
}
