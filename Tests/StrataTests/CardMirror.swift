import Foundation

/// A card as the mirror keeps it (the stored properties of `Card` but `id`).
struct CardState: Equatable {
    var serial: Int
    var score = 0
    var rank = 0
    var label = ""
    var note = ""
    var deck: Int?

    /// Property `name` (of `cardProperties`) as text, to compare with the values of an
    /// observer's `PropertyChange`, written the same way.
    func describe(_ name: String) -> String {
        switch name {
        case "serial": "\(serial)"
        case "score": "\(score)"
        case "rank": "\(rank)"
        case "label": label
        case "note": note
        case "deck": deck.map { "\($0)" } ?? "nil"
        default: preconditionFailure("Card has no property \(name)")
        }
    }
}

/// The cards and decks of the change-set property test in plain Swift, changed alongside the
/// Realm, and what was written since observers were last told: the expected side of every
/// check.
struct CardMirror {
    /// Cards by `id`.
    private(set) var cards: [Int: CardState] = [:]
    /// The existing decks by `id`, each with its pile as card ids in list order.
    private(set) var piles: [Int: [Int]] = [:]
    /// The next `serial` to give a new card.
    private var nextSerial = 1
    /// Since the last delivery: the properties written, per card serial (also when written
    /// with the value they had: the engine, like RealmSwift, reports what was set).
    private(set) var written: [Int: Set<String>] = [:]
    /// Since the last delivery: the serials of the cards deleted.
    private(set) var deleted: Set<Int> = []
    /// Since the last delivery: whether the observers' own Realm committed (object observers
    /// then give no old values, as RealmSwift's do for changes made on their thread).
    var committedHere = false

    /// Observers have been told: what follows is new.
    mutating func delivered() {
        written = [:]
        deleted = []
        committedHere = false
    }

    /// Adds card `id` with the next serial; returns it as stored.
    mutating func insertCard(_ id: Int, _ state: CardState) -> CardState {
        precondition(cards[id] == nil, "card \(id) exists")
        var card = state
        card.serial = nextSerial
        nextSerial += 1
        cards[id] = card
        return card
    }

    /// Sets properties of card `id` (`names` are those written).
    mutating func write(_ id: Int, _ names: Set<String>, _ change: (inout CardState) -> Void) {
        guard var card = cards[id] else { preconditionFailure("no card \(id)") }
        change(&card)
        cards[id] = card
        written[card.serial, default: []].formUnion(names)
    }

    /// Deletes card `id`: it leaves every pile.
    mutating func deleteCard(_ id: Int) {
        guard let card = cards.removeValue(forKey: id) else { preconditionFailure("no card \(id)") }
        deleted.insert(card.serial)
        for deck in piles.keys { piles[deck]?.removeAll { $0 == id } }
    }

    /// Adds deck `id` with an empty pile.
    mutating func insertDeck(_ id: Int) {
        precondition(piles[id] == nil, "deck \(id) exists")
        piles[id] = []
    }

    /// Deletes deck `id`: the cards linking to it now link to nothing.
    mutating func deleteDeck(_ id: Int) {
        piles[id] = nil
        for (card, state) in cards where state.deck == id { write(card, ["deck"]) { $0.deck = nil } }
    }

    /// Deletes every card (the piles are emptied).
    mutating func deleteAllCards() {
        for id in Array(cards.keys) { deleteCard(id) }
    }

    /// Deletes every card and deck.
    mutating func deleteAll() {
        deleteAllCards()
        piles = [:]
    }

    /// Changes the pile of deck `id`.
    mutating func editPile(_ id: Int, _ edit: (inout [Int]) -> Void) {
        guard piles[id] != nil else { preconditionFailure("no deck \(id)") }
        edit(&piles[id]!)
    }

    /// The serial of card `id`.
    func serial(_ id: Int) -> Int { cards[id]!.serial }

    /// The card whose serial is `serial`, if it exists.
    func card(serial: Int) -> CardState? { cards.values.first { $0.serial == serial } }

    /// The serials of the cards whose written properties meet `observed`.
    func modified(observing observed: Set<String>) -> Set<Int> {
        Set(written.filter { !$0.value.isDisjoint(with: observed) }.keys)
    }
}
