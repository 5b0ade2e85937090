import Foundation
import Strata

/// One observer of a card, with key paths, and what it was told since the last check.
final class CardObjectProbe {
    /// One property of a `.change`, its values written as `CardState.describe` writes them.
    private struct Change: CustomStringConvertible {
        let name: String, old: String, new: String
        var description: String { "\(name): \(old) → \(new)" }
    }

    /// What one callback said.
    private enum Event: CustomStringConvertible {
        case change([Change])
        case deleted
        case error(String)

        var description: String {
            switch self {
            case .change(let properties): ".change(\(properties.map(\.description).joined(separator: ", ")))"
            case .deleted: ".deleted"
            case .error(let error): ".error(\(error))"
            }
        }
    }

    let keyPaths: [String]?
    /// The serial of the observed card.
    let serial: Int
    private let observed: Set<String>
    /// The card as the mirror had it when the observer last reported (or was registered):
    /// the `oldValue`s of the next change.
    private var lastReported: CardState
    private var token: NotificationToken?
    /// Whether `.deleted` was reported in an earlier delivery.
    private(set) var isFinished = false
    private var events: [Event] = []

    /// Observes `card`, which the mirror has as `state`.
    init(_ card: Card, _ state: CardState, keyPaths: [String]?) {
        self.keyPaths = keyPaths
        serial = state.serial
        lastReported = state
        observed = Set(keyPaths ?? cardProperties)
        token = card.observe(keyPaths: keyPaths, on: nil) { [weak self] change in
            switch change {
            case let .change(_, properties):
                self?.events.append(.change(properties.map { Change(name: $0.name, old: describe($0.oldValue), new: describe($0.newValue)) }))
            case .deleted: self?.events.append(.deleted)
            case .error(let error): self?.events.append(.error("\(error)"))
            }
        }
    }

    deinit { token?.invalidate() }

    /// What is wrong with the callbacks of the delivery that just ran: after a deletion,
    /// `.deleted` once and nothing ever after; otherwise one `.change` naming exactly the
    /// observed properties written since the previous delivery, with their values when the
    /// observer last reported (nil for the link, and for all when the observers' own Realm
    /// committed since) and now, or nothing when none was written.
    func check(_ mirror: CardMirror) -> String? {
        defer { events = [] }
        if isFinished { return events.isEmpty ? nil : "\(events.count) callbacks after .deleted" }
        if mirror.deleted.contains(serial) {
            isFinished = true
            if events.count == 1, case .deleted = events[0] { return nil }
            return "expected .deleted once, got \(events)"
        }
        let expected = (mirror.written[serial] ?? []).intersection(observed)
        if expected.isEmpty { return events.isEmpty ? nil : "expected no callback, got \(events)" }
        guard events.count == 1, case .change(let properties) = events[0] else {
            return "expected one .change of \(expected.sorted()), got \(events)"
        }
        let card = mirror.card(serial: serial)!
        let names = properties.map(\.name)
        if Set(names) != expected || names.count != expected.count {
            return "expected a .change of \(expected.sorted()), got \(names)"
        }
        let right = properties.map { property in
            let old = property.name == "deck" || mirror.committedHere ? "nil" : lastReported.describe(property.name)
            return Change(name: property.name, old: old, new: card.describe(property.name))
        }
        lastReported = card
        return properties.map(\.description) == right.map(\.description) ? nil : "got \(events[0]), expected \(right)"
    }
}

/// An observed property's value as text: a deck by its id.
private func describe(_ value: Any?) -> String {
    guard let value else { return "nil" }
    if let deck = value as? Deck { return "\(deck.id)" }
    return "\(value)"
}
