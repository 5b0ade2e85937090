import Foundation
import StrataStorage
import Synchronization

/// How much a `Logger` reports, least first: a logger at `info` reports `fatal`, `error`,
/// `warn` and `info` messages. RealmSwift's levels.
public enum LogLevel: Int, Sendable, CustomStringConvertible {
    /// Nothing is reported.
    case off
    /// Failures the process cannot go on after.
    case fatal
    /// Failures of an operation.
    case error
    /// Problems worth attention that did not fail anything.
    case warn
    /// What the library did that a user may want to know: opens, migrations, compaction,
    /// recoveries.
    case info
    /// More of the same, in detail.
    case detail
    /// What a developer of the library debugs with.
    case debug
    /// Every step.
    case trace
    /// Everything.
    case all

    /// The level's name: "info", "warn", ...
    public var description: String {
        switch self {
        case .off: "off"
        case .fatal: "fatal"
        case .error: "error"
        case .warn: "warn"
        case .info: "info"
        case .detail: "detail"
        case .debug: "debug"
        case .trace: "trace"
        case .all: "all"
        }
    }
}

/// What a `Logger` calls with each message it reports.
public typealias LogFunction = @Sendable (LogLevel, String) -> Void

/// Where Strata reports what it does: opening files, migrations, compaction on launch,
/// deleting a file that needed a migration, and recoveries (the slots of processes that died
/// with a file open). As in RealmSwift, set `Logger.shared` to a logger of your own, or
/// change its `level`; the default writes `warn` and more important messages to standard
/// error, so that services and tools print nothing in normal work.
public final class Logger: Sendable {
    private let threshold: Mutex<LogLevel>
    private let logFunction: LogFunction

    /// A logger that calls `logFunction` with each message at `level` or more important.
    public init(level: LogLevel, logFunction: @escaping LogFunction) {
        threshold = Mutex(level)
        self.logFunction = logFunction
    }

    /// The least important level reported; `.off` reports nothing.
    public var level: LogLevel {
        get { threshold.withLock { $0 } }
        set { threshold.withLock { $0 = newValue } }
    }

    /// The logger Strata reports to, in every thread.
    public static var shared: Logger {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    private static let current = Mutex(Logger(level: .warn) { level, message in
        FileHandle.standardError.write(Data("Strata \(level): \(message)\n".utf8))
    })

    /// Reports `message` at `level` when this logger's level includes it.
    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        let threshold = self.level
        guard level != .off, threshold != .off, level.rawValue <= threshold.rawValue else { return }
        logFunction(level, message())
    }

    /// Sends the storage layer's messages to `shared`; evaluated once, when a Realm first opens.
    static let storageMessages: Void = StorageLog.install { level, message in
        switch level {
        case .info: Logger.shared.log(.info, message)
        }
    }
}
