import Foundation
import StrataStorage
import XCTest
@testable import Strata

/// Frozen Realms, objects and collections: immutable snapshots of one version, readable from
/// any thread, pinned until released; thawing finds the live value again.
final class FrozenTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: shipTypes) }

    func testAFrozenRealmIsSharedPerVersionAndThawsToTheLiveRealm() throws {
        let realm = try open()
        try seedShip(realm)
        XCTAssertFalse(realm.isFrozen)
        let frozen = realm.freeze()
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertEqual(frozen, realm.freeze(), "the same version gives the same frozen Realm")
        XCTAssertEqual(frozen.version, realm.version)

        try realm.write { realm.create(Sailor.self, value: ["id": 9]) }
        let later = realm.freeze()
        XCTAssertNotEqual(frozen, later)
        XCTAssertEqual(later.version, frozen.version + 1)
        XCTAssertFalse(frozen.refresh(), "a frozen Realm does not move")
        XCTAssertFalse(frozen.autorefresh)
        XCTAssertEqual(frozen.objects(Sailor.self).count, 3)
        XCTAssertEqual(later.objects(Sailor.self).count, 4)
        XCTAssertTrue(frozen.objects(Sailor.self).first!.isFrozen)

        XCTAssertEqual(frozen.thaw(), realm)
        XCTAssertFalse(frozen.thaw().isFrozen)
        XCTAssertEqual(realm.thaw(), realm)
    }

    func testAFrozenObjectEqualsOnlyFrozenObjectsOfItsVersion() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let frozen = ship.freeze()
        XCTAssertNotEqual(ship, frozen, "a frozen object is not its live object")
        XCTAssertEqual(frozen, ship.freeze(), "frozen at the same version")
        XCTAssertEqual(frozen, frozen.freeze())
        XCTAssertEqual(frozen.thaw(), ship)
        try realm.write { ship.name = "Golden Hind" }
        XCTAssertNotEqual(frozen, ship.freeze(), "frozen at another version")
    }

    func testAFrozenObjectKeepsItsVersionWhileTheLiveOneChanges() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let frozen = ship.freeze()
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertFalse(ship.isFrozen)
        XCTAssertTrue(frozen.realm!.isFrozen)
        XCTAssertTrue(frozen.freeze() === frozen)
        XCTAssertTrue(ship.thaw() === ship, "a live object thaws to itself")

        try realm.write {
            ship.name = "Golden Hind"
            ship.roster.removeAll()
            ship.logbook.append("storm")
        }
        XCTAssertEqual(frozen.name, "Hind")
        XCTAssertEqual(frozen.roster.map(\.name), ["s1", "s2", "s3"])
        XCTAssertTrue(frozen.roster[0].isFrozen)
        XCTAssertEqual(frozen.roster[0].ship?.name, "Hind", "links of frozen objects are frozen too")
        XCTAssertEqual(Array(frozen.logbook), ["cast off"])
        XCTAssertEqual(frozen.aboard.count, 3)

        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(thawed.name, "Golden Hind")
        XCTAssertEqual(thawed.roster.count, 0)
        XCTAssertEqual(realm.thaw(thawed), thawed)
        XCTAssertEqual(realm.freeze(ship).name, "Golden Hind")
    }

    func testFrozenResultsAndTheirQueriesReadTheFrozenVersion() throws {
        let realm = try open()
        try seedShip(realm)
        let sailors = realm.objects(Sailor.self).sorted(byKeyPath: "rank", ascending: false)
        let frozen = sailors.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write {
            realm.delete(realm.objects(Sailor.self).filter("id == 2"))
            realm.create(Sailor.self, value: ["id": 4, "rank": 10])
        }
        XCTAssertEqual(frozen.map(\.id), [3, 2, 1])
        XCTAssertEqual(sailors.map(\.id), [4, 3, 1])
        let query = frozen.filter("rank >= 2")
        XCTAssertTrue(query.isFrozen)
        XCTAssertEqual(query.map(\.id), [3, 2])
        XCTAssertEqual(frozen.max(ofProperty: "rank") as Int?, 3)
        XCTAssertEqual(realm.freeze(sailors).map(\.id), [4, 3, 1])

        let thawed = try XCTUnwrap(query.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(thawed.map(\.id), [4, 3])
        XCTAssertEqual(sailors.thaw(), sailors)
    }

    func testFrozenListsAndLinkingObjectsReadTheFrozenVersion() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let roster = ship.roster.freeze(), logbook = ship.logbook.freeze(), aboard = ship.aboard.freeze()
        XCTAssertTrue(roster.isFrozen && logbook.isFrozen && aboard.isFrozen)
        XCTAssertFalse(ship.roster.isFrozen || ship.logbook.isFrozen || ship.aboard.isFrozen)
        try realm.write {
            ship.roster.remove(at: 0)
            ship.logbook.append("storm")
            realm.object(ofType: Sailor.self, forPrimaryKey: 3)!.ship = nil
        }
        XCTAssertEqual(roster.map(\.id), [1, 2, 3])
        XCTAssertEqual(roster.filter("rank > 1").map(\.id), [2, 3])
        XCTAssertEqual(Array(logbook), ["cast off"])
        XCTAssertEqual(aboard.map(\.id).sorted(), [1, 2, 3])

        XCTAssertEqual(try XCTUnwrap(roster.thaw()).map(\.id), [2, 3])
        XCTAssertEqual(Array(try XCTUnwrap(logbook.thaw())), ["cast off", "storm"])
        XCTAssertEqual(try XCTUnwrap(aboard.thaw()).map(\.id).sorted(), [1, 2])
    }

    func testThawingWhatWasDeletedGivesNil() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let frozenShip = ship.freeze(), frozenRoster = ship.roster.freeze(), frozenSailor = ship.roster[0].freeze()
        try realm.write {
            realm.delete(ship)
            realm.delete(realm.objects(Sailor.self).filter("id == 1"))
        }
        XCTAssertEqual(frozenShip.name, "Hind", "the frozen version still has them")
        XCTAssertEqual(frozenRoster.count, 3)
        XCTAssertFalse(frozenSailor.isInvalidated)
        XCTAssertNil(frozenShip.thaw())
        XCTAssertNil(frozenRoster.thaw())
        XCTAssertNil(frozenSailor.thaw())
        XCTAssertNil(realm.thaw(frozenSailor))
    }

    func testFreezingInsideAWriteGivesTheVersionTheWriteStartedFrom() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let before = realm.version
        realm.beginWrite()
        realm.create(Sailor.self, value: ["id": 7])
        ship.name = "Pelican"
        let frozen = realm.freeze()
        let frozenShip = ship.freeze()
        try realm.commitWrite()
        XCTAssertEqual(frozen.version, before)
        XCTAssertEqual(frozen.objects(Sailor.self).count, 3)
        XCTAssertEqual(frozenShip.name, "Hind")
        XCTAssertEqual(realm.objects(Sailor.self).count, 4)
    }

    func testFreezingInAnAsynchronousWriteGivesTheVersionBeforeTheGroup() throws {
        let realm = try open()
        try seedShip(realm)
        let before = realm.version
        var frozen: Realm?
        var completed = false
        realm.writeAsync({
            realm.create(Sailor.self, value: ["id": 7])
            frozen = realm.freeze()
        }, onComplete: { error in
            XCTAssertNil(error)
            completed = true
        })
        runRunLoop { completed }
        XCTAssertEqual(frozen?.version, before)
        XCTAssertEqual(frozen?.objects(Sailor.self).count, 3)
        XCTAssertEqual(realm.objects(Sailor.self).count, 4)
    }

    func testFreezingARealmBehindTheNewestVersionFreezesItsOwnVersion() throws {
        let realm = try open()
        try seedShip(realm)
        XCTAssertEqual(realm.objects(Sailor.self).count, 3)  // holds a snapshot now
        let version = realm.version
        let config = configuration(types: shipTypes)
        try onNewThread {
            let other = try Realm(configuration: config)
            try other.write { other.create(Sailor.self, value: ["id": 8]) }
        }
        let frozen = realm.freeze()
        XCTAssertEqual(frozen.version, version)
        XCTAssertEqual(frozen.objects(Sailor.self).count, 3)
        XCTAssertEqual(realm.objects(Sailor.self).count, 3, "the live Realm stays on its snapshot")
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(realm.objects(Sailor.self).count, 4)
        XCTAssertEqual(frozen.objects(Sailor.self).count, 3)
    }

    func testFrozenDataIsReadOnOtherThreadsAndThawsThere() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let frozenShip = ship.freeze()
        let frozenSailors = realm.objects(Sailor.self).freeze()
        let config = configuration(types: shipTypes)
        let (name, roster, logbook, senior, aboard, thawedName, sameRealm) = try onNewThread {
            let thawed = frozenShip.thaw()
            return (frozenShip.name, frozenShip.roster.map(\.name), Array(frozenShip.logbook),
                    frozenSailors.filter("rank > 1").count, frozenShip.aboard.count, thawed?.name,
                    thawed?.realm == (try Realm(configuration: config)))
        }
        XCTAssertEqual(name, "Hind")
        XCTAssertEqual(roster, ["s1", "s2", "s3"])
        XCTAssertEqual(logbook, ["cast off"])
        XCTAssertEqual(senior, 2)
        XCTAssertEqual(aboard, 3)
        XCTAssertEqual(thawedName, "Hind")
        XCTAssertTrue(sameRealm, "thawing uses that thread's Realm")
        XCTAssertEqual(DispatchQueue(label: "reader").sync { frozenSailors.map(\.rank) }, [1, 2, 3])
    }

    /// Eight threads read the same frozen values at once (one object, one list, results first
    /// evaluated by them) while another thread commits; every read must see the frozen version.
    func testManyThreadsReadOneFrozenVersionAtOnceWhileOthersWrite() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        try realm.write {
            for i in 4...300 {
                let sailor = realm.create(Sailor.self, value: ["id": i, "name": "s\(i)", "rank": i % 17])
                sailor.ship = ship
                if i % 3 == 0 { ship.roster.append(sailor) }
                ship.logbook.append("entry \(i)")
            }
        }
        let expectedRanks = realm.objects(Sailor.self).map(\.rank)
        let expectedRoster = ship.roster.map(\.id)
        let expectedSenior = realm.objects(Sailor.self).filter("rank >= 10").sorted(byKeyPath: "name").map(\.id)
        let frozenShip = ship.freeze()
        let frozenRealm = frozenShip.realm!
        let sailors = frozenRealm.objects(Sailor.self)
        let senior = frozenRealm.objects(Sailor.self).filter("rank >= 10").sorted(byKeyPath: "name")
        // Accessors made without their row (a list element, a link), shared before any read.
        let member = frozenShip.roster[1], memberShip = member.ship!

        let config = configuration(types: shipTypes)
        let writer = Thread {
            let live = try! Realm(configuration: config)
            for round in 0..<20 {
                try! live.write {
                    for sailor in live.objects(Sailor.self).filter("id <= 100") { sailor.rank += 100 }
                    live.delete(live.objects(Sailor.self).filter("id == %@", 150 + round))
                    live.object(ofType: Ship.self, forPrimaryKey: 1)!.logbook.removeFirst()
                }
            }
        }
        writer.start()
        let mismatches = ResultBox<[String]>()
        mismatches.result = .success([])
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 8) { reader in
            for _ in 0..<10 {
                var found: [String] = []
                if sailors.map(\.rank) != expectedRanks { found.append("ranks") }
                if senior.map(\.id) != expectedSenior { found.append("senior results") }
                if frozenShip.roster.map(\.id) != expectedRoster { found.append("roster") }
                if frozenShip.logbook.count != 298 || frozenShip.logbook.first != "cast off" { found.append("logbook") }
                if frozenShip.name != "Hind" || frozenShip.aboard.count != 300 { found.append("ship") }
                if member.id != expectedRoster[1] || member.name != "s\(expectedRoster[1])" || memberShip.name != "Hind" {
                    found.append("shared accessors")
                }
                if sailors.sum(ofProperty: "rank") as Int != expectedRanks.reduce(0, +) { found.append("sum") }
                if !found.isEmpty {
                    lock.withLock { mismatches.result = .success(try! mismatches.result!.get() + found.map { "reader \(reader): \($0)" }) }
                }
            }
        }
        while !writer.isFinished { usleep(1_000) }
        XCTAssertEqual(try mismatches.result!.get(), [])
        realm.refresh()
        XCTAssertEqual(realm.objects(Sailor.self).count, 280, "the writer's commits landed")
        XCTAssertEqual(sailors.count, 300)
    }

    func testAFrozenVersionStaysPinnedUntilReleased() throws {
        let realm = try open()
        try seedShip(realm)
        var frozen: Realm? = realm.freeze()
        let version = frozen!.version
        for i in 10..<15 { try realm.write { realm.create(Sailor.self, value: ["id": i]) } }
        XCTAssertEqual(pinnedVersion(realm), version, "the registry shows the frozen version pinned")
        XCTAssertEqual(frozen!.objects(Sailor.self).count, 3)
        frozen = nil
        let after = pinnedVersion(realm)
        XCTAssertTrue(after == nil || after! > version, "released: \(String(describing: after))")
    }

    /// With a frozen version held, rewriting a 1 MiB value again and again cannot reuse the
    /// pages of the old values, so the file grows; once released, the writes reuse them.
    func testReleasingAFrozenVersionLetsWritersReuseItsPages() throws {
        var config = configuration(types: shipTypes)
        config.syncOnCommit = false
        let realm = try Realm(configuration: config)
        let ship = try realm.write { realm.create(Ship.self, value: ["id": 1, "chart": Data(count: 1 << 20)]) }
        func size() throws -> Int { try XCTUnwrap(FileManager.default.attributesOfItem(atPath: fileURL().path)[.size] as? Int) }
        func rewrite() throws {
            for i in 1...8 { try realm.write { ship.chart = Data(repeating: UInt8(i), count: 1 << 20) } }
        }
        var frozen: Ship? = ship.freeze()
        let start = try size()
        try rewrite()
        let pinnedGrowth = try size() - start
        XCTAssertEqual(frozen?.chart, Data(count: 1 << 20), "the frozen version is still readable")
        frozen = nil
        let released = try size()
        try rewrite()
        let releasedGrowth = try size() - released
        XCTAssertGreaterThan(pinnedGrowth, 4 << 20)
        XCTAssertLessThan(releasedGrowth, pinnedGrowth / 2)
    }

    func testMisusingFrozenDataTraps() throws {
        try assertProbeTraps("testSetPropertyOfFrozenObject", saying: "Attempting to modify a frozen object - call thaw on the Object instance first.")
        try assertProbeTraps("testAppendToFrozenList", saying: "Attempting to modify a frozen object")
        try assertProbeTraps("testWriteOnFrozenRealm", saying: "Can't perform transactions on a frozen Realm")
        try assertProbeTraps("testEnableAutorefreshOnFrozenRealm", saying: "Auto-refresh cannot be enabled for frozen Realms.")
        try assertProbeTraps("testObserveFrozenResults", saying: "Frozen Realms do not change and do not have change notifications.")
        try assertProbeTraps("testObserveFrozenRealm", saying: "Frozen Realms do not change and do not have change notifications.")
        try assertProbeTraps("testObserveFrozenObject", saying: "Frozen Realms do not change and do not have change notifications.")
        try assertProbeTraps("testFreezeUnmanagedObject", saying: "Unmanaged objects cannot be frozen.")
        try assertProbeTraps("testFreezeObjectCreatedInTheOpenWrite", saying: "Cannot freeze an object created in the current write transaction")
    }
}
