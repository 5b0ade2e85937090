import Foundation
import Strata
import Synchronization

/// Actor-isolated writes (Strata only): the time of one no-sync commit adding one stamp, by a
/// thread's `write {}` on its own Realm (the reference), and by a task awaiting a method of an
/// actor that owns a Realm isolated to it, writing with `write {}` or `await asyncWrite {}`.
/// The actor rows are timed by the calling task, so they include the hop onto the actor.
enum ActorWrites {
    static let commits = 2_000

    /// The three rows, each on its own database in `directory`.
    static func measure(_ directory: URL) throws -> [LatencySummary] {
        let onThread = try threadWrites(configuration(directory, "thread"))
        let actorWrite = try awaitedWrites(configuration(directory, "actor-write"), suspending: false)
        let actorAsyncWrite = try awaitedWrites(configuration(directory, "actor-async-write"), suspending: true)
        return [LatencySummary(observer: "write {} on a thread's Realm", durations: onThread),
                LatencySummary(observer: "await actor method, write {}", durations: actorWrite),
                LatencySummary(observer: "await actor method, asyncWrite {}", durations: actorAsyncWrite)]
    }

    private static func configuration(_ directory: URL, _ name: String) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: directory.appendingPathComponent("\(name).realm"),
                                                objectTypes: [LatencyStamp.self])
        configuration.syncOnCommit = false
        return configuration
    }

    private static func threadWrites(_ configuration: Realm.Configuration) throws -> [Double?] {
        let realm = try Realm(configuration: configuration)
        return try (0..<commits).map { seq in
            let start = monotonicSeconds()
            try realm.write { realm.add(LatencyStamp(value: ["seq": seq])) }
            return monotonicSeconds() - start
        }
    }

    /// `writesThroughActor(_:suspending:)` in a detached task, waited for.
    private static func awaitedWrites(_ configuration: Realm.Configuration, suspending: Bool) throws -> [Double?] {
        let outcome = Mutex<Result<[Double?], Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<[Double?], Error>
            do { result = .success(try await writesThroughActor(configuration, suspending: suspending)) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Awaits `commits` calls of `StampActor.add`, one at a time.
    private static func writesThroughActor(_ configuration: Realm.Configuration, suspending: Bool) async throws -> [Double?] {
        let writer = StampActor()
        try await writer.open(configuration)
        var durations: [Double?] = []
        for seq in 0..<commits {
            let start = monotonicSeconds()
            try await writer.add(seq, suspending: suspending)
            durations.append(monotonicSeconds() - start)
        }
        return durations
    }
}

/// An actor owning a Realm of the stamps, isolated to it.
private actor StampActor {
    private var realm: Realm?

    func open(_ configuration: Realm.Configuration) async throws {
        realm = try await Realm(configuration: configuration, actor: self)
    }

    /// Adds stamp `seq` in a `write {}`, or in an `asyncWrite {}` when `suspending`.
    func add(_ seq: Int, suspending: Bool) async throws {
        guard let realm else { throw BenchError("the actor's Realm is not open") }
        if suspending {
            try await realm.asyncWrite { realm.add(LatencyStamp(value: ["seq": seq])) }
        } else {
            try realm.write { realm.add(LatencyStamp(value: ["seq": seq])) }
        }
    }
}
