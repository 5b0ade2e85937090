import Foundation
import Strata
import StrataStorage

/// Makes random writes to the cards and decks of a Realm and the same changes to a
/// `CardMirror`: inserts, deletes (one, several, a whole class, everything), changes of each
/// property (to a new value, or the same value through an update policy), link changes and
/// list edits. Each operation is logged, so that a failure shows the writes behind it.
struct CardWriter {
    /// The Realm written to (another thread's, during `commit(through:)`).
    private var realm: Realm
    /// Whether `commit(through:)` is committing through another thread's Realm.
    private var committingElsewhere = false
    var mirror = CardMirror()
    var random: SplitMix64
    /// The operations since the last `takeLog()`.
    private var log: [String] = []

    /// Card ids are drawn from this range, so that deleted ids come back.
    static let ids = 0..<24
    /// The decks: deck 1 is observed and only `deleteAll` removes it; 2 and 3 come and go.
    static let decks = 1...3
    static let labels = ["a", "b", "c", "d", "e"], notes = ["x", "y", "z"]

    /// A writer to `realm`, with random choices from `seed`.
    init(realm: Realm, seed: UInt64) {
        self.realm = realm
        random = SplitMix64(seed: seed)
    }

    /// The log since the last call, one operation a line.
    mutating func takeLog() -> [String] {
        defer { log = [] }
        return log
    }

    /// One commit: the decks that are missing, then `cards` new cards, some on a pile.
    mutating func stock(cards: Int) throws {
        try realm.write {
            for id in Self.decks where mirror.piles[id] == nil { createDeck(id) }
            for _ in 0..<cards { insertCard() }
            for _ in 0..<cards / 2 { appendToPile() }
        }
    }

    /// Creates deck `id` (a missing one).
    mutating func createDeck(_ id: Int) {
        realm.create(Deck.self, value: ["id": id, "title": "deck \(id)"])
        mirror.insertDeck(id)
        log.append("create deck \(id)")
    }

    /// One commit of 1 to 4 random operations.
    mutating func commit() throws {
        let count = Int.random(in: 1...4, using: &random)
        log.append("commit:")
        try realm.write {
            for _ in 0..<count { operate() }
        }
        if !committingElsewhere { mirror.committedHere = true }
    }

    /// One commit made through `other`, a Realm of the same file confined to the calling
    /// thread (another than the observers').
    mutating func commit(through other: Realm) throws {
        let own = realm
        realm = other
        committingElsewhere = true
        defer { realm = own; committingElsewhere = false }
        log.append("on another thread:")
        try commit()
    }

    /// One random operation, inside a write.
    private mutating func operate() {
        let roll = Double.random(in: 0..<100, using: &random)
        switch roll {
        case ..<14: insertCard()
        case ..<22: deleteCard()
        case ..<46: setProperty()
        case ..<54: upsertCard()
        case ..<62: relinkCard()
        case ..<72: appendToPile()
        case ..<76: insertIntoPile()
        case ..<81: removeFromPile()
        case ..<86: moveInPile()
        case ..<88: swapInPile()
        case ..<90: replaceInPile()
        case ..<92: retitleDeck()
        case ..<95: deleteLowScores()
        case ..<99.4: toggleDeck()
        case ..<99.7: deleteAllCards()
        default: deleteAll()
        }
    }

    // MARK: Cards

    /// Creates card `id` (a random free id when nil) with random values, linked to a random
    /// deck or none; with `policy` other than `.error`, through the upsert path.
    private mutating func insertCard(_ id: Int? = nil, policy: Realm.UpdatePolicy = .error) {
        guard let id = id ?? Self.ids.filter({ mirror.cards[$0] == nil }).randomElement(using: &random) else { return }
        let deck = random.chance(0.4) ? mirror.piles.keys.sorted().randomElement(using: &random) : nil
        let drawn = CardState(serial: 0, score: Int.random(in: 0..<100, using: &random), rank: Int.random(in: 0..<12, using: &random),
                              label: Self.labels.randomElement(using: &random)!, note: Self.notes.randomElement(using: &random)!,
                              deck: deck)
        let state = mirror.insertCard(id, drawn)
        var value: [String: Any] = ["id": id, "serial": state.serial, "score": state.score, "rank": state.rank,
                                    "label": state.label, "note": state.note]
        if let deck { value["deck"] = realm.object(ofType: Deck.self, forPrimaryKey: deck)! }
        realm.create(Card.self, value: value, update: policy)
        log.append("insert card \(id) \(state)")
    }

