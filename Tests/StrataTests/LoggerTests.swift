import Foundation
import Synchronization
import StrataTestSupport
import XCTest
import Strata

/// `Logger`: RealmSwift's levels and custom sink, and what Strata reports to it: opens,
/// migrations, compaction on launch, a file deleted for a migration, and the slots of
/// processes that died with a file open.
final class LoggerTests: StrataTestCase {
    /// The messages a test's logger received, in order.
    private final class Messages: Sendable {
        let all = Mutex<[(LogLevel, String)]>([])
        func texts(_ level: LogLevel? = nil) -> [String] {
            all.withLock { $0.filter { level == nil || $0.0 == level }.map(\.1) }
        }
    }

    private var previous: Logger?

    override func tearDown() {
        if let previous { Logger.shared = previous }
        super.tearDown()
    }

    /// Installs a logger at `level` that collects its messages.
    private func collecting(_ level: LogLevel) -> Messages {
        let messages = Messages()
        previous = previous ?? Logger.shared
        Logger.shared = Logger(level: level) { level, message in messages.all.withLock { $0.append((level, message)) } }
        return messages
    }

    func testOpeningAFileIsReportedAtInfoAndFilteredAboveIt() throws {
        let quiet = collecting(.warn)
        try closingRealms { _ = try openRealm("quiet.strata", types: [Dog.self]) }
        XCTAssertEqual(quiet.texts(), [], "info messages are below warn")

        let messages = collecting(.info)
        let path = fileURL().path
        try closingRealms { _ = try openRealm(types: [Dog.self]) }
        XCTAssertTrue(messages.texts(.info).contains("Opened '\(path)'"), "\(messages.texts())")

        // RealmSwift's tests look for realm-core's "DB:" lines at detail and trace levels.
        let traced = collecting(.trace)
        try closingRealms { _ = try openRealm(types: [Dog.self]) }
        XCTAssertTrue(traced.texts(.detail).contains { $0.hasPrefix("DB: ") && $0.hasSuffix("Open file: \(path)") }, "\(traced.texts())")
        XCTAssertTrue(traced.texts(.trace).contains { $0.hasPrefix("DB: ") && $0.contains(path) }, "\(traced.texts())")

        Logger.shared.level = .off
        try closingRealms { _ = try openRealm("off.strata", types: [Dog.self]) }
        XCTAssertFalse(messages.texts().contains { $0.contains("off.strata") }, "a level changed later applies at once")
        XCTAssertEqual(LogLevel.detail.description, "detail")
        XCTAssertLessThan(LogLevel.warn.rawValue, LogLevel.info.rawValue, "RealmSwift's order: fatal, error, warn, info, ...")
    }

    func testMigrationCompactionAndDeletionAreReported() throws {
        let messages = collecting(.info)
        var config = configuration(types: [Dog.self])
        try closingRealms { _ = try Realm(configuration: config) }
        config.schemaVersion = 2
        try closingRealms { _ = try Realm(configuration: config) }
        XCTAssertTrue(messages.texts().contains("Migrated '\(fileURL().path)' from schema version 0 to 2"), "\(messages.texts())")

        config.shouldCompactOnLaunch = { _, _ in true }
        try closingRealms { _ = try Realm(configuration: config) }
        XCTAssertTrue(messages.texts().contains { $0.hasPrefix("Compacted '\(fileURL().path)' on launch") }, "\(messages.texts())")

        config.shouldCompactOnLaunch = nil
        config.schemaVersion = 3
        config.deleteRealmIfMigrationNeeded = true
        try closingRealms { _ = try Realm(configuration: config) }
        XCTAssertTrue(messages.texts().contains { $0.hasPrefix("Deleted '\(fileURL().path)' because its schema needed a migration") },
                      "\(messages.texts())")
    }

    func testTheSlotsOfAProcessKilledWithTheFileOpenAreReportedFreed() throws {
        let path = fileURL().path
        try WorkerProcess.stress(["worker", "insert", "--file", path, "--from", "1", "--count", "2"]).waitForSuccess()
        let reader = try WorkerProcess.stress(["worker", "hold-read", "--file", path])
        _ = try reader.expectLine(startingWith: "OPEN")
        reader.kill()
        try reader.waitForExit()

        let messages = collecting(.info)
        try closingRealms { _ = try openRealm(types: [StressItem.self]) }
        XCTAssertTrue(messages.texts(.info).contains { $0.hasPrefix("Freed the slot of 1 process that died with '\(path).lock' open") },
                      "\(messages.texts())")
    }
}
