import Foundation
import XCTest
@testable import Strata

/// `List.observe`: `.initial`, then `.update` with deletions and modifications as indices in
/// the previous list and insertions in the new one, delivered on this thread's run loop.
final class ListNotificationTests: StrataTestCase {
    private struct Update: Equatable {
        var deletions: [Int], insertions: [Int], modifications: [Int]
        init(_ d: [Int], _ i: [Int], _ m: [Int]) { (deletions, insertions, modifications) = (d, i, m) }
    }

    /// What an observer was told: the elements at `.initial`, then each update.
    private final class Recorder<Element: RealmCollectionValue> {
        var initial: [Element]?
        var updates: [Update] = []
        var lists: [[Element]] = []

        func observe(_ list: List<Element>, keyPaths: [String]? = nil) -> NotificationToken {
            list.observe(keyPaths: keyPaths) { [self] change in
                switch change {
                case .initial(let list): initial = Array(list)
                case let .update(list, deletions, insertions, modifications):
                    updates.append(Update(deletions, insertions, modifications))
                    lists.append(list.isInvalidated ? [] : Array(list))  // invalidated: its object was deleted
                case .error(let error): XCTFail("\(error)")
                }
            }
        }
    }

    private func open() throws -> Realm { try openRealm(types: shipTypes) }

    func testAListOfObjectsReportsInsertionsDeletionsModificationsAndMoves() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let recorder = Recorder<Sailor>(), names = Recorder<Sailor>()
        let token = recorder.observe(ship.roster)
        let namesToken = names.observe(ship.roster, keyPaths: ["name"])
        defer { token.invalidate(); namesToken.invalidate() }
        runRunLoop { recorder.initial != nil && names.initial != nil }
        XCTAssertEqual(recorder.initial?.map(\.id), [1, 2, 3])

        func commit(_ body: () -> Void) throws {
            let count = recorder.updates.count
            try realm.write(body)
            runRunLoop { recorder.updates.count > count }
        }
        try commit { ship.roster.append(realm.create(Sailor.self, value: ["id": 4])) }
        try commit { ship.roster.remove(at: 0) }
        try commit { realm.object(ofType: Sailor.self, forPrimaryKey: 3)!.rank = 30 }
        try commit { ship.roster.move(from: 0, to: 2) }
        XCTAssertEqual(recorder.updates, [Update([], [3], []), Update([0], [], []), Update([], [], [1]), Update([0], [2], [])])
        XCTAssertEqual(recorder.lists.last?.map(\.id), [3, 4, 2])
        XCTAssertFalse(names.updates.contains { !$0.modifications.isEmpty }, "a rank change is not a change of `name`")

        try commit { realm.object(ofType: Sailor.self, forPrimaryKey: 4)!.name = "four" }
        XCTAssertEqual(recorder.updates.last, Update([], [], [1]))
        runRunLoop { names.updates.contains { $0.modifications == [1] } }
    }

    func testDeletingTheListsObjectReportsEveryElementDeleted() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let roster = Recorder<Sailor>(), logbook = Recorder<String>()
        let tokens = [roster.observe(ship.roster), logbook.observe(ship.logbook)]
        defer { tokens.forEach { $0.invalidate() } }
        runRunLoop { roster.initial != nil && logbook.initial != nil }
        try realm.write { realm.delete(ship) }
        runRunLoop { !roster.updates.isEmpty && !logbook.updates.isEmpty }
        XCTAssertEqual(roster.updates, [Update([0, 1, 2], [], [])])
        XCTAssertEqual(logbook.updates, [Update([0], [], [])])
    }

    func testAListOfValuesReportsInsertionsAndDeletions() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let recorder = Recorder<String>()
        let token = recorder.observe(ship.logbook)
        defer { token.invalidate() }
        runRunLoop { recorder.initial != nil }
        XCTAssertEqual(recorder.initial, ["cast off"])

        func commit(_ body: () -> Void) throws {
            let count = recorder.updates.count
            try realm.write(body)
            runRunLoop { recorder.updates.count > count }
        }
        try commit { ship.logbook.append(objectsIn: ["storm", "calm"]) }
        try commit { ship.logbook.replace(index: 0, object: "set sail") }
        try commit { ship.logbook.remove(at: 1) }
        XCTAssertEqual(recorder.updates, [Update([], [1, 2], []), Update([0], [0], []), Update([1], [], [])])
        XCTAssertEqual(recorder.lists.last, ["set sail", "calm"])
    }

    /// Commits that leave a list as it was are not reported: after one that changes only the
    /// list's object and another class (delivered: the run loop ran what the commit
    /// scheduled), the next update is the only one.
    func testCommitsThatLeaveTheListAloneAreNotReported() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let roster = Recorder<Sailor>(), logbook = Recorder<String>()
        let tokens = [roster.observe(ship.roster), logbook.observe(ship.logbook)]
        defer { tokens.forEach { $0.invalidate() } }
        runRunLoop { roster.initial != nil && logbook.initial != nil }
        try realm.write {
            ship.name = "Pelican"
            realm.create(Sailor.self, value: ["id": 50])
        }
        runScheduledDeliveries()
        try realm.write {
            ship.roster.append(realm.object(ofType: Sailor.self, forPrimaryKey: 50)!)
            ship.logbook.append("renamed")
        }
        runScheduledDeliveries { !roster.updates.isEmpty && !logbook.updates.isEmpty }
        XCTAssertEqual(roster.updates, [Update([], [3], [])])
        XCTAssertEqual(logbook.updates, [Update([], [1], [])])
    }

    func testInvalidatingTheTokenStopsDelivery() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let stopped = Recorder<String>(), running = Recorder<String>()
        let tokens = [stopped.observe(ship.logbook), running.observe(ship.logbook)]
        defer { tokens[1].invalidate() }
        runRunLoop { stopped.initial != nil && running.initial != nil }
        tokens[0].invalidate()
        try realm.write { ship.logbook.append("storm") }
        runRunLoop { !running.updates.isEmpty }
        XCTAssertEqual(stopped.updates, [])
    }
}
