import Foundation
import Strata

/// A Realm of a file confined to a serial queue of its own, for commits that the observing
/// thread hears of as of another thread's, not from its own `write`.
final class NeighbourRealm: @unchecked Sendable {
    // Sendable invariant: `realm` is only touched in blocks run on `queue`.
    private let queue = DispatchQueue(label: "strata.tests.neighbour")
    private var realm: Realm?

    /// Opens the file of `configuration` on the queue.
    init(configuration: Realm.Configuration) throws {
        try queue.sync { realm = try Realm(configuration: configuration, queue: queue) }
    }

    /// Runs `body` with the Realm on its queue and waits; returns the Realm's version then.
    func run(_ body: (Realm) throws -> Void) throws -> UInt64 {
        try queue.sync {
            try body(realm!)
            return realm!.version
        }
    }

    /// Closes the Realm (on its queue).
    func close() { queue.sync { realm = nil } }
}
