import Synchronization

/// Where the storage layer reports what it did that a user may want to know about: opening a
/// file, freeing the slots of processes that died with it open. The public layer installs
/// the sink (its `Logger`); until then messages go nowhere.
package enum StorageLog {
    /// A message's importance (the public `LogLevel` it is reported at).
    package enum Level: Sendable {
        /// Something a user may want to know about: an open, a freed slot.
        case info
    }

    private static let sink = Mutex<(@Sendable (Level, String) -> Void)?>(nil)

    /// Sends every later message to `body`.
    package static func install(_ body: @escaping @Sendable (Level, String) -> Void) {
        sink.withLock { $0 = body }
    }

    /// Reports `message` at `level`; the text is made only when a sink is installed.
    package static func record(_ level: Level, _ message: @autoclosure () -> String) {
        guard let body = sink.withLock({ $0 }) else { return }
        body(level, message())
    }
}
