import Foundation
import Synchronization

/// Marks a serial queue that Realms are confined to (`Realm(configuration:queue:)`): code
/// running on it finds the queue's marker with `DispatchQueue.getSpecific`, which is how a
/// queue-confined Realm checks its caller, whichever of the queue's threads runs the block.
final class QueueMarker: @unchecked Sendable {
    // Sendable invariant: no state.
    static let key = DispatchSpecificKey<QueueMarker>()
    private static let lock = Mutex(())

    /// The marker of `queue`, set on it the first time.
    static func of(_ queue: DispatchQueue) -> QueueMarker {
        lock.withLock { _ in
            if let marker = queue.getSpecific(key: key) { return marker }
            let marker = QueueMarker()
            queue.setSpecific(key: key, value: marker)
            return marker
        }
    }

    /// Whether the caller runs in a block on this marker's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) === self }
}
