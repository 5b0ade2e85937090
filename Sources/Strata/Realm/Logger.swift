import Foundation
import StrataStorage
import Synchronization

/// How much a `Logger` reports, least first: a logger at `info` reports `fatal`, `error`,
/// `warn` and `info` messages. RealmSwift's levels.
public enum LogLevel: Int, Sendable, CustomStringConvertible {
    case off, fatal, error, warn, info, detail, debug, trace, all

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
        case .warn: Logger.shared.log(.warn, message)
        case .info: Logger.shared.log(.info, message)
        case .detail: Logger.shared.log(.detail, message)
        }
    }
}
