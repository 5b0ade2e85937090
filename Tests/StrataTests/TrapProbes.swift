import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// Misuses of frozen data and thread-safe references that trap, as in RealmSwift. Each runs
/// alone in a child process started by `assertProbeTraps`, which checks the message; in a
/// normal run they are skipped.
final class TrapProbes: StrataTestCase {
    /// Set in the child's environment to the directory the probe works in.
    static let variable = "STRATA_TRAP_PROBE"

    override func setUpWithError() throws {
        let path = ProcessInfo.processInfo.environment[Self.variable]
        try XCTSkipUnless(path != nil, "runs only in a child process")
        directory = URL(fileURLWithPath: path!)
    }

    /// A Realm with one ship holding one sailor.
    private func openWithShip() throws -> (Realm, Ship) {
        let realm = try openRealm(types: shipTypes)
        let ship = try realm.write { realm.create(Ship.self, value: ["id": 1, "name": "Hind", "roster": [["id": 1]]]) }
        return (realm, ship)
    }

    func testWrapAnUnmanagedObjectAsThreadSafe() {
        @ThreadSafe var dog = Dog()
        XCTAssertNil(dog, "not reached: wrapping an unmanaged object traps")
    }

    func testSetPropertyOfFrozenObject() throws {
        let (_, ship) = try openWithShip()
        ship.freeze().name = "Golden Hind"
    }

    func testAppendToFrozenList() throws {
        let (_, ship) = try openWithShip()
        ship.freeze().logbook.append("storm")
    }

    func testWriteOnFrozenRealm() throws {
        let (realm, _) = try openWithShip()
        try realm.freeze().write {}
    }

    func testEnableAutorefreshOnFrozenRealm() throws {
        let (realm, _) = try openWithShip()
        realm.freeze().autorefresh = true
    }

    func testObserveFrozenResults() throws {
        let (realm, _) = try openWithShip()
        _ = realm.objects(Ship.self).freeze().observe { _ in }
    }

    func testObserveFrozenRealm() throws {
        let (realm, _) = try openWithShip()
        _ = realm.freeze().observe { _, _ in }
    }

    func testObserveFrozenObject() throws {
        let (_, ship) = try openWithShip()
        _ = ship.freeze().observe { _ in }
    }

    func testFreezeUnmanagedObject() throws {
        _ = Ship().freeze()
    }

    func testReferenceToUnmanagedObject() throws {
        _ = ThreadSafeReference(to: Ship())
    }

    func testResolveReferenceTwice() throws {
        let (realm, ship) = try openWithShip()
        let reference = ThreadSafeReference(to: ship)
        _ = realm.resolve(reference)
        _ = realm.resolve(reference)
    }

    func testLookupByPrimaryKeyOfAClassWithoutOne() throws {
        let realm = try openRealm(types: [Note.self])
        _ = realm.object(ofType: Note.self, forPrimaryKey: 1)
    }

    func testFreezeObjectCreatedInTheOpenWrite() throws {
        let (realm, _) = try openWithShip()
        realm.beginWrite()
        _ = realm.create(Ship.self, value: ["id": 2]).freeze()
    }

    func testAskIfAnObjectWithADamagedRowIsInvalidated() throws {
        let (realm, ship) = try openWithShip()
        try StorageFixtures.damageRow(path: realm.configuration.fileURL!.path, className: "Ship", key: ship.objectKey)
        realm.refresh()  // not invalidate(): that would invalidate the ship without reading its row
        _ = ship.isInvalidated
    }

    func testFilterAListOfValues() throws {
        let (_, ship) = try openWithShip()
        _ = ship.logbook.filter("entry BEGINSWITH 'c'")
    }

    func testSetLinkingObjectsByName() throws {
        let (realm, ship) = try openWithShip()
        try realm.write { ship["aboard"] = [] }
    }

    func testReplaceSubrangePastTheEnd() throws {
        let (realm, ship) = try openWithShip()
        try realm.write { ship.logbook.append(objectsIn: ["a", "b", "c"]) }
        try realm.write { ship.logbook.replaceSubrange(1..<4, with: ["d"]) }
    }

    func testRemoveSubrangeOutsideAWrite() throws {
        let (realm, ship) = try openWithShip()
        try realm.write { ship.logbook.append(objectsIn: ["a", "b"]) }
        ship.logbook.removeSubrange(0..<1)
    }

    func testReadPropertyOfObjectOfInvalidatedRealm() throws {
        let (realm, ship) = try openWithShip()
        realm.invalidate()
        _ = ship.name
    }

    func testIterateAClassWithADamagedRow() throws {
        let (realm, ship) = try openWithShip()
        realm.invalidate()
        try StorageFixtures.damageRow(path: realm.configuration.fileURL!.path, className: "Ship", key: ship.objectKey)
        for _ in realm.objects(Ship.self) {}
    }

    /// A sailor's link names its ship, whose row and every backlink are gone: following the
    /// link and reading the ship in the same snapshot is reading damage, not a deleted object.
    func testFollowALinkToAnObjectWhoseRowAndBacklinksAreGone() throws {
        let (realm, ship) = try openWithShip()
        try realm.write { ship.roster[0].ship = ship }
        let key = ship.objectKey
        realm.invalidate()
        try StorageFixtures.removeRow(path: realm.configuration.fileURL!.path, className: "Ship", key: key, clearingBacklinks: true)
        _ = realm.objects(Sailor.self).first!.ship!.name
    }

