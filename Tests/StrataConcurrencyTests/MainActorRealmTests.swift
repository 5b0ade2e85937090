import Foundation
import Strata
import XCTest

/// A global actor of the tests' own, so that a task can run isolated to an actor other than
/// the main one.
@globalActor
private actor BackgroundActor {
    static let shared = BackgroundActor()
}

/// A Realm isolated to the main actor (`Realm.asyncOpen(configuration:)`, RealmSwift's
/// `try await Realm()` there): `@MainActor` code uses it across suspensions, and it sees
/// other threads' commits.
final class MainActorRealmTests: ConcurrencyTestCase {
    @MainActor
    func testMainActorCodeUsesItsRealmAcrossSuspensions() async throws {
        let configuration = configuration()
        let realm = try await Realm.asyncOpen(configuration: configuration)
        try await realm.asyncWrite { realm.add(StressItem(value: ["id": 1, "tag": "main"])) }
        try await Task.detached { try ConcurrencyTestCase.insert(2...3, configuration) }.value
        await realm.asyncRefresh()
        XCTAssertEqual(realm.objects(StressItem.self).sorted(byKeyPath: "id").map(\.id), [1, 2, 3])
        let same = try await Realm(configuration: configuration, actor: MainActor.shared)
        XCTAssertEqual(same.objects(StressItem.self).count, 3, "one instance per actor and configuration")
    }

    /// The main actor holds a write open while a task on another actor waits in `asyncWrite`:
    /// cancelling the task ends its wait (its block never runs), and the main actor, which
    /// awaits the task meanwhile, then cancels its own write.
    @MainActor
    func testAnAsyncWriteWaitingForTheMainActorsWriteEndsWhenItsTaskIsCancelled() async throws {
        let configuration = configuration()
        let realm = try await Realm(configuration: configuration, actor: MainActor.shared)
        realm.beginWrite()
        realm.add(StressItem(value: ["id": 1, "tag": "main"]))
        let opened = AsyncStream<Void>.makeStream()
        let task = Task { @BackgroundActor in
            let background = try await Realm(configuration: configuration, actor: BackgroundActor.shared)
            opened.continuation.yield()
            try await background.asyncWrite { background.add(StressItem(value: ["id": 2, "tag": "background"])) }
        }
        for await _ in opened.stream { break }
        Task { @BackgroundActor in task.cancel() }
        do {
            try await task.value
            XCTFail("the write of a cancelled task that waited is dropped")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        realm.cancelWrite()
        try await Task.detached { try ConcurrencyTestCase.insert(3...3, configuration) }.value
        await realm.asyncRefresh()
        XCTAssertEqual(realm.objects(StressItem.self).map(\.id), [3], "neither the cancelled write nor the waiting one is kept")
    }

    @MainActor
    func testOpenIsTheMainActorsRealmAndThrowsWhatOpeningThrows() async throws {
        let configuration = configuration()
        try ConcurrencyTestCase.insert(1...2, configuration)
        let realm = try await Realm.open(configuration: configuration)
        XCTAssertEqual(realm.objects(StressItem.self).count, 2)
        let again = try await Realm.asyncOpen(configuration: configuration)
        try await again.asyncWrite { again.add(StressItem(value: ["id": 3, "tag": "main"])) }
        XCTAssertEqual(realm.objects(StressItem.self).count, 3, "one instance for the main actor and the configuration")

        var missing = configuration
        missing.fileURL = URL(fileURLWithPath: "/no/such/directory/file.strata")
        do {
            _ = try await Realm.open(configuration: missing)
            XCTFail("a file in a missing directory cannot be opened")
        } catch let error as Realm.Error {
            XCTAssertEqual(error.code, .fileNotFound, "\(error)")
        }
    }
}
