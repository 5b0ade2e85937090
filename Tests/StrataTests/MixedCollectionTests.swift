import Foundation
import XCTest
import Strata

final class Bag: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var things: MutableSet<AnyRealmValue>
    @Persisted var labels: Map<String, AnyRealmValue>
    @Persisted var mixed: AnyRealmValue
}

/// Sets and maps of `AnyRealmValue`: members of several kinds kept once each (`.none`
/// included), values under keys, and queries over both.
final class MixedCollectionTests: StrataTestCase {
    func testSetsAndMapsOfMixedValues() throws {
        let realm = try openRealm(types: [Bag.self])
        let bag = try realm.write { realm.create(Bag.self, value: ["id": 1]) }
        try realm.write {
            bag.things.insert(.int(1))
            bag.things.insert(.string("a"))
            bag.things.insert(.int(1))
            bag.things.insert(.double(2.5))
            bag.things.insert(AnyRealmValue.none)
            bag.labels["n"] = .int(3)
            bag.labels["s"] = .string("x")
            bag.labels["z"] = AnyRealmValue.none
        }
        XCTAssertEqual(bag.things.count, 4, "a repeated member is kept once")
        XCTAssertTrue(bag.things.contains(.string("a")))
        XCTAssertEqual(bag.labels["n"], .int(3))
        XCTAssertEqual(bag.labels["z"], AnyRealmValue.none)
        XCTAssertEqual(bag.labels.count, 3)
        XCTAssertEqual(realm.objects(Bag.self).filter("ANY things == 'a'").count, 1)
        XCTAssertEqual(realm.objects(Bag.self).filter("labels['n'] == 3").count, 1)
        XCTAssertEqual(realm.objects(Bag.self).filter("ANY labels.@values == 'x'").count, 1)
    }
}
