import Foundation
import Strata

/// The object `strata demo` stores.
final class Pet: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var species = ""
    @Persisted var age = 0
    /// The process id of the process that wrote it last.
    @Persisted var writtenBy = 0
}
