import Foundation
import Synchronization

extension Realm {
    /// Opens the Realm of `configuration` off the calling thread, creating, compacting or
    /// migrating the file on a queue of its own, then calls `callback` on `callbackQueue` (a
    /// serial queue) with the Realm confined to that queue, or with the error opening threw.
    /// Cancelling the returned task before the callback runs means it is not called.
    @discardableResult
    public static func asyncOpen(configuration: Configuration = .defaultConfiguration,
                                 callbackQueue: DispatchQueue = .main,
                                 callback: @escaping (Result<Realm, Swift.Error>) -> Void) -> AsyncOpenTask {
        let task = AsyncOpenTask()
        openOnOwnQueue(configuration) { prepared in
            callbackQueue.async {
                withExtendedLifetime(prepared) {
                    guard !task.isCancelled else { return }
                    callback(prepared.flatMap { _ in Result { try Realm(configuration: configuration, queue: callbackQueue) } })
                }
            }
        }
        return task
    }

    /// Opens `configuration` on a serial queue of its own, creating, compacting or migrating
    /// the file there, and passes `opened` (on that queue) the Realm confined to that queue,
    /// which keeps the file open until the caller's own Realm is made, or the error.
    static func openOnOwnQueue(_ configuration: Configuration, _ opened: @escaping (Result<Realm, Swift.Error>) -> Void) {
        let queue = DispatchQueue(label: "strata.open")
        queue.async {
            let result = Result { try Realm(configuration: configuration, queue: queue) }
            // After the blocks opening scheduled on this queue (a commit's), so that none of
            // them still holds the Realm, and the file, once `opened` lets it go.
            queue.async { opened(result) }
        }
    }
}

/// A `Realm.asyncOpen` under way (RealmSwift's `AsyncOpenTask`): cancelling it stops the
/// callback from being called.
public final class AsyncOpenTask: Sendable {
    private let cancelled = Mutex(false)

    init() {}

    /// Whether `cancel()` was called.
    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Cancels the open: the callback is not called if it has not run yet.
    public func cancel() { cancelled.withLock { $0 = true } }
}
