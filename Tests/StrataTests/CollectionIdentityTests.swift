import Foundation
import Strata
import XCTest

final class CIShelf: Object {
    @Persisted var rank = 0
    @Persisted var titles: List<String>
    @Persisted var codes: MutableSet<Int>
    @Persisted var prices: Map<String, Double>
}

/// A property's list, set or map is one collection per accessor, managed or not, as in
/// RealmSwift: every read gives the same one, assigning copies elements into it, and key-value
/// coding reads and writes the same one.
final class CollectionIdentityTests: StrataTestCase {
    func testAnUnmanagedObjectKeepsOneCollectionPerProperty() {
        let shelf = CIShelf()
        let titles = shelf.titles, codes = shelf.codes, prices = shelf.prices
        XCTAssertTrue(shelf.value(forKey: "titles") as AnyObject === titles)
        shelf.titles = List<String>()
        shelf.setValue(["a", "b"], forKey: "titles")
        XCTAssertEqual(Array(titles), ["a", "b"], "key-value coding copies into the list the object keeps")
        shelf.setValue(shelf.value(forKey: "titles"), forKey: "titles")
        XCTAssertEqual(Array(titles), ["a", "b"], "assigning the list to itself keeps it")
        shelf.setValue([3, 4], forKey: "codes")
        shelf.setValue(["x": 1.5], forKey: "prices")
        XCTAssertEqual(Set(codes), [3, 4])
        XCTAssertEqual(prices["x"], 1.5)
        shelf.setValue(NSNull(), forKey: "titles")
        XCTAssertEqual(titles.count, 0)
        XCTAssertTrue(shelf.titles === titles)
    }

    func testAManagedObjectHandsOutOneCollectionPerProperty() throws {
        let realm = try openRealm(types: [CIShelf.self])
        try realm.write {
            for rank in 0..<4 { realm.add(CIShelf(value: ["rank": rank, "titles": Array(repeating: "t", count: rank)])) }
        }
        let shelf = try XCTUnwrap(realm.objects(CIShelf.self).first)
        let titles = shelf.titles
        XCTAssertTrue(shelf.titles === titles)
        XCTAssertTrue(shelf.value(forKey: "titles") as AnyObject === titles)
        XCTAssertTrue(shelf.codes === shelf.codes)
        XCTAssertTrue(shelf.prices === shelf.prices)
        try realm.write {
            let other = List<String>()
            other.append(objectsIn: ["x", "y"])
            shelf.titles = other
            XCTAssertEqual(Array(titles), ["x", "y"])
            shelf.setValue(["z"], forKey: "titles")
            XCTAssertEqual(Array(titles), ["z"])
        }
        // A loop's recycled accessor hands out each object's own collection.
        XCTAssertEqual(realm.objects(CIShelf.self).map { $0.titles.count }, [1, 1, 2, 3])
        var counts: [Int] = []
        for shelf in realm.objects(CIShelf.self) { counts.append(shelf.titles.count) }
        XCTAssertEqual(counts, [1, 1, 2, 3])
    }

    func testACollectionOutlivesTheAccessorItCameFrom() throws {
        let realm = try openRealm(types: [CIShelf.self])
        try realm.write { realm.add(CIShelf(value: ["rank": 7, "titles": ["a", "b", "c"]])) }
        var shelf: CIShelf? = realm.objects(CIShelf.self).first
        weak let accessor = shelf
        let titles = shelf!.titles
        shelf = nil
        XCTAssertNil(accessor, "the collection holds its object weakly: no cycle")
        XCTAssertEqual(Array(titles), ["a", "b", "c"])
        try realm.write { titles.append("d") }
        XCTAssertEqual(realm.objects(CIShelf.self).first?.titles.count, 4)
        let frozen = try XCTUnwrap(realm.objects(CIShelf.self).first?.freeze())
        XCTAssertEqual(frozen.titles.count, 4)
    }
}
