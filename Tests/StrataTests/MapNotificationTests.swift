import Foundation
import XCTest
import Strata

/// `Map.observe`: `.initial`, then `.update` by key (deleted, inserted and modified keys),
/// delivered on this thread's run loop; object maps report changed value objects.
final class MapNotificationTests: StrataTestCase {
    private struct Update: Equatable {
        var deletions: [String], insertions: [String], modifications: [String]
        init(_ d: [String], _ i: [String], _ m: [String]) { (deletions, insertions, modifications) = (d, i, m) }
    }

    /// What an observer was told: the keys at `.initial`, then each update.
    private final class Recorder<Value: RealmCollectionValue> {
        var initial: [String]?
        var updates: [Update] = []

        func observe(_ map: Map<String, Value>, keyPaths: [String]? = nil) -> NotificationToken {
            map.observe(keyPaths: keyPaths) { [self] change in
                switch change {
                case .initial(let map): initial = map.keys
                case let .update(_, deletions, insertions, modifications):
                    updates.append(Update(deletions, insertions, modifications))
                case .error(let error): XCTFail("\(error)")
                }
            }
        }
    }

    private func open() throws -> Realm { try openRealm(types: [Pantry.self, Companion.self]) }

    func testAMapOfValuesReportsKeys() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": ["a": 1, "b": 2]]) }
        let recorder = Recorder<Int>()
        let token = recorder.observe(pantry.stock)
        defer { token.invalidate() }
        runRunLoop { recorder.initial != nil }
        XCTAssertEqual(recorder.initial, ["a", "b"])

        func commit(_ body: () -> Void) throws {
            let count = recorder.updates.count
            try realm.write(body)
            runRunLoop { recorder.updates.count > count }
        }
        try commit { pantry.stock["c"] = 3 }
        try commit { pantry.stock["a"] = 10 }
        try commit { pantry.stock.removeObject(for: "b") }
        try commit { pantry.stock = Map() }
        XCTAssertEqual(recorder.updates, [Update([], ["c"], []), Update([], [], ["a"]), Update(["b"], [], []), Update(["a", "c"], [], [])])
    }

    func testKeyPathsChooseWhichChangesOfTheValueObjectsAreReported() throws {
        let realm = try open()
        let pantry = Pantry(value: ["id": 1])
        pantry.pets["rex"] = Companion(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add(pantry) }
        let recorder = Recorder<Companion?>()
        let token = recorder.observe(pantry.pets, keyPaths: ["age"])
        defer { token.invalidate() }
        runRunLoop { recorder.initial != nil }
        try realm.write { pantry.pets["rex"]!!.name = "Rexy" }
        drain()
        XCTAssertEqual(recorder.updates, [], "a change of a property not named is not reported")
        try realm.write { pantry.pets["rex"]!!.age = 4 }
        runRunLoop { !recorder.updates.isEmpty }
        XCTAssertEqual(recorder.updates, [Update([], [], ["rex"])])
    }

    func testAnUnchangedValueIsNotReported() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": ["a": 1]]) }
        let recorder = Recorder<Int>()
        let token = recorder.observe(pantry.stock)
        defer { token.invalidate() }
        runRunLoop { recorder.initial != nil }
        try realm.write { pantry.stock["a"] = 1 }
        try realm.write { pantry.stock["z"] = 26 }
        runRunLoop { !recorder.updates.isEmpty }
        XCTAssertEqual(recorder.updates, [Update([], ["z"], [])], "writing the same value changes nothing")
    }

    func testAMapOfObjectsReportsAChangedObjectAndAllKeysWhenItsOwnerIsDeleted() throws {
        let realm = try open()
        let pantry = Pantry(value: ["id": 1])
        pantry.pets["rex"] = Companion(value: ["name": "Rex"])
        pantry.pets["tom"] = Companion(value: ["name": "Tom"])
        try realm.write { realm.add(pantry) }
        let recorder = Recorder<Companion?>()
        let token = recorder.observe(pantry.pets)
        defer { token.invalidate() }
        runRunLoop { recorder.initial != nil }
        try realm.write { pantry.pets["tom"]??.age = 4 }
        runRunLoop { !recorder.updates.isEmpty }
        XCTAssertEqual(recorder.updates, [Update([], [], ["tom"])])
        try realm.write { realm.delete(pantry) }
        runRunLoop { recorder.updates.count > 1 }
        XCTAssertEqual(recorder.updates.last, Update(["rex", "tom"], [], []))
    }
}
