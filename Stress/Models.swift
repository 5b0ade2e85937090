import Foundation
import Strata

/// The object the worker roles write: one per commit, identified by `id`.
///
/// A test process that opens the same file declares a class with the same name and
/// properties; the schema is matched by class name.
final class StressItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tag = ""
    @Persisted var value = 0
}

/// An account of the bank scenarios: money moves between accounts, the total never changes.
final class StressAccount: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var balance = 0
    /// How many transfers paid from or into this account.
    @Persisted var transfers = 0
}

/// One committed bank transaction: what it moved, the version its commit created, and when.
final class StressTransfer: Object {
    /// The transaction id (`TransactionID`), which the writer logs once the commit returned.
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var version = 0
    @Persisted var from = 0
    @Persisted var to = 0
    @Persisted var amount = 0
    /// The writer's wall clock inside the write block, just before the commit.
    @Persisted var committedAt = Date()
}

/// A large value of the `growth` scenario; its bytes follow from its id (`BlobContent`).
final class StressBlob: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var payload = Data()
}

/// A node of the history scenario (`HistoryWorker`): scalar properties (one indexed), a
/// to-one link, a list of objects, a set and a map, and the backlinks of the link.
final class HistoryNode: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var group = ""
    @Persisted var score = 0
    @Persisted var weight = 0.0
    @Persisted var next: HistoryNode?
    @Persisted var children: List<HistoryNode>
    @Persisted var labels: MutableSet<String>
    @Persisted var counts: Map<String, Int>
    @Persisted(originProperty: "next") var previous: LinkingObjects<HistoryNode>
}

/// A note of the history scenario: a class without a primary key, cleared as a whole.
final class HistoryNote: Object {
    @Persisted var text = ""
    @Persisted var node: HistoryNode?
}