    /// Deletes a random card: it leaves every pile, and its deck's members.
    private mutating func deleteCard() {
        guard let id = randomCard() else { return }
        realm.delete(card(id))
        mirror.deleteCard(id)
        log.append("delete card \(id)")
    }

    /// Sets one scalar property of a card to a different value.
    private mutating func setProperty() {
        guard let id = randomCard() else { return }
        let object = card(id), old = mirror.cards[id]!
        let name = ["score", "rank", "rank", "label", "note"].randomElement(using: &random)!
        var new = old
        switch name {
        case "score": new.score = different(old.score) { Int.random(in: 0..<100, using: &$0) }; object.score = new.score
        case "rank": new.rank = different(old.rank) { Int.random(in: 0..<12, using: &$0) }; object.rank = new.rank
        case "label": new.label = different(old.label) { Self.labels.randomElement(using: &$0)! }; object.label = new.label
        default: new.note = different(old.note) { Self.notes.randomElement(using: &$0)! }; object.note = new.note
        }
        mirror.write(id, [name]) { $0 = new }
        log.append("card \(id).\(name) = \(new.describe(name))")
    }

    /// `create(_:value:update:)` of every scalar property, each kept or changed at random, on
    /// an existing card or a new one: `.modified` writes the changed values, `.all` all.
    private mutating func upsertCard() {
        guard let id = Self.ids.randomElement(using: &random) else { return }
        let policy: Realm.UpdatePolicy = random.chance(0.5) ? .modified : .all
        guard let old = mirror.cards[id] else { return insertCard(id, policy: policy) }
        var new = old
        if random.chance(0.5) { new.score = Int.random(in: 0..<100, using: &random) }
        if random.chance(0.5) { new.rank = Int.random(in: 0..<12, using: &random) }
        if random.chance(0.5) { new.label = Self.labels.randomElement(using: &random)! }
        if random.chance(0.5) { new.note = Self.notes.randomElement(using: &random)! }
        realm.create(Card.self, value: ["id": id, "serial": new.serial, "score": new.score, "rank": new.rank,
                                        "label": new.label, "note": new.note], update: policy)
        let scalars = ["serial", "score", "rank", "label", "note"]
        let names = policy == .all ? Set(scalars) : Set(scalars.filter { old.describe($0) != new.describe($0) })
        mirror.write(id, names) { $0 = new }
        log.append("upsert card \(id) \(policy == .all ? ".all" : ".modified") \(new)")
    }

    /// Links a card to another deck, or to none.
    private mutating func relinkCard() {
        guard let id = randomCard() else { return }
        let old = mirror.cards[id]!.deck
        guard let deck = ([nil] + mirror.piles.keys.sorted().map { Optional($0) }).filter({ $0 != old }).randomElement(using: &random) else { return }
        card(id).deck = deck.map { realm.object(ofType: Deck.self, forPrimaryKey: $0)! }
        mirror.write(id, ["deck"]) { $0.deck = deck }
        log.append("card \(id).deck = \(deck.map { "\($0)" } ?? "nil")")
    }

    /// Deletes the cards scoring below a random bound, through a filtered `Results`.
    private mutating func deleteLowScores() {
        let bound = Int.random(in: 0..<25, using: &random)
        realm.delete(realm.objects(Card.self).filter("score < %@", bound))
        for (id, card) in mirror.cards where card.score < bound { mirror.deleteCard(id) }
        log.append("delete cards with score < \(bound)")
    }

    /// Deletes the whole `Card` class in one step (a cleared class in the change set).
    private mutating func deleteAllCards() {
        realm.delete(realm.objects(Card.self))
        mirror.deleteAllCards()
        log.append("delete all cards")
    }

    /// `deleteAll()`: every card and deck, deck 1 included.
    private mutating func deleteAll() {
        realm.deleteAll()
        mirror.deleteAll()
        log.append("deleteAll")
    }

    // MARK: Decks and piles

