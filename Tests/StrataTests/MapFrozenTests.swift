import Foundation
import XCTest
import Strata

/// Frozen maps: a frozen map reads the version it was frozen at, thaws to the live map, and
/// thaws to nil once its object is deleted.
final class MapFrozenTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Pantry.self, Companion.self]) }

    func testAFrozenMapKeepsItsVersionAndThawsToTheLiveMap() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": ["a": 1, "b": 2]]) }
        let frozen = pantry.stock.freeze()
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertFalse(pantry.stock.isFrozen)
        XCTAssertFalse(Map<String, Int>().isFrozen, "an unmanaged map is not frozen")
        XCTAssertTrue(frozen.freeze() === frozen, "freezing a frozen map gives itself")
        try realm.write {
            pantry.stock["a"] = nil
            pantry.stock["c"] = 3
        }
        XCTAssertEqual(frozen.keys, ["a", "b"])
        XCTAssertEqual(frozen["a"], 1)
        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(thawed.keys, ["b", "c"])
        let live = pantry.stock
        XCTAssertTrue(live.thaw() === live, "a live map thaws to itself")
    }

    func testThawingTheMapOfADeletedObjectGivesNil() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": ["a": 1]]) }
        let frozen = pantry.stock.freeze()
        try realm.write { realm.delete(pantry) }
        XCTAssertEqual(frozen["a"], 1, "the frozen version still has it")
        XCTAssertNil(frozen.thaw())
    }
}
