import Foundation
import XCTest
import Strata

final class Bag: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var items: List<AnyRealmValue>
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

    func testAggregatesOverMixedValuesTakeTheNumbersAsRealmSwiftDoes() throws {
        let realm = try openRealm(types: [Bag.self])
        let bag = try realm.write { realm.create(Bag.self, value: ["id": 1]) }
        let unmanaged = Bag()
        XCTAssertEqual(bag.items.sum(), .decimal128(0), "a managed list sums no numbers to a decimal zero")
        XCTAssertEqual(unmanaged.items.sum(), .int(0), "an unmanaged one to an integer zero")
        XCTAssertEqual(bag.labels.sum(), .int(0), "a map to an integer zero")
        XCTAssertNil(bag.items.average() as AnyRealmValue?)
        XCTAssertNil(bag.items.min())
        let values: [AnyRealmValue] = [.int(1), .string("skipped"), .double(2.5), .float(0.5), .decimal128(Decimal128(6)), .none]
        try realm.write {
            bag.items.append(objectsIn: values)
            for (i, v) in values.enumerated() { bag.labels["k\(i)"] = v }
        }
        unmanaged.items.append(objectsIn: values)
        XCTAssertEqual(bag.items.sum(), .decimal128(Decimal128(10)))
        XCTAssertEqual(bag.labels.sum(), .decimal128(Decimal128(10)))
        XCTAssertEqual(unmanaged.items.sum(), .double(10))
        XCTAssertEqual(bag.items.average(), AnyRealmValue.decimal128(Decimal128(2.5)))
        XCTAssertEqual(unmanaged.items.average(), AnyRealmValue.double(2.5))
        // Mixed values order numbers among themselves, and kinds by kind: numbers before strings.
        XCTAssertEqual(bag.items.min(), .float(0.5))
        XCTAssertEqual(bag.items.max(), .string("skipped"))
        XCTAssertEqual(unmanaged.items.min(), .float(0.5))
    }

    func testKeyValueCodingHandsOutWhatMixedValuesHold() throws {
        let realm = try openRealm(types: [Bag.self])
        let bag = try realm.write { () -> Bag in
            let bag = realm.create(Bag.self, value: ["id": 1])
            bag.items.append(objectsIn: [.int(7), .string("s")])
            bag.things.insert(.bool(true))
            bag.labels["n"] = .double(1.5)
            bag.labels["s"] = .string("x")
            return bag
        }
        XCTAssertEqual(bag.labels.value(forKey: "n") as? Double, 1.5)
        XCTAssertEqual(bag.labels.value(forKey: "s") as? String, "x")
        XCTAssertNil(bag.labels.value(forKey: "missing"))
        let items = bag.items.value(forKey: "self")
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items[0] as? Int, 7)
        XCTAssertEqual(items[1] as? String, "s")
        XCTAssertEqual(bag.things.value(forKey: "self").first as? Bool, true)
        let members = try XCTUnwrap(AnyRealmCollection(bag.things).value(forKey: "self") as? Set<AnyHashable>, "through RealmCollection: a set")
        XCTAssertEqual(members.first?.base as? Bool, true)
        XCTAssertTrue(bag.labels.contains { key, value in key == "s" && value == .string("x") })
        XCTAssertFalse(bag.labels.contains { key, _ in key == "missing" })
    }
}