    /// The ship's backlinks name a sailor whose row is gone: deleting the ship, which clears
    /// the links to it, meets damage, not a sailor deleted since.
    func testDeleteAnObjectWhoseBacklinkNamesAMissingRow() throws {
        let (realm, ship) = try openWithShip()
        try realm.write { ship.roster[0].ship = ship }
        let sailor = ship.roster[0].objectKey
        realm.invalidate()
        try StorageFixtures.removeRow(path: realm.configuration.fileURL!.path, className: "Sailor", key: sailor)
        try realm.write { realm.delete(realm.objects(Ship.self)) }
    }

    func testReadAShipDeletedAfterItsSailorLedToIt() throws {
        let (realm, ship) = try openWithShip()
        try realm.write { ship.roster[0].ship = ship }
        let reached = realm.objects(Sailor.self).first!.ship!
        try realm.write { realm.delete(realm.objects(Ship.self)) }
        _ = reached.name
    }

    /// A Realm with one `DynOwner` (key 1) and its pet.
    private func openWithDynamicOwner() throws -> (Realm, DynamicObject) {
        let realm = try openRealm(types: [DynOwner.self, DynPet.self])
        try realm.write { realm.create(DynOwner.self, value: ["id": 1, "name": "Ann", "pets": [["name": "Rex"]]]) }
        return (realm, realm.dynamicObject(ofType: "DynOwner", forPrimaryKey: 1)!)
    }

    func testObjectsOfTheBaseClass() throws {
        _ = try openWithDynamicOwner().0.objects(Object.self).count
    }

    func testDynamicObjectsOfAnUnknownClass() throws {
        _ = try openWithDynamicOwner().0.dynamicObjects("Nope")
    }

    func testDynamicReadOfAnUnknownProperty() throws {
        _ = try openWithDynamicOwner().1["nope"]
    }

    func testDynamicWriteOfAWrongType() throws {
        let (realm, ann) = try openWithDynamicOwner()
        try realm.write { ann["age"] = "old" }
    }

    func testDynamicLinkToAnotherClass() throws {
        let (realm, ann) = try openWithDynamicOwner()
        try realm.write { ann["best"] = ann }
    }

    func testDynamicWriteOfAPrimaryKey() throws {
        let (realm, ann) = try openWithDynamicOwner()
        try realm.write { ann["id"] = 5 }
    }

    /// Dogs 1 to 2,000, whose rows fill several leaf pages under a branch page (the Realm is
    /// closed when this returns).
    private func writeTwoThousandDogs() throws {
        let realm = try openRealm(types: [Dog.self])
        try realm.write {
            for id in 1...2_000 { realm.add(Dog(value: ["id": id, "name": "dog number \(id) of the kennel"])) }
        }
    }

    /// 2,000 dogs, then a damaged branch page hides the last rows of their table; the last
    /// dog is read from the file opened read-only again.
    func testLastOfAClassWhoseLastRowsAreHidden() throws {
        try writeTwoThousandDogs()
        _ = try BranchPageDamage.dropLastChildOfEachBranchPage(path: fileURL().path)
        var configuration = configuration(types: [Dog.self])
        configuration.readOnly = true
        let realm = try Realm(configuration: configuration)
        XCTAssertEqual(realm.objects(Dog.self).last?.id, 2_000, "not reached: the walk finds the damage and traps")
    }

    func testWriteIntoAPageWhoseFreeSpaceIsDamaged() throws {
        try writeTwoThousandDogs()
        // The last leaf, where the next dog goes: its free space ends before it begins.
        var bytes = try Data(contentsOf: fileURL())
        let page = bytes.range(of: Data("dog number 2000 of the kennel".utf8))!.lowerBound / 4096 * 4096
        let lower = Int(bytes[page + 12]) | Int(bytes[page + 13]) << 8
        bytes[page + 14] = UInt8((lower - 2) & 0xFF)
        bytes[page + 15] = UInt8((lower - 2) >> 8)
        try bytes.write(to: fileURL())
        let realm = try openRealm(types: [Dog.self])
        try realm.write { realm.add(Dog(value: ["id": 2_001, "name": "a dog too many"])) }
        XCTFail("not reached: the page's check (or LMDB's assertion on the page) stops the write, and the process")
    }

    func testWriteThroughABranchPageWhoseHeaderClaimsMoreThanAPage() throws {
        try writeTwoThousandDogs()
        // Every branch page's free space now ends past the page's end: reads, which search a
        // branch's nodes by their count, pass through it; a write copies the page by what its
        // header says is in use, so LMDB alone would write past its 4 KiB copy.
        var bytes = try Data(contentsOf: fileURL())
        var damaged = 0
        for page in stride(from: 2 * 4096, to: bytes.count, by: 4096) where bytes[page + 10] & 0x01 != 0 {
            bytes[page + 14] = 0x00
            bytes[page + 15] = 0xF0
            damaged += 1
        }
        XCTAssertGreaterThan(damaged, 0)
        try bytes.write(to: fileURL())
        let realm = try openRealm(types: [Dog.self])
        try realm.write { realm.add(Dog(value: ["id": 2_001, "name": "a dog too many"])) }
        XCTFail("not reached: the check of the write's pages stops the write, and the process")
    }
}
