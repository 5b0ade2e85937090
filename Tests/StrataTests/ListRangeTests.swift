import Foundation
import XCTest
@testable import Strata

/// `List.replaceSubrange` and `removeSubrange` (ListTests.swift's `testReplaceRange` and
/// `testRemoveRange` in RealmSwift), managed and unmanaged.
final class ListRangeTests: StrataTestCase {
    func testReplaceSubrangeOfAManagedList() throws {
        let realm = try openRealm(types: [Walker.self])
        let walker = try realm.write { realm.create(Walker.self, value: [1, "Jane", [["a"], ["b"], ["c"]], ["x", "y", "z"], []]) }
        try realm.write {
            walker.dogs.replaceSubrange(1..<2, with: [Pup(value: ["name": "d"]), Pup(value: ["name": "e"])])
            walker.nicknames.replaceSubrange(0...1, with: ["w"])
        }
        XCTAssertEqual(walker.dogs.map(\.name), ["a", "d", "e", "c"])
        XCTAssertEqual(Array(walker.nicknames), ["w", "z"])
        XCTAssertEqual(realm.objects(Pup.self).count, 5, "replaced objects stay in the Realm, new ones are added")
        try realm.write { walker.nicknames.replaceSubrange(2..<2, with: ["end"]) }
        XCTAssertEqual(Array(walker.nicknames), ["w", "z", "end"], "an empty range at the end inserts")
    }

    func testRemoveSubrangeOfAManagedList() throws {
        let realm = try openRealm(types: [Walker.self])
        let walker = try realm.write { realm.create(Walker.self, value: [1, "Jane", [["a"], ["b"], ["c"], ["d"]], [], [1, nil, 3]]) }
        try realm.write {
            walker.dogs.removeSubrange(1..<3)
            walker.scores.removeSubrange(1...)
        }
        XCTAssertEqual(walker.dogs.map(\.name), ["a", "d"])
        XCTAssertEqual(Array(walker.scores), [1])
        XCTAssertEqual(realm.objects(Pup.self).count, 4)
    }

    func testRangesOfAnUnmanagedList() {
        let walker = Walker(value: [1, "Jane", [], ["x", "y", "z"], []])
        walker.nicknames.replaceSubrange(..<1, with: ["v", "w"])
        XCTAssertEqual(Array(walker.nicknames), ["v", "w", "y", "z"])
        walker.nicknames.removeSubrange(1..<3)
        XCTAssertEqual(Array(walker.nicknames), ["v", "z"])
    }

    func testARangeOutsideTheListTraps() throws {
        try assertProbeTraps("testReplaceSubrangePastTheEnd", saying: "Range 1..<4 is out of bounds (the list has 3 elements)")
    }

    func testARangeOutsideAWriteTraps() throws {
        try assertProbeTraps("testRemoveSubrangeOutsideAWrite", saying: "Attempting to modify object outside of a write transaction")
    }
}
