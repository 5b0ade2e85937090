import Foundation
import XCTest
import Strata

final class Shelf: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var counts: List<Int?>
    @Persisted var sizes: MutableSet<Int8>
    @Persisted var labels: Map<String, String?>
    @Persisted var born = Date(timeIntervalSince1970: 0)
    @Persisted var weight = 0.0
}

/// A model in RealmSwift's older style, its Foundation object types under `@Persisted`.
final class Clipping: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title: NSString = ""
    @Persisted var subtitle: NSString?
    @Persisted var scan: NSData?
    @Persisted var taken: NSDate?
}

/// RealmSwift's APIs shaped by Objective-C: lists' and sets' `value(forKey:)` as
/// `[AnyObject]`, `Map.object(forKey: AnyObject)`, aggregates as `NSNumber` and `NSDate`,
/// `dynamicBridgeCast(fromObjectiveC:)`, and `_RealmSchemaDiscoverable` in generic code.
final class ObjectiveCShapesTests: StrataTestCase {
    private func shelves() throws -> (Realm, Shelf) {
        let realm = try openRealm(types: [Shelf.self])
        let shelf = try realm.write {
            realm.create(Shelf.self, value: ["id": 2, "born": Date(timeIntervalSince1970: 20), "weight": 1.5])
            return realm.create(Shelf.self, value: ["id": 1, "counts": [3, nil, 5], "sizes": [7, 7, 9],
                                                    "labels": ["a": "x", "b": nil], "born": Date(timeIntervalSince1970: 10), "weight": 2.25])
        }
        return (realm, shelf)
    }

    func testListsAndSetsHandOutOneObjectPerValue() throws {
        let (_, shelf) = try shelves()
        let counts = shelf.counts.value(forKey: "self")
        XCTAssertEqual(counts.count, 3)
        XCTAssertEqual(counts[0] as? Int, 3)
        XCTAssertTrue(counts[1] is NSNull, "nil as NSNull")
        XCTAssertEqual(counts.map { dynamicBridgeCast(fromObjectiveC: $0) as Int? }, [3, nil, 5])
        XCTAssertEqual(shelf.sizes.value(forKey: "self").map { dynamicBridgeCast(fromObjectiveC: $0) as Int8 }.sorted(), [7, 9])
        XCTAssertEqual(shelf.labels.object(forKey: "a" as AnyObject) as? String, "x")
        XCTAssertTrue(shelf.labels.object(forKey: "b" as AnyObject) is NSNull, "a nil value under a key")
        XCTAssertNil(shelf.labels.object(forKey: "c" as AnyObject), "no key")
        XCTAssertNil(shelf.labels.object(forKey: 5 as AnyObject), "a key of another type")
    }

    func testAggregatesAsNSNumberAndNSDate() throws {
        let (realm, _) = try shelves()
        let all = realm.objects(Shelf.self)
        XCTAssertEqual(all.min(ofProperty: "id") as NSNumber?, 1)
        XCTAssertEqual(all.max(ofProperty: "weight") as NSNumber?, 2.25)
        XCTAssertEqual(all.sum(ofProperty: "weight") as NSNumber, 3.75)
        XCTAssertEqual(all.average(ofProperty: "id") as NSNumber?, 1.5)
        XCTAssertEqual(all.min(ofProperty: "born") as NSDate?, NSDate(timeIntervalSince1970: 10))
        XCTAssertEqual(all.max(ofProperty: "born") as NSDate?, NSDate(timeIntervalSince1970: 20))
        XCTAssertNil(all.filter("id > 5").min(ofProperty: "id") as NSNumber?)
    }

    func testAnNSPredicateChoosesObjectsThatStayChosenWhileTheyExist() throws {
        let (realm, shelf) = try shelves()
        let chosen = realm.objects(Shelf.self).filter(NSPredicate { object, _ in (object as! Shelf).weight > 1 })
        XCTAssertEqual(chosen.map(\.id).sorted(), [1, 2])
        XCTAssertEqual(chosen.filter("weight > 2").map(\.id), [1], "a query refines them")
        XCTAssertTrue(chosen.explain().contains("NSPredicate"), chosen.explain())
        try realm.write { realm.delete(shelf) }
        XCTAssertEqual(chosen.map(\.id), [2], "a deleted object leaves them")
        XCTAssertEqual(realm.objects(Shelf.self).filter(NSPredicate(value: false)).count, 0)
        let all = realm.objects(Shelf.self).filter(NSPredicate(value: true))
        XCTAssertEqual(all.count, 1)
        try realm.write { realm.create(Shelf.self, value: ["id": 3]) }
        XCTAssertEqual(all.count, 2, "a constant predicate is a live query")
    }

    func testFoundationObjectTypesAreStoredAsTheirValueTypes() throws {
        let realm = try openRealm(types: [Clipping.self])
        XCTAssertEqual(realm.schema["Clipping"]?.properties.map(\.type), [.int, .string, .string, .data, .date])
        XCTAssertEqual(realm.schema["Clipping"]?.properties.map(\.isOptional), [false, false, true, true, true])
        try realm.write {
            realm.create(Clipping.self, value: ["id": 1, "title": "Moon", "scan": Data([1, 2]), "taken": Date(timeIntervalSince1970: 5)])
            let second = realm.create(Clipping.self, value: ["id": 2])
            second.subtitle = "landing"
        }
        let first = try XCTUnwrap(realm.object(ofType: Clipping.self, forPrimaryKey: 1))
        XCTAssertEqual(first.title, "Moon")
        XCTAssertNil(first.subtitle)
        XCTAssertEqual(first.scan, NSData(data: Data([1, 2])))
        XCTAssertEqual(first.taken, NSDate(timeIntervalSince1970: 5))
        XCTAssertEqual(realm.objects(Clipping.self).filter("subtitle == 'landing'").map(\.id), [2])
        XCTAssertEqual(realm.objects(Clipping.self).max(ofProperty: "taken") as NSDate?, NSDate(timeIntervalSince1970: 5))
    }

    func testBridgeCastConvertsWhatKeyValueCodingHandsOut() {
        XCTAssertEqual(dynamicBridgeCast(fromObjectiveC: NSNumber(value: 7)) as Int16, 7)
        XCTAssertEqual(dynamicBridgeCast(fromObjectiveC: NSNumber(value: 2.5)) as Float, 2.5)
        XCTAssertEqual(dynamicBridgeCast(fromObjectiveC: NSNull()) as String?, nil)
        XCTAssertEqual(dynamicBridgeCast(fromObjectiveC: "s") as String, "s")
        XCTAssertEqual(dynamicBridgeCast(fromObjectiveC: NSNumber(value: 3)) as RPLegacyKind, .three, "an enum from its raw value")
    }

    func testGenericCodeReadsTheSchemaTypeOfAValueType() {
        func describe<V: _RealmSchemaDiscoverable>(_: V.Type) -> String { "\(V._rlmType)\(V._rlmOptional ? "?" : "")" }
        XCTAssertEqual(describe(Int.self), "int")
        XCTAssertEqual(describe(String?.self), "string?")
        XCTAssertEqual(describe(Shelf?.self), "object?")
        XCTAssertEqual(describe(List<Date>.self), "date")
        XCTAssertEqual(describe(AnyRealmValue.self), "any")
        XCTAssertFalse(Int._rlmRequireObjc)
    }
}
