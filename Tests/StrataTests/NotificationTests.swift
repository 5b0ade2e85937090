import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

final class Pet: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
}

final class Toy: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var label = ""
}

final class Shelter: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(originProperty: "shelter") var guests: LinkingObjects<Guest>
}

final class Guest: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var shelter: Shelter?
    @Persisted var nickname = ""
}

final class PetKeeper: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var pet: Pet?
    @Persisted var toys: List<Toy>
}

/// Realm, collection and object notifications, delivered on this thread's run loop.
///
/// The tests run the run loop until the expected callbacks arrive; the deadline only stops a
/// hung test, nothing is timed.
final class NotificationTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Pet.self, Toy.self, StressItem.self, Shelter.self, Guest.self, PetKeeper.self]) }

    private struct Update: Equatable {
        var deletions: [Int], insertions: [Int], modifications: [Int]
        init(_ d: [Int], _ i: [Int], _ m: [Int]) { (deletions, insertions, modifications) = (d, i, m) }
    }

    /// Observes `results`, recording the names at `.initial` and each update.
    private final class Recorder {
        var initial: [String]?
        var updates: [Update] = []
        var names: [[String]] = []
    }

    private func record(_ results: Results<Pet>, keyPaths: [String]? = nil) -> (Recorder, NotificationToken) {
        let recorder = Recorder()
        let token = results.observe(keyPaths: keyPaths) { change in
            switch change {
            case .initial(let r): recorder.initial = r.map(\.name)
            case let .update(r, deletions, insertions, modifications):
                recorder.updates.append(Update(deletions, insertions, modifications))
                recorder.names.append(r.map(\.name))
            case .error(let error): XCTFail("\(error)")
            }
        }
        return (recorder, token)
    }

    func testInitialThenExactIndicesForFilteredSortedResults() throws {
        let realm = try open()
        try realm.write {
            for (id, name, age) in [(1, "b", 5), (2, "d", 6), (3, "f", 7), (4, "x", 1)] {
                realm.add(Pet(value: ["id": id, "name": name, "age": age]))
            }
        }
        let results = realm.objects(Pet.self).filter("age > 2").sorted(byKeyPath: "name")
        let (rec, token) = record(results)
        defer { token.invalidate() }
        XCTAssertNil(rec.initial, "initial is delivered on a later run-loop turn")
        spin { rec.initial != nil }
        XCTAssertEqual(rec.initial, ["b", "d", "f"])

        // Insert "a" (new index 0) and "e" (new index 3).
        try realm.write {
            realm.add(Pet(value: ["id": 5, "name": "a", "age": 9]))
            realm.add(Pet(value: ["id": 6, "name": "e", "age": 9]))
        }
        spin { rec.updates.count == 1 }
        XCTAssertEqual(rec.updates.last, Update([], [0, 3], []))
        XCTAssertEqual(rec.names.last, ["a", "b", "d", "e", "f"])

        // Delete "d" (old 2), modify "f" (old 4), leave the filter: "b" (old 1).
        try realm.write {
            realm.delete(realm.object(ofType: Pet.self, forPrimaryKey: 2)!)
            realm.object(ofType: Pet.self, forPrimaryKey: 3)!.age = 8
            realm.object(ofType: Pet.self, forPrimaryKey: 1)!.age = 0
            realm.object(ofType: Pet.self, forPrimaryKey: 4)!.age = 0  // outside the results
        }
        spin { rec.updates.count == 2 }
        XCTAssertEqual(rec.updates.last, Update([1, 2], [], [4]))
        XCTAssertEqual(rec.names.last, ["a", "e", "f"])

        // A rename that moves "a" to the end: a deletion and an insertion.
        try realm.write { realm.object(ofType: Pet.self, forPrimaryKey: 5)!.name = "z" }
        spin { rec.updates.count == 3 }
        XCTAssertEqual(rec.updates.last, Update([0], [2], []))
        XCTAssertEqual(rec.names.last, ["e", "f", "z"])

        // Two commits before the run loop turns: one update.
        try realm.write { realm.object(ofType: Pet.self, forPrimaryKey: 6)!.age = 10 }
        try realm.write { realm.add(Pet(value: ["id": 7, "name": "c", "age": 3])) }
        spin { rec.updates.count == 4 }
        XCTAssertEqual(rec.updates.last, Update([], [0], [0]))
        XCTAssertEqual(rec.names.last, ["c", "e", "f", "z"])
        drain()
        XCTAssertEqual(rec.updates.count, 4)
    }

    /// As RealmSwift: a write begun before an observer's `.initial` was delivered delivers it
    /// first, of the results before the write, so the write reaches the observer as an update.
    func testAWriteRightAfterObservingReachesTheObserverAsAnUpdate() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1, "name": "b", "age": 5])) }
        let (rec, token) = record(realm.objects(Pet.self).sorted(byKeyPath: "name"))
        defer { token.invalidate() }
        try realm.write { realm.add(Pet(value: ["id": 2, "name": "a", "age": 5])) }
        XCTAssertEqual(rec.initial, ["b"], "the initial notification came when the write began")
        spin { rec.updates.count == 1 }
        XCTAssertEqual(rec.updates.last, Update([], [0], []))
        let keeper = try realm.write { realm.create(PetKeeper.self, value: ["id": 1, "toys": [["id": 1, "label": "ball"]]]) }
        var toyChanges: [String] = []
        let toyToken = keeper.toys.observe { change in
            switch change {
            case .initial(let toys): toyChanges.append("initial \(toys.count)")
            case .update(let toys, _, let insertions, _): toyChanges.append("update \(toys.count) \(insertions)")
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { toyToken.invalidate() }
        realm.beginWrite()
        keeper.toys.append(Toy(value: ["id": 2, "label": "rope"]))
        try realm.commitWrite()
        XCTAssertEqual(toyChanges, ["initial 1"], "beginWrite delivers it too")
        spin { toyChanges.count == 2 }
        XCTAssertEqual(toyChanges, ["initial 1", "update 2 [1]"])
    }

    func testKeyPathsFilterModifications() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1, "name": "a", "age": 1])) }
        let (rec, token) = record(realm.objects(Pet.self), keyPaths: ["name"])
        defer { token.invalidate() }
        spin { rec.initial != nil }
        try realm.write { realm.object(ofType: Pet.self, forPrimaryKey: 1)!.age = 2 }
        try realm.write { realm.add(Toy(value: ["id": 1])) }
        drain()
        XCTAssertEqual(rec.updates, [], "a change of an unobserved property is not reported")
        try realm.write { realm.object(ofType: Pet.self, forPrimaryKey: 1)!.name = "b" }
        spin { rec.updates.count == 1 }
        XCTAssertEqual(rec.updates, [Update([], [], [0])])
    }

    func testUnrelatedClassCommitDoesNotRerunTheQuery() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1, "name": "a", "age": 5])) }
        let recorder = Recorder()
        let token = realm.objects(Pet.self).filter("age > 2").observe { change in
            if case .initial(let r) = change { recorder.initial = r.map(\.name) }
            if case .update = change { recorder.updates.append(Update([], [], [])) }
        }
        defer { token.invalidate() }
        let observer = try XCTUnwrap(token as? CollectionObserver<Pet>)
        spin { recorder.initial != nil }
        let evaluations = observer.evaluations
        for id in 1...3 { try realm.write { realm.add(Toy(value: ["id": id])) } }
        drain()
        XCTAssertEqual(observer.evaluations, evaluations, "commits to another class do not run the query")
        XCTAssertTrue(recorder.updates.isEmpty)
        try realm.write { realm.add(Pet(value: ["id": 2, "name": "b", "age": 9])) }
        spin { recorder.updates.count == 1 }
        XCTAssertEqual(observer.evaluations, evaluations + 1)
    }

    func testObjectChangeAndDeleted() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1, "name": "a", "age": 1])) }
        let pet = realm.object(ofType: Pet.self, forPrimaryKey: 1)!
        var changes: [[String: String]] = []
        var deleted = false
        let token = pet.observe { change in
            switch change {
            case let .change(object, properties):
                XCTAssertEqual(object.id, 1)
                changes.append(Dictionary(uniqueKeysWithValues: properties.map { ($0.name, "\($0.newValue ?? "nil")") }))
                XCTAssertEqual(properties.map { "\($0.oldValue ?? "nil")" }, ["nil", "nil"], "no old values for a change made here, as in RealmSwift")
            case .deleted: deleted = true
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { token.invalidate() }
        try realm.write { pet.age = 2; pet.name = "b" }
        spin { changes.count == 1 }
        XCTAssertEqual(changes, [["age": "2", "name": "b"]])
        try realm.write { realm.add(Pet(value: ["id": 2])) }  // another object of the class
        drain()
        XCTAssertEqual(changes.count, 1)
        try realm.write { realm.delete(pet) }
        spin { deleted }
        XCTAssertEqual(changes.count, 1)
    }

    /// Hands `change` to `body` (a generic function taking `ObjectChange<ObjectBase>`, as
    /// RealmSwift's tests write their checks).
    private func checkChange<T: Equatable, U: Equatable>(_ name: String, _ old: T?, _ new: U?, _ change: ObjectChange<ObjectBase>,
                                                         _ body: (ObjectChange<ObjectBase>) -> Void) {
        body(change)
    }

    /// RealmSwift's form: the block's `ObjectChange<T>` names the type the object is handed
    /// out as (a function of `ObjectChange<ObjectBase>`, or `Pet` through key paths).
    func testTheBlockChoosesTheTypeTheObjectIsHandedOutAs() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1, "name": "a", "age": 1])) }
        let pet = realm.object(ofType: Pet.self, forPrimaryKey: 1)!
        var bases: [ObjectBase] = []
        var deletions = 0
        func record(_ change: ObjectChange<ObjectBase>) {
            switch change {
            case .change(let object, _): bases.append(object)
            case .deleted: deletions += 1
            case .error(let error): XCTFail("\(error)")
            }
        }
        var observed = 0
        let asBase = pet.observe(on: nil) { change in  // T from the body, as RealmSwift infers it
            self.checkChange("age", 1, 2, change, record)
            observed += 1
        }
        var ages: [Int] = []
        let throughKeyPaths = pet.observe(keyPaths: [\Pet.age]) { (change: ObjectChange<Pet>) in
            if case .change(let object, _) = change { ages.append(object.age) }
        }
        defer { asBase.invalidate(); throughKeyPaths.invalidate() }
        try realm.write { pet.age = 2 }
        spin { bases.count == 1 && ages.count == 1 }
        XCTAssertTrue(bases.first === pet, "the observed accessor itself, as ObjectBase")
        XCTAssertEqual(ages, [2])
        try realm.write { pet.name = "b" }  // not a key path `throughKeyPaths` observes
        spin { bases.count == 2 }
        drain()
        XCTAssertEqual(ages, [2])
        try realm.write { realm.delete(pet) }
        spin { deletions == 1 }
    }

    func testPropertyChangesMadeElsewhereCarryTheValueLastReportedAsOldValue() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1, "name": "a", "age": 1])) }
        let pet = realm.object(ofType: Pet.self, forPrimaryKey: 1)!
        var changes: [[String]] = []
        let token = pet.observe(keyPaths: ["age", "name"]) { change in
            if case .change(_, let properties) = change {
                changes.append(properties.map { "\($0.name): \($0.oldValue ?? "nil") -> \($0.newValue ?? "nil")" })
            }
        }
        defer { token.invalidate() }
        let neighbour = try NeighbourRealm(configuration: configuration(types: [Pet.self, Toy.self, StressItem.self, Shelter.self, Guest.self]))
        defer { neighbour.close() }
        func elsewhere(_ change: @escaping (Pet) -> Void) throws {
            _ = try neighbour.run { other in try other.write { change(other.object(ofType: Pet.self, forPrimaryKey: 1)!) } }
        }
        try elsewhere { $0.age = 2 }
        try elsewhere { $0.age = 3 }  // may coalesce with the commit before: old is still 1
        spin { changes.last?.first?.hasSuffix("-> 3") == true }
        XCTAssertEqual(changes.first?.first?.hasPrefix("age: 1 ->"), true)
        try realm.write(withoutNotifying: [token]) { pet.name = "skipped" }
        try elsewhere { $0.name = "b" }
        spin { changes.last == ["name: skipped -> b"] }
        try realm.write { pet.name = "c" }
        spin { changes.last == ["name: nil -> c"] }
    }

    func testRefreshTellsObserversBeforeItReturns() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1, "name": "a", "age": 1])) }
        let pet = realm.object(ofType: Pet.self, forPrimaryKey: 1)!
        var objectChanges = 0, resultsCalls = 0, realmCalls = 0
        let objectToken = pet.observe { _ in objectChanges += 1 }
        let resultsToken = realm.objects(Pet.self).observe { _ in resultsCalls += 1 }
        let realmToken = realm.observe { _, _ in realmCalls += 1 }
        defer { objectToken.invalidate(); resultsToken.invalidate(); realmToken.invalidate() }
        spin { resultsCalls == 1 }
        realm.autorefresh = false
        let neighbour = try NeighbourRealm(configuration: configuration(types: [Pet.self, Toy.self, StressItem.self, Shelter.self, Guest.self]))
        defer { neighbour.close() }
        _ = try neighbour.run { other in try other.write { other.object(ofType: Pet.self, forPrimaryKey: 1)!.age = 2 } }
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual([objectChanges, resultsCalls, realmCalls], [1, 2, 1], "told inside refresh()")
        XCTAssertFalse(realm.refresh(), "nothing newer")
        XCTAssertEqual([objectChanges, resultsCalls, realmCalls], [1, 2, 1])
    }

    /// Key paths through a link, a list and an inverse relationship report changes of the
    /// objects they reach now, as changes of the relationship's property.
    func testKeyPathsThroughRelationshipsReportTheObjectsTheyReach() throws {
        let realm = try openRealm(types: [PetKeeper.self, Pet.self, Toy.self, Shelter.self, Guest.self])
        let keeper = try realm.write {
            realm.create(Shelter.self, value: ["id": 1])
            realm.create(Guest.self, value: ["id": 1, "shelter": ["id": 1]], update: .modified)
            return realm.create(PetKeeper.self, value: ["id": 1, "pet": ["id": 1, "name": "Rex"], "toys": [["id": 1, "label": "ball"]]])
        }
        let shelter = realm.object(ofType: Shelter.self, forPrimaryKey: 1)!
        var keeperChanges: [[String]] = [], shelterChanges: [[String]] = []
        let keeperToken = keeper.observe(keyPaths: ["pet.name", "toys.label"]) { change in
            if case .change(_, let properties) = change { keeperChanges.append(properties.map(\.name)) }
        }
        let shelterToken = shelter.observe(keyPaths: ["guests.nickname"]) { change in
            if case .change(_, let properties) = change { shelterChanges.append(properties.map(\.name)) }
        }
        defer { keeperToken.invalidate(); shelterToken.invalidate() }
        try realm.write { keeper.pet!.name = "Max" }
        spin { keeperChanges.count == 1 }
        try realm.write { keeper.pet!.age = 9 }  // not a watched property
        try realm.write { keeper.toys[0].label = "bone" }
        spin { keeperChanges.count == 2 }
        XCTAssertEqual(keeperChanges, [["pet"], ["toys"]])
        try realm.write { realm.object(ofType: Guest.self, forPrimaryKey: 1)!.nickname = "Bo" }
        spin { shelterChanges.count == 1 }
        XCTAssertEqual(shelterChanges, [["guests"]])
        try realm.write { realm.create(Pet.self, value: ["id": 2, "name": "Other"]).name = "Other2" }  // a pet the keeper does not reach
        drain()
        XCTAssertEqual(keeperChanges.count, 2)
    }

    func testSwiftKeyPathsSelectWhatObjectsAndResultsReport() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1, "name": "a", "age": 1])) }
        let pet = realm.object(ofType: Pet.self, forPrimaryKey: 1)!
        var objectChanges: [[String]] = []
        var resultsUpdates = 0, resultsDelivered = false
        let tokens = [
            pet.observe(keyPaths: [\Pet.name]) { change in
                if case .change(_, let properties) = change { objectChanges.append(properties.map(\.name)) }
            },
            realm.objects(Pet.self).observe(keyPaths: [\Pet.name]) { change in
                if case .update = change { resultsUpdates += 1 }
                resultsDelivered = true
            },
        ]
        defer { tokens.forEach { $0.invalidate() } }
        spin { resultsDelivered }
        try realm.write { pet.age = 2 }  // not observed
        try realm.write { pet.name = "b" }
        spin { objectChanges.count == 1 && resultsUpdates == 1 }
        drain()
        XCTAssertEqual(objectChanges, [["name"]])
        XCTAssertEqual(resultsUpdates, 1)
    }

    /// RealmSwift's key-path observation of a `LinkingObjects` property: the object is told
    /// when the objects linking to it change, and not when a linking object's other
    /// properties change.
    func testObservingLinkingObjectsByName() throws {
        let realm = try openRealm(types: shipTypes)
        let ship = try seedShip(realm)
        var changes: [[String]] = []
        let token = ship.observe(keyPaths: ["aboard"]) { change in
            if case .change(_, let properties) = change {
                changes.append(properties.map { "\($0.name): \(($0.newValue as? LinkingObjects<Sailor>)?.count ?? -1)" })
            }
        }
        defer { token.invalidate() }
        try realm.write { ship.aboard[0].rank = 9 }
        try realm.write { ship.name = "not observed" }
        drain()
        XCTAssertEqual(changes, [])
        try realm.write { ship.aboard.first { $0.id == 2 }!.ship = nil }
        spin { changes.count == 1 }
        XCTAssertEqual(changes, [["aboard: 2"]])
        try realm.write { realm.create(Sailor.self, value: ["id": 4, "ship": ship]) }
        spin { changes.count == 2 }
        XCTAssertEqual(changes.last, ["aboard: 3"])
    }

    func testObjectKeyPaths() throws {
        let realm = try open()
        try realm.write { realm.add(Pet(value: ["id": 1, "name": "a", "age": 1])) }
        let pet = realm.object(ofType: Pet.self, forPrimaryKey: 1)!
        var names: [[String]] = []
        let token = pet.observe(keyPaths: ["name"]) { change in
            if case .change(_, let properties) = change { names.append(properties.map(\.name)) }
        }
        defer { token.invalidate() }
        try realm.write { pet.age = 2 }
        drain()
        XCTAssertEqual(names, [])
        try realm.write { pet.age = 3; pet.name = "b" }
        spin { names.count == 1 }
        XCTAssertEqual(names, [["name"]])
    }

    func testRealmObserveAndInvalidate() throws {
        let realm = try open()
        var calls = 0
        let token = realm.observe { notification, observed in
            XCTAssertEqual(notification, .didChange)
            XCTAssertEqual(observed, realm)
            calls += 1
        }
        try realm.write { realm.add(Pet(value: ["id": 1])) }
        spin { calls == 1 }
        realm.writeAsync { realm.add(Pet(value: ["id": 2])) }
        spin { calls == 2 }
        try realm.write {}
        XCTAssertEqual(calls, 3, "a local write that changes nothing is told too, inside the commit")
        token.invalidate()
        try realm.write { realm.add(Pet(value: ["id": 3])) }
        drain()
        XCTAssertEqual(calls, 3, "no delivery after invalidate()")
    }

    func testReleasingTheTokenStopsDelivery() throws {
        let realm = try open()
        var calls = 0
        var token: NotificationToken? = realm.observe { _, _ in calls += 1 }
        try realm.write { realm.add(Pet(value: ["id": 1])) }
        spin { calls == 1 }
        XCTAssertNotNil(token)
        token = nil
        try realm.write { realm.add(Pet(value: ["id": 2])) }
        drain()
        XCTAssertEqual(calls, 1)
    }

    func testWriteWithoutNotifyingSkipsOnlyThoseTokens() throws {
        let realm = try open()
        let (skipped, skippedToken) = record(realm.objects(Pet.self))
        let (other, otherToken) = record(realm.objects(Pet.self))
        defer { skippedToken.invalidate(); otherToken.invalidate() }
        spin { skipped.initial != nil && other.initial != nil }
        try realm.write(withoutNotifying: [skippedToken]) { realm.add(Pet(value: ["id": 1, "name": "a"])) }
        spin { other.updates.count == 1 }
        drain()
        XCTAssertEqual(skipped.updates, [])
        try realm.write { realm.add(Pet(value: ["id": 2, "name": "b"])) }
        spin { skipped.updates.count == 1 && other.updates.count == 2 }
        XCTAssertEqual(skipped.updates, [Update([], [1], [])], "indices relative to the skipped commit's state")
        XCTAssertEqual(other.updates.last, Update([], [1], []))
    }

    func testRefreshAfterAnotherThreadCommitDeliversTheUpdate() throws {
        let realm = try open()
        realm.autorefresh = false  // the snapshot moves only with refresh() (CoordinationTests: with autorefresh)
        let (rec, token) = record(realm.objects(Pet.self).sorted(byKeyPath: "id"))
        defer { token.invalidate() }
        spin { rec.initial != nil }
        let configuration = realm.configuration
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(Pet(value: ["id": 1, "name": "t"])) }
            done.signal()
        }
        writer.start()
        done.wait()
        drain()
        XCTAssertEqual(rec.updates, [], "the snapshot has not moved yet")
        XCTAssertTrue(realm.refresh())
        spin { rec.updates.count == 1 }
        XCTAssertEqual(rec.updates, [Update([], [0], [])])
        XCTAssertEqual(rec.names, [["t"]])
    }

    func testRefreshAfterAnotherProcessCommitDeliversTheUpdate() throws {
        let realm = try open()
        realm.autorefresh = false  // the snapshot moves only with refresh() (CoordinationTests: with autorefresh)
        let items = realm.objects(StressItem.self).sorted(byKeyPath: "id")
        var initial: [Int]?
        var updates: [Update] = []
        let token = items.observe { change in
            switch change {
            case .initial(let r): initial = r.map(\.id)
            case let .update(_, d, i, m): updates.append(Update(d, i, m))
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { token.invalidate() }
        spin { initial != nil }
        let worker = try WorkerProcess.stress(["worker", "insert", "--file", fileURL().path, "--from", "1", "--count", "3"])
        try worker.waitForSuccess()
        drain()
        XCTAssertEqual(updates, [], "the snapshot has not moved yet")
        XCTAssertTrue(realm.refresh())
        spin { updates.count == 1 }
        XCTAssertEqual(updates, [Update([], [0, 1, 2], [])])
    }

    func testLinkingObjectsUpdates() throws {
        let realm = try open()
        try realm.write {
            let shelter = realm.create(Shelter.self, value: ["id": 1])
            realm.create(Guest.self, value: ["id": 1, "shelter": shelter])
            realm.create(Guest.self, value: ["id": 2])
        }
        let shelter = realm.object(ofType: Shelter.self, forPrimaryKey: 1)!
        var initial: [Int]?
        var updates: [Update] = []
        let token = shelter.guests.observe { change in
            switch change {
            case .initial(let guests): initial = guests.map(\.id)
            case let .update(_, d, i, m): updates.append(Update(d, i, m))
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { token.invalidate() }
        spin { initial != nil }
        XCTAssertEqual(initial, [1])
        try realm.write { realm.object(ofType: Guest.self, forPrimaryKey: 2)!.shelter = shelter }
        spin { updates.count == 1 }
        XCTAssertEqual(updates.last, Update([], [1], []))
        try realm.write { realm.object(ofType: Guest.self, forPrimaryKey: 1)!.shelter = nil }
        spin { updates.count == 2 }
        XCTAssertEqual(updates.last, Update([0], [], []))
    }

    func testDiffPairsRepeatedKeysAndTreatsReplacedKeysAsNew() {
        var delta = ClassDelta()
        let moved = CollectionDiff(old: [1, 2, 3, 2], new: [2, 1, 3, 2, 4], delta: delta, mask: .max)
        XCTAssertEqual(moved.deletions, [0])
        XCTAssertEqual(moved.insertions, [1, 4])
        delta.deleted = [3]
        delta.modified = [1: 1]
        let replaced = CollectionDiff(old: [1, 2, 3], new: [1, 2, 3], delta: delta, mask: .max)
        XCTAssertEqual(replaced.deletions, [2])
        XCTAssertEqual(replaced.insertions, [2])
        XCTAssertEqual(replaced.modifications, [0])
    }
}
