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

/// An account of the `bank` scenario: money moves between accounts, the total never changes.
final class StressAccount: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var balance = 0
    @Persisted var transfers = 0
}
