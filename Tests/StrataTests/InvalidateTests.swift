import Foundation
import XCTest
@testable import Strata

/// `Realm.invalidate()` invalidates what was obtained from the Realm before it (RealmTests.swift's
/// `testInvalidate`); what is obtained afterwards reads the newest version.
final class InvalidateTests: StrataTestCase {
    func testInvalidateInvalidatesObjectsAndCollections() throws {
        let realm = try openRealm(types: shipTypes)
        let ship = try seedShip(realm)
        let sailor = realm.object(ofType: Sailor.self, forPrimaryKey: 1)!
        let roster = ship.roster, logbook = ship.logbook, aboard = ship.aboard
        let results = realm.objects(Sailor.self)
        let filtered = results.filter("rank > 1")
        XCTAssertFalse(ship.isInvalidated)
        XCTAssertFalse(results.isInvalidated)
        realm.invalidate()
        XCTAssertTrue(ship.isInvalidated)
        XCTAssertTrue(sailor.isInvalidated)
        XCTAssertTrue(results.isInvalidated)
        XCTAssertTrue(filtered.isInvalidated)
        XCTAssertTrue(roster.isInvalidated)
        XCTAssertTrue(logbook.isInvalidated)
        XCTAssertTrue(aboard.isInvalidated)
    }

    func testWhatIsObtainedAfterInvalidateIsValid() throws {
        let realm = try openRealm(types: shipTypes)
        let ship = try seedShip(realm)
        realm.invalidate()
        try realm.write { realm.add(Sailor(value: ["id": 4])) }
        XCTAssertTrue(ship.isInvalidated, "an invalidated object stays invalidated")
        let again = realm.object(ofType: Ship.self, forPrimaryKey: 1)!
        XCTAssertFalse(again.isInvalidated)
        XCTAssertEqual(again.roster.count, 3)
        XCTAssertFalse(realm.objects(Sailor.self).isInvalidated)
        XCTAssertEqual(realm.objects(Sailor.self).count, 4)
    }

    func testInvalidateCancelsAnOpenWrite() throws {
        let realm = try openRealm(types: shipTypes)
        realm.beginWrite()
        realm.add(Sailor(value: ["id": 1]))
        realm.invalidate()
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(Sailor.self).count, 0)
    }

    func testUnmanagedAndFrozenObjectsAreNotInvalidated() throws {
        let realm = try openRealm(types: shipTypes)
        let ship = try seedShip(realm)
        let frozen = ship.freeze()
        let unmanaged = Sailor()
        realm.invalidate()
        XCTAssertFalse(unmanaged.isInvalidated)
        XCTAssertFalse(frozen.isInvalidated)
        XCTAssertEqual(frozen.roster.count, 3)
    }

    func testReadingAnObjectOfAnInvalidatedRealmTraps() throws {
        try assertProbeTraps("testReadPropertyOfObjectOfInvalidatedRealm", saying: "Object has been deleted or invalidated: the Realm of this 'Ship' object was invalidated")
    }
}
