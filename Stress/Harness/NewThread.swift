import Foundation

/// Runs `body` on a new thread and waits for it, for work that needs a thread of its own (a
/// Realm confined to it, a run loop of its own); returns its result or rethrows its error.
func onNewThread<T>(_ body: @escaping () throws -> T) throws -> T {
    let handoff = Handoff(body)
    let done = DispatchSemaphore(value: 0)
    Thread {
        handoff.result = Result(catching: handoff.body)
        done.signal()
    }.start()
    done.wait()
    return try handoff.result!.get()
}

/// The body and result passed between `onNewThread` and its thread; the thread writes the
/// result before signalling, the caller reads it after the wait, so no two threads touch it
/// at once.
private final class Handoff<T>: @unchecked Sendable {
    let body: () throws -> T
    var result: Result<T, Error>?
    init(_ body: @escaping () throws -> T) { self.body = body }
}
