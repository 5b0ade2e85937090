import Foundation
import XCTest
import Strata

/// Queries on the value under one key of a map (`stock['eggs'] > 3`): comparisons, a missing
/// key as nil, string operators, maps of objects followed through their links, the
/// type-safe form's text, and errors for a subscript on what is not a map.
final class MapKeyQueryTests: StrataTestCase {
    private func seeded() throws -> Realm {
        let realm = try openRealm(types: [Pantry.self, Companion.self])
        try realm.write {
            let rex = realm.create(Companion.self, value: ["name": "Rex", "age": 9])
            realm.create(Pantry.self, value: ["id": 1, "stock": ["eggs": 12, "apples": 3], "notes": ["eggs": "fresh", "milk": nil],
                                              "pets": ["guard": rex]])
            realm.create(Pantry.self, value: ["id": 2, "stock": ["eggs": 2], "notes": ["eggs": "old"]])
            realm.create(Pantry.self, value: ["id": 3])
        }
        return realm
    }

    func testComparesTheValueUnderAKey() throws {
        let realm = try seeded()
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock['eggs'] > 3").map(\.id), [1])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock['eggs'] == %@", 2).map(\.id), [2])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock[\"apples\"] >= 3").map(\.id), [1])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock['eggs'] BETWEEN {1, 5}").map(\.id), [2])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock['eggs'] IN {2, 12}").map(\.id).sorted(), [1, 2])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("notes['eggs'] BEGINSWITH[c] 'F'").map(\.id), [1])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock['eggs'] > 3 OR notes['eggs'] == 'old'").map(\.id).sorted(), [1, 2])
    }

    func testAMissingKeyReadsNil() throws {
        let realm = try seeded()
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock['flour'] == nil").map(\.id).sorted(), [1, 2, 3])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock['eggs'] == nil").map(\.id), [3])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock['eggs'] != 12").map(\.id).sorted(), [2, 3])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("notes['milk'] == nil").map(\.id).sorted(), [1, 2, 3],
                       "a nil stored under a key and a missing key both read nil")
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("stock['flour'] > 0").count, 0)
    }

    func testFollowsAMapOfObjects() throws {
        let realm = try seeded()
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("pets['guard'].age > 5").map(\.id), [1])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("pets['guard'].name == 'Rex'").map(\.id), [1])
        XCTAssertEqual(try realm.objects(Pantry.self).throwingFilter("pets['cat'].name == 'Rex'").count, 0)
    }

    func testSubscriptOnWhatIsNotAMapIsAnError() throws {
        let realm = try seeded()
        let pantries = realm.objects(Pantry.self)
        for (query, expected) in [("id['a'] == 1", "'id' is an int, not a map"),
                                  ("stock[1] == 1", "expected a string key after 'stock['"),
                                  ("stock['a' == 1", "expected ']' after the map key")] {
            XCTAssertThrowsError(try pantries.throwingFilter(query), query) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(query): \(error)")
            }
        }
    }
}
