import Foundation
import Strata

/// A card of the change-set property test: scalar properties to filter, sort and modify, and
/// a to-one link to a deck (whose `members` are its backlinks).
final class Card: Object {
    @Persisted(primaryKey: true) var id = 0
    /// Unique per created card, never changed: tells a card re-created with a deleted card's
    /// `id` from the one deleted.
    @Persisted var serial = 0
    @Persisted var score = 0
    @Persisted var rank = 0
    @Persisted var label = ""
    @Persisted var note = ""
    @Persisted var deck: Deck?
}

/// A deck: an ordered pile of cards (a list, repeats allowed) and the cards linking to it.
final class Deck: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""
    @Persisted var pile: List<Card>
    @Persisted(originProperty: "deck") var members: LinkingObjects<Card>
}

/// The stored properties of `Card` other than its primary key, as the mirror names them.
let cardProperties = ["serial", "score", "rank", "label", "note", "deck"]
