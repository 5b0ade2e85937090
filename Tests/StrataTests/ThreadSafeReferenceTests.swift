import Foundation
import StrataStorage
import XCTest
@testable import Strata

/// `ThreadSafeReference(to:)` and `Realm.resolve(_:)`: objects, results, lists and linking
/// objects handed to another thread, resolved once, nil when deleted.
final class ThreadSafeReferenceTests: StrataTestCase {
    private var config: Realm.Configuration { configuration(types: shipTypes) }
    private func open() throws -> Realm { try Realm(configuration: config) }

    func testAnObjectIsResolvedOnAnotherThreadOnce() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let reference = ThreadSafeReference(to: ship)
        XCTAssertFalse(reference.isInvalidated)
        let config = config
        let name = try onNewThread {
            let other = try Realm(configuration: config)
            let resolved = try XCTUnwrap(other.resolve(reference))
            XCTAssertFalse(resolved.isFrozen)
            try other.write { resolved.name = "Pelican" }
            return resolved.name
        }
        XCTAssertEqual(name, "Pelican")
        XCTAssertTrue(reference.isInvalidated, "a reference resolves once")
        realm.refresh()
        XCTAssertEqual(ship.name, "Pelican")
    }

    func testResultsAreResolvedWithTheirQueryAndOrder() throws {
        let realm = try open()
        try seedShip(realm)
        let results = realm.objects(Sailor.self).filter("rank != 2").sorted(byKeyPath: "rank", ascending: false)
        let reference = ThreadSafeReference(to: results)
        let config = config
        let ids = try onNewThread {
            let other = try Realm(configuration: config)
            let resolved = try XCTUnwrap(other.resolve(reference))
            let before = resolved.map(\.id)
            try other.write { other.create(Sailor.self, value: ["id": 4, "rank": 9]) }
            return (before, resolved.map(\.id))
        }
        XCTAssertEqual(ids.0, [3, 1])
        XCTAssertEqual(ids.1, [4, 3, 1], "the resolved results are live")
    }

    /// RealmSwift's `testPassThreadSafeReferenceToResults`: a Realm that has read nothing
    /// resolves results at the version the reference was made at, and moves with refresh().
    func testResultsResolveAtTheVersionTheReferenceWasMadeAt() throws {
        let realm = try open()
        let all = realm.objects(Sailor.self)
        let results = all.filter("name != 'C'").sorted(byKeyPath: "name", ascending: false)
        let reference = ThreadSafeReference(to: results)
        try realm.write {
            for name in ["A", "B", "C", "D"] { realm.create(Sailor.self, value: ["id": name.unicodeScalars.first!.value, "name": name]) }
        }
        XCTAssertEqual(results.map(\.name), ["D", "B", "A"])
        let config = config
        let seen = try onNewThread { () -> [[String]] in
            let other = try Realm(configuration: config)
            let resolved = try XCTUnwrap(other.resolve(reference))
            let before = [resolved.map(\.name), ["\(other.objects(Sailor.self).count)"]]
            XCTAssertTrue(other.refresh())
            try other.write {
                other.delete(resolved[2])
                other.delete(resolved[0])
                other.create(Sailor.self, value: ["id": 69, "name": "E"])
            }
            return before + [resolved.map(\.name)]
        }
        XCTAssertEqual(seen, [[], ["0"], ["E", "B"]])
        XCTAssertEqual(results.map(\.name), ["D", "B", "A"], "this Realm has not refreshed")
        realm.refresh()
        XCTAssertEqual(results.map(\.name), ["E", "B"])
    }

    /// A Realm that has read already keeps its version: the reference's snapshot is let go.
    func testResultsResolveAtTheResolvingRealmsVersionWhenItHasRead() throws {
        let realm = try open()
        let reference = ThreadSafeReference(to: realm.objects(Sailor.self))
        try seedShip(realm)
        let config = config
        let count = try onNewThread { () -> Int in
            let other = try Realm(configuration: config)
            XCTAssertEqual(other.objects(Ship.self).count, 1)
            return try XCTUnwrap(other.resolve(reference)).count
        }
        XCTAssertEqual(count, 3)
    }

    /// The snapshot a reference to results holds is let go with the reference.
    func testAnUnresolvedReferenceToResultsReleasesItsVersion() throws {
        let realm = try open()
        let version = realm.version
        var reference: ThreadSafeReference<Results<Sailor>>? = ThreadSafeReference(to: realm.objects(Sailor.self))
        try seedShip(realm)
        XCTAssertEqual(pinnedVersion(realm), version, "held by the reference")
        XCTAssertNotNil(reference)
        reference = nil
        XCTAssertNotEqual(pinnedVersion(realm), version)
    }

    func testAListIsResolvedAndChangedOnAnotherThread() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let roster = ThreadSafeReference(to: ship.roster), logbook = ThreadSafeReference(to: ship.logbook)
        let config = config
        try onNewThread {
            let other = try Realm(configuration: config)
            let resolvedRoster = try XCTUnwrap(other.resolve(roster))
            let resolvedLogbook = try XCTUnwrap(other.resolve(logbook))
            XCTAssertEqual(resolvedRoster.map(\.id), [1, 2, 3])
            try other.write {
                resolvedRoster.remove(at: 1)
                resolvedLogbook.append("anchored")
            }
        }
        realm.refresh()
        XCTAssertEqual(ship.roster.map(\.id), [1, 3])
        XCTAssertEqual(Array(ship.logbook), ["cast off", "anchored"])
    }

    func testLinkingObjectsAreResolvedOnAnotherThread() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let reference = ThreadSafeReference(to: ship.aboard)
        let config = config
        let ids = try onNewThread {
            try XCTUnwrap(try Realm(configuration: config).resolve(reference)).map(\.id).sorted()
        }
        XCTAssertEqual(ids, [1, 2, 3])
    }

    func testAFrozenObjectResolvesToTheLiveObject() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let reference = ThreadSafeReference(to: ship.freeze())
        try realm.write { ship.name = "Pelican" }
        let config = config
        let (name, isFrozen) = try onNewThread {
            let resolved = try XCTUnwrap(try Realm(configuration: config).resolve(reference))
            return (resolved.name, resolved.isFrozen)
        }
        XCTAssertEqual(name, "Pelican")
        XCTAssertFalse(isFrozen)
    }

    /// As RealmSwift: a Realm that has read nothing yet resolves a reference at its version,
    /// where an object deleted since still exists, until `refresh()`; a Realm reading a
    /// version after the deletion resolves it to nil.
    func testWhatWasDeletedResolvesAtTheReferencesVersionOrToNil() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let sailor = ThreadSafeReference(to: ship.roster[0])
        let shipReference = ThreadSafeReference(to: ship)
        let roster = ThreadSafeReference(to: ship.roster)
        let later = (ThreadSafeReference(to: ship.roster[0]), ThreadSafeReference(to: ship), ThreadSafeReference(to: ship.roster))
        try realm.write {
            realm.delete(ship.roster[0])
            realm.delete(ship)
        }
        let config = config
        let (atItsVersion, afterRefresh, inANewerRealm) = try onNewThread {
            let other = try Realm(configuration: config)
            let found = (other.resolve(sailor), other.resolve(shipReference), other.resolve(roster))
            let atItsVersion = (found.0?.name, found.1?.name, found.2?.count)
            other.refresh()
            let afterRefresh = (found.0?.isInvalidated, found.1?.isInvalidated)
            _ = other.objects(Sailor.self).count  // reading the newest version now
            let nilNow = (other.resolve(later.0) == nil, other.resolve(later.1) == nil, other.resolve(later.2) == nil)
            return ("\(atItsVersion)", "\(afterRefresh)", "\(nilNow)")
        }
        XCTAssertEqual(atItsVersion, "(Optional(\"s1\"), Optional(\"Hind\"), Optional(3))")
        XCTAssertEqual(afterRefresh, "(Optional(true), Optional(true))")
        XCTAssertEqual(inANewerRealm, "(true, true, true)")
    }

    /// The resolving Realm is behind the reference's version (its autorefresh is off): it is
    /// refreshed first, so the new object is found.
    func testResolvingRefreshesARealmThatIsBehindTheReference() throws {
        let realm = try open()
        try seedShip(realm)
        let owner = RunLoopThread()
        defer { owner.stop() }
        let config = config
        let before = try owner.sync {
            let other = try Realm(configuration: config)
            other.autorefresh = false
            return (other, other.objects(Sailor.self).count)
        }
        XCTAssertEqual(before.1, 3)
        let sailor = try realm.write { realm.create(Sailor.self, value: ["id": 9, "name": "new"]) }
        let reference = ThreadSafeReference(to: sailor)
        let (name, count) = try owner.sync {
            let other = before.0
            return (other.resolve(reference)?.name, other.objects(Sailor.self).count)
        }
        XCTAssertEqual(name, "new")
        XCTAssertEqual(count, 4)
    }

    /// A reference made inside the write that creates the object resolves to it once the write
    /// has committed, even in a Realm that was at the version the write started from.
    func testAReferenceMadeInAWriteResolvesAfterTheCommit() throws {
        let realm = try open()
        try seedShip(realm)
        let owner = RunLoopThread()
        defer { owner.stop() }
        let config = config
        let other = try owner.sync {
            let other = try Realm(configuration: config)
            other.autorefresh = false
            _ = other.objects(Sailor.self).count
            return other
        }
        realm.beginWrite()
        let reference = ThreadSafeReference(to: realm.create(Sailor.self, value: ["id": 10, "name": "made in a write"]))
        try realm.commitWrite()
        XCTAssertEqual(try owner.sync { other.resolve(reference)?.name }, "made in a write")
    }

    func testAReferencePinsItsVersionUntilResolved() throws {
        let realm = try open()
        let ship = try seedShip(realm)
        let version = realm.version
        let reference = ThreadSafeReference(to: ship)
        for i in 20..<23 { try realm.write { realm.create(Sailor.self, value: ["id": i]) } }
        XCTAssertEqual(pinnedVersion(realm), version, "held for a Realm that has read nothing yet")
        XCTAssertEqual(realm.resolve(reference)?.name, "Hind")
        let pinned = pinnedVersion(realm)
        XCTAssertTrue(pinned == nil || pinned! > version, "let go once resolved: \(String(describing: pinned))")
    }

    func testAReferenceToAnotherFileResolvesToNil() throws {
        let realm = try open()
        let reference = ThreadSafeReference(to: try seedShip(realm))
        let elsewhere = try Realm(configuration: configuration("other.strata", types: shipTypes))
        try seedShip(elsewhere)
        XCTAssertNil(elsewhere.resolve(reference))
        XCTAssertTrue(reference.isInvalidated)
    }

    func testMisusingReferencesTraps() throws {
        try assertProbeTraps("testResolveReferenceTwice", saying: "Can only resolve a thread safe reference once.")
        try assertProbeTraps("testReferenceToUnmanagedObject", saying: "Cannot construct reference to unmanaged object")
    }
}
