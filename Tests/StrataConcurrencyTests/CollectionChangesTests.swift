import Foundation
import Strata
import Synchronization
import XCTest

/// An object with a set and a map, for their `changes`.
final class Tagged: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
}

/// What a consumer saw, one entry per change, in delivery order.
final class Recorded<Entry: Sendable>: Sendable {
    private let entries = Mutex<[Entry]>([])

    var all: [Entry] { entries.withLock { $0 } }

    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
}

/// Observes the set and the map of the object with id 1 on itself (`observe(on:)`), in the
/// Realm isolated to it, recording what each change shows.
private actor TaggedWatcher {
    private var tokens: [NotificationToken] = []

    func watch(_ configuration: Realm.Configuration, tags: Recorded<[String]>, scoreKeys: Recorded<[String]>) async throws {
        let realm = try await Realm(configuration: configuration, actor: self)
        let tagged = try XCTUnwrap(realm.object(ofType: Tagged.self, forPrimaryKey: 1))
        tokens.append(await tagged.tags.observe(on: self) { _, change in
            switch change {
            case .initial(let set), .update(let set, _, _, _): tags.append(Array(set).sorted())
            case .error(let error): XCTFail("the change reported \(error)")
            }
        })
        tokens.append(await tagged.scores.observe(on: self) { _, change in
            switch change {
            case .initial(let map), .update(let map, _, _, _): scoreKeys.append(Array(map.keys).sorted())
            case .error(let error): XCTFail("the change reported \(error)")
            }
        })
    }

    func stop() {
        for token in tokens { token.invalidate() }
        tokens = []
    }
}

/// `changes` of sets, maps and Realms: each stream is taken where its value lives and sent to a
/// detached task (`changes(keyPaths:)` returns it `sending`), which consumes it with no run loop.
final class CollectionChangesTests: ConcurrencyTestCase {
    private func taggedConfiguration() -> Realm.Configuration {
        var configuration = configuration()
        configuration.objectTypes = [Tagged.self]
        return configuration
    }

    /// Adds the object with id 1, then returns its Realm (of the calling thread).
    private func taggedRealm() throws -> Realm {
        let realm = try Realm(configuration: taggedConfiguration())
        try realm.write { realm.add(Tagged(value: ["id": 1])) }
        return realm
    }

    /// Runs `edit` on the object with id 1 in a write of another thread.
    private func edit(_ configuration: Realm.Configuration, _ edit: @escaping @Sendable (Tagged) -> Void) async throws {
        try await Task.detached {
            let realm = try Realm(configuration: configuration)
            let tagged = try XCTUnwrap(realm.object(ofType: Tagged.self, forPrimaryKey: 1))
            try realm.write { edit(tagged) }
        }.value
    }

    func testASetsChangesReachATaskThatTheStreamWasSentTo() async throws {
        let changes = try XCTUnwrap(try taggedRealm().object(ofType: Tagged.self, forPrimaryKey: 1)).tags.changes(keyPaths: nil)
        let seen = Recorded<[String]>()
        let consumer = Task.detached {
            for await change in changes {
                switch change {
                case .initial(let tags), .update(let tags, _, _, _): seen.append(Array(tags).sorted())
                case .error(let error): XCTFail("the change reported \(error)")
                }
            }
        }
        await eventually("the initial set") { seen.all.count == 1 }
        let configuration = taggedConfiguration()
        for tag in ["a", "b", "c"] { try await edit(configuration) { $0.tags.insert(tag) } }
        await eventually("the three inserts") { seen.all.last == ["a", "b", "c"] }
        XCTAssertEqual(seen.all.first, [])
        for (earlier, later) in zip(seen.all, seen.all.dropFirst()) {
            XCTAssertTrue(Set(earlier).isStrictSubset(of: Set(later)), "each update adds tags: \(seen.all)")
        }
        consumer.cancel()
        await consumer.value
    }

    func testAMapsChangesArriveByKey() async throws {
        let changes = try XCTUnwrap(try taggedRealm().object(ofType: Tagged.self, forPrimaryKey: 1)).scores.changes(keyPaths: nil)
        struct Entry: Sendable, Equatable {
            var scores: [String: Int]
            var insertions: [String] = []
            var modifications: [String] = []
        }
        let seen = Recorded<Entry>()
        let consumer = Task.detached {
            for await change in changes {
                switch change {
                case .initial(let map):
                    seen.append(Entry(scores: Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) })))
                case .update(let map, _, let insertions, let modifications):
                    seen.append(Entry(scores: Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }),
                                      insertions: insertions, modifications: modifications))
                case .error(let error): XCTFail("the change reported \(error)")
                }
            }
        }
        await eventually("the initial map") { seen.all.count == 1 }
        let configuration = taggedConfiguration()
        try await edit(configuration) { $0.scores["x"] = 1 }
        await eventually("the insertion") { seen.all.count == 2 }
        try await edit(configuration) { $0.scores["x"] = 2 }
        await eventually("the modification") { seen.all.count == 3 }
        XCTAssertEqual(seen.all, [Entry(scores: [:]), Entry(scores: ["x": 1], insertions: ["x"]),
                                  Entry(scores: ["x": 2], modifications: ["x"])])
        consumer.cancel()
        await consumer.value
    }

    func testASetAndAMapObservedOnAnActorDeliverThere() async throws {
        _ = try taggedRealm()
        let configuration = taggedConfiguration()
        let tags = Recorded<[String]>(), scoreKeys = Recorded<[String]>()
        let watcher = TaggedWatcher()
        try await watcher.watch(configuration, tags: tags, scoreKeys: scoreKeys)
        await eventually("the initial set and map") { tags.all.count == 1 && scoreKeys.all.count == 1 }
        try await edit(configuration) { $0.tags.insert("a") }
        try await edit(configuration) { $0.scores["x"] = 1 }
        await eventually("the insert and the new key") { tags.all.last == ["a"] && scoreKeys.all.last == ["x"] }
        XCTAssertEqual(tags.all, [[], ["a"]])
        XCTAssertEqual(scoreKeys.all, [[], ["x"]])
        await watcher.stop()
    }

    func testARealmsChangesGiveEachNewVersionFrozen() async throws {
        let configuration = configuration()
        let seen = Recorded<Int>()
        let consumer = Task.detached {
            let realm = try Realm(configuration: configuration)
            for await version in realm.changes {
                XCTAssertTrue(version.isFrozen)
                seen.append(version.objects(StressItem.self).count)
            }
        }
        await eventually("the version the stream started at") { seen.all.count == 1 }
        try await Task.detached { try ConcurrencyTestCase.insert(1...20, configuration) }.value
        await eventually("the twenty commits") { seen.all.last == 20 }
        XCTAssertEqual(seen.all.first, 0)
        XCTAssertEqual(seen.all, seen.all.sorted(), "versions in commit order")
        XCTAssertEqual(Set(seen.all).count, seen.all.count, "one element per version move")
        consumer.cancel()
        try await consumer.value
        try await eventually("the stream's snapshots released") { try snapshotsHeld() == 0 }
    }
}