    /// Deletes deck 2 or 3 if it exists, creates it if not.
    private mutating func toggleDeck() {
        let id = Int.random(in: 2...3, using: &random)
        if mirror.piles[id] == nil { return createDeck(id) }
        realm.delete(realm.object(ofType: Deck.self, forPrimaryKey: id)!)
        mirror.deleteDeck(id)
        log.append("delete deck \(id)")
    }

    /// Changes a deck's own property: its pile and members stay as they are.
    private mutating func retitleDeck() {
        guard let deck = randomDeck() else { return }
        let title = "deck \(deck), title \(Int.random(in: 0..<1000, using: &random))"
        realm.object(ofType: Deck.self, forPrimaryKey: deck)!.title = title
        log.append("deck \(deck).title = \(title)")
    }

    /// Appends a random card (perhaps one already there) to a pile.
    private mutating func appendToPile() {
        guard let deck = randomDeck(), let id = randomCard() else { return }
        pile(deck).append(card(id))
        mirror.editPile(deck) { $0.append(id) }
        log.append("deck \(deck).pile.append(card \(id))")
    }

    /// Inserts a random card into a pile at a random position.
    private mutating func insertIntoPile() {
        guard let deck = randomDeck(), let id = randomCard() else { return }
        let index = Int.random(in: 0...mirror.piles[deck]!.count, using: &random)
        pile(deck).insert(card(id), at: index)
        mirror.editPile(deck) { $0.insert(id, at: index) }
        log.append("deck \(deck).pile.insert(card \(id), at: \(index))")
    }

    /// Removes the card at a random position of a pile.
    private mutating func removeFromPile() {
        guard let deck = randomDeck(), let index = mirror.piles[deck]!.indices.randomElement(using: &random) else { return }
        pile(deck).remove(at: index)
        mirror.editPile(deck) { _ = $0.remove(at: index) }
        log.append("deck \(deck).pile.remove(at: \(index))")
    }

    /// Moves a card of a pile to another position (or the same).
    private mutating func moveInPile() {
        guard let deck = randomDeck(), let from = mirror.piles[deck]!.indices.randomElement(using: &random),
              let to = mirror.piles[deck]!.indices.randomElement(using: &random) else { return }
        pile(deck).move(from: from, to: to)
        mirror.editPile(deck) { $0.insert($0.remove(at: from), at: to) }
        log.append("deck \(deck).pile.move(from: \(from), to: \(to))")
    }

    /// Replaces the card at a random position of a pile with a random card.
    private mutating func replaceInPile() {
        guard let deck = randomDeck(), let index = mirror.piles[deck]!.indices.randomElement(using: &random),
              let id = randomCard() else { return }
        pile(deck).replace(index: index, object: card(id))
        mirror.editPile(deck) { $0[index] = id }
        log.append("deck \(deck).pile.replace(index: \(index), object: card \(id))")
    }

    /// Exchanges the cards at two random positions of a pile.
    private mutating func swapInPile() {
        guard let deck = randomDeck(), let i = mirror.piles[deck]!.indices.randomElement(using: &random),
              let j = mirror.piles[deck]!.indices.randomElement(using: &random) else { return }
        pile(deck).swapAt(i, j)
        mirror.editPile(deck) { $0.swapAt(i, j) }
        log.append("deck \(deck).pile.swapAt(\(i), \(j))")
    }

    // MARK: Picking

    /// The id of an existing card, if any.
    private mutating func randomCard() -> Int? { mirror.cards.keys.sorted().randomElement(using: &random) }

    /// An existing deck, deck 1 (the observed one) most often.
    private mutating func randomDeck() -> Int? {
        if mirror.piles[1] != nil, random.chance(0.7) { return 1 }
        return mirror.piles.keys.sorted().randomElement(using: &random)
    }

    /// The card of `id` in the Realm written to.
    private func card(_ id: Int) -> Card { realm.object(ofType: Card.self, forPrimaryKey: id)! }

    /// The pile of deck `deck` in the Realm written to.
    private func pile(_ deck: Int) -> List<Card> { realm.object(ofType: Deck.self, forPrimaryKey: deck)!.pile }

    /// A value from `draw` other than `old`.
    private mutating func different<T: Equatable>(_ old: T, _ draw: (inout SplitMix64) -> T) -> T {
        while true {
            let value = draw(&random)
            if value != old { return value }
        }
    }
}
