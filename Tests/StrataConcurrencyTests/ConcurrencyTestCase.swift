import Foundation
import Strata
import Synchronization
import XCTest

/// The worker's model (Stress/Models.swift), declared again here: the schema is matched by
/// class name, so the test and a `strata-stress worker` read and write the same table.
final class StressItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tag = ""
    @Persisted var value = 0
}

/// A fresh directory per test, removed afterwards, and a configuration for a file in it.
class ConcurrencyTestCase: XCTestCase {
    private(set) var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("strata-concurrency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The test's file, holding `StressItem`s; commits are not flushed (nothing here survives
    /// a crash of the machine).
    func configuration() -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: directory.appendingPathComponent("test.strata"),
                                                objectTypes: [StressItem.self])
        configuration.syncOnCommit = false
        return configuration
    }

    /// Adds the items `ids`, one write each, from a Realm of the calling thread.
    static func insert(_ ids: ClosedRange<Int>, _ configuration: Realm.Configuration, tag: String = "thread") throws {
        let realm = try Realm(configuration: configuration)
        for id in ids {
            try realm.write { realm.add(StressItem(value: ["id": id, "tag": tag, "value": id * 10])) }
        }
    }

    /// This process's snapshots of the file: how many it holds open.
    func snapshotsHeld() throws -> Int {
        try Realm.openProcesses(for: configuration()).first { $0.pid == getpid() }?.snapshots ?? 0
    }
}

/// What a consuming task saw of the items sorted by id, one entry per change.
final class Observed: Sendable {
    /// One change: `.initial` or `.update`, the ids then, and the insertions of an update.
    struct Entry: Sendable, Equatable {
        var isInitial: Bool
        var ids: [Int]
        var insertions: [Int] = []
    }

    private let entries = Mutex<[Entry]>([])

    /// Every change seen so far.
    var all: [Entry] { entries.withLock { $0 } }

    /// Consumes `changes` in the caller's isolation until the stream ends (the consuming task
    /// is cancelled).
    func record(_ changes: AsyncStream<RealmCollectionChange<Results<StressItem>>>,
                isolation: isolated (any Actor)? = #isolation) async {
        for await change in changes { note(change) }
    }

    /// Records one change, read where it is delivered.
    func note(_ change: RealmCollectionChange<Results<StressItem>>) {
        switch change {
        case .initial(let items):
            append(Entry(isInitial: true, ids: items.map(\.id)))
        case .update(let items, _, let insertions, _):
            append(Entry(isInitial: false, ids: items.map(\.id), insertions: insertions))
        case .error(let error):
            XCTFail("the change reported \(error)")
        }
    }

    private func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
}

/// Suspends (never blocking a thread) until `condition` holds; fails after `timeout` seconds,
/// a safety net against a hang, not a measurement.
func eventually(_ what: String, timeout: Double = 120, file: StaticString = #filePath, line: UInt = #line,
                _ condition: () throws -> Bool) async rethrows {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while try !condition() && Date() < deadline { try? await Task.sleep(nanoseconds: 2_000_000) }
    let held = try condition()
    XCTAssertTrue(held, "\(what): not within \(Int(timeout)) s", file: file, line: line)
}

/// Fails unless `entries` are one `.initial` with `initial` ids, then updates each adding
/// the next ids of `all` in order (several commits may arrive as one update), ending with
/// all of them: no commit lost, none out of order.
func assertInOrder(_ entries: [Observed.Entry], initial: [Int] = [], all: [Int],
                   file: StaticString = #filePath, line: UInt = #line) {
    guard let first = entries.first else { return XCTFail("no change seen", file: file, line: line) }
    XCTAssertEqual(first, Observed.Entry(isInitial: true, ids: initial), file: file, line: line)
    var seen = initial
    for entry in entries.dropFirst() {
        XCTAssertFalse(entry.isInitial, "one .initial only", file: file, line: line)
        XCTAssertGreaterThan(entry.ids.count, seen.count, "an update adds ids", file: file, line: line)
        XCTAssertEqual(entry.ids, Array(all.prefix(entry.ids.count)), "the ids so far, in commit order", file: file, line: line)
        XCTAssertEqual(entry.insertions, Array(seen.count..<entry.ids.count), "the insertions are the new ids", file: file, line: line)
        seen = entry.ids
    }
    XCTAssertEqual(seen, all, file: file, line: line)
}
