import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// A ship and its crew: a to-one link with its inverse, a list of objects and a list of
/// values, for the frozen, thread-safe reference and list notification tests.
final class Ship: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var roster: List<Sailor>
    @Persisted var logbook: List<String>
    @Persisted var chart: Data?
    @Persisted(originProperty: "ship") var aboard: LinkingObjects<Sailor>
}

final class Sailor: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var rank = 0
    @Persisted var ship: Ship?
}

/// The model classes of those tests.
let shipTypes: [ObjectBase.Type] = [Ship.self, Sailor.self]

/// Ship 1 "Hind" with sailors 1, 2, 3 (ranks 1, 2, 3) on its roster and aboard, and the
/// logbook ["cast off"].
@discardableResult
func seedShip(_ realm: Realm) throws -> Ship {
    try realm.write {
        let ship = realm.create(Ship.self, value: ["id": 1, "name": "Hind", "logbook": ["cast off"]])
        for i in 1...3 {
            let sailor = realm.create(Sailor.self, value: ["id": i, "name": "s\(i)", "rank": i])
            sailor.ship = ship
            ship.roster.append(sailor)
        }
        return ship
    }
}

/// Runs this thread's run loop until `done()` holds; fails after `timeout` seconds (a safety
/// net against a hung test, not a measurement).
func runRunLoop(timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line, until done: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !done() && Date() < deadline {
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
    }
    XCTAssertTrue(done(), "not delivered within \(Int(timeout)) s", file: file, line: line)
}

/// Runs this thread's run loop until the blocks performed on it so far have run: the
/// deliveries that commits made until now scheduled.
func runScheduledDeliveries(file: StaticString = #filePath, line: UInt = #line, andUntil done: () -> Bool = { true }) {
    let flushed = ResultBox<Void>()
    RunLoop.current.perform { flushed.result = .success(()) }
    runRunLoop(file: file, line: line) { flushed.result != nil && done() }
}

/// Waits (without a run loop) until `done()` holds; fails after `timeout` seconds.
func waitUntil(timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line, _ done: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !done() && Date() < deadline { usleep(2_000) }
    XCTAssertTrue(done(), "did not happen within \(Int(timeout)) s", file: file, line: line)
}

/// The process's own entry in the coordination file's registry of `realm`'s file: the oldest
/// version its snapshots pin.
func pinnedVersion(_ realm: Realm) -> UInt64? {
    realm.core.file.openProcesses().first { $0.pid == getpid() }?.pinnedVersion
}

/// Runs `body` on a new thread and waits for it; its result comes back.
func onNewThread<T>(_ body: @escaping () throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.result = Result { try body() }
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    done.wait()
    return try box.result!.get()
}

/// Carries a value from one thread to another (the semaphore orders the accesses).
final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Swift.Error>?
}

/// A thread that runs its run loop until stopped; `sync` runs a block on it and waits. The
/// block is scheduled with a timer, which wakes the sleeping run loop.
final class RunLoopThread: @unchecked Sendable {
    // Sendable invariant: `runLoop` is set before `init` returns (the semaphore orders it);
    // `isStopped` is only read and written on the thread itself.
    private var runLoop: RunLoop!
    private var isStopped = false

    init() {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            runLoop = RunLoop.current
            started.signal()
            while !isStopped {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
        started.wait()
    }

    /// Runs `body` on the thread, on a turn of its run loop, and returns its result.
    func sync<T>(_ body: @escaping () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        runLoop.add(Timer(timeInterval: 0, repeats: false) { _ in
            box.result = Result { try body() }
            done.signal()
        }, forMode: .default)
        done.wait()
        return try box.result!.get()
    }

    /// Ends the thread's loop (after the current turn).
    func stop() { try? sync { self.isStopped = true } }
}

/// Runs one of `TrapProbes`' tests in a child process (this test executable) and checks that
/// it traps with `message` on stderr.
func assertProbeTraps(_ probe: String, saying message: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    // The probe traps before its tear-down could remove its files, so its directory is made
    // and removed here.
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("strata-trap-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    setenv(TrapProbes.variable, directory.path, 1)
    let worker = try WorkerProcess(executable, ["StrataTests.TrapProbes/\(probe)"])
    unsetenv(TrapProbes.variable)
    try worker.waitForExit()
    XCTAssertEqual(worker.process.terminationReason, .uncaughtSignal, worker.transcript, file: file, line: line)
    XCTAssertTrue(worker.errorOutput.contains(message), "expected '\(message)' in: \(worker.transcript)", file: file, line: line)
}
