import Foundation

extension CommitLatency {
    /// How long the writer runs its run loop after a commit for the callback to come.
    static let sameThreadTimeout = 1.0

    /// The observer on the writer's own thread, on the writer's Realm: after each commit the
    /// writer runs its run loop until the callback showed the new stamp, then pauses as
    /// `LatencyWriter` does. Returns the writer's times with the callback times.
    static func onWritersThread(directory: URL) throws -> WorkerResult {
        let writer = try LatencyWriter(directory: directory)
        let observer = StampObserver(realm: writer.realm)
        try observer.await(stamps: 0)
        var written = try writer.run { seq in try observer.await(stamps: seq + 1, timeout: sameThreadTimeout) }
        written.callbackTimes = observer.times
        return written
    }
}
