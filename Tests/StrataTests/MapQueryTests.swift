import Foundation
import XCTest
import Strata

/// Queries over maps: their values (`ANY map > x`, `map.@values`, `IN`), their keys
/// (`map.@keys`), `@count` and the aggregates, and the errors for a misplaced `@keys`.
final class MapQueryTests: StrataTestCase {
    private func seeded() throws -> Realm {
        let realm = try openRealm(types: [Pantry.self, Companion.self])
        try realm.write {
            realm.create(Pantry.self, value: ["id": 1, "stock": ["eggs": 12, "apples": 3]])
            realm.create(Pantry.self, value: ["id": 2, "stock": ["flour": 1]])
            realm.create(Pantry.self, value: ["id": 3])
        }
        return realm
    }

    private func ids(_ realm: Realm, _ query: String) throws -> [Int] {
        try realm.objects(Pantry.self).throwingFilter(query).map(\.id).sorted()
    }

    /// The type-safe forms (RealmSwift's `Query` over a map) find what the string forms find.
    func testTypeSafeQueriesOnMaps() throws {
        let realm = try seeded()
        try realm.write {
            realm.object(ofType: Pantry.self, forPrimaryKey: 2)!.pets["rex"] = Companion(value: ["name": "Rex", "age": 4])
        }
        func ids(_ query: (Query<Pantry>) -> Query<Bool>) -> [Int] { realm.objects(Pantry.self).where(query).map(\.id).sorted() }
        XCTAssertEqual(ids { $0.stock["eggs"] == 12 }, try self.ids(realm, "stock['eggs'] == 12"))
        XCTAssertEqual(ids { $0.stock["eggs"] == 12 }, [1])
        XCTAssertEqual(ids { $0.stock["eggs"] != 12 }, [2, 3], "a missing key reads nil")
        XCTAssertEqual(ids { $0.stock.keys == "flour" }, [2])
        XCTAssertEqual(ids { $0.stock.keys.starts(with: "app") }, [1])
        XCTAssertEqual(ids { $0.stock.values > 5 }, [1])
        XCTAssertEqual(ids { $0.stock.count == 0 }, [3])
        XCTAssertEqual(ids { $0.stock.contains(3) }, [1])
        XCTAssertEqual(ids { $0.stock.containsAny(in: [1, 99]) }, [2])
        XCTAssertEqual(ids { $0.stock.sum > 10 }, [1])
        XCTAssertEqual(ids { $0.stock.max < 5 }, [2])
        XCTAssertEqual(ids { $0.stock.contains(3...12) }, [1], "every value in the range")
        XCTAssertEqual(ids { $0.stock.contains(1..<3) }, [2])
        XCTAssertEqual(ids { $0.pets["rex"].age > 3 }, [2], "through a map of objects")
        XCTAssertEqual(ids { $0.pets.values.name == "Rex" }, [2])
    }

    func testComparingTheValues() throws {
        let realm = try seeded()
        XCTAssertEqual(try ids(realm, "ANY stock > 5"), [1])
        XCTAssertEqual(try ids(realm, "ANY stock.@values > 2"), [1])
        XCTAssertEqual(try ids(realm, "ANY stock.@values == 1"), [2])
        XCTAssertEqual(try ids(realm, "3 IN stock"), [1])
        XCTAssertEqual(try ids(realm, "ALL stock.@values < 5"), [2, 3])
    }

    func testComparingTheKeys() throws {
        let realm = try seeded()
        XCTAssertEqual(try ids(realm, "ANY stock.@keys == 'eggs'"), [1])
        XCTAssertEqual(try ids(realm, "ANY stock.@keys BEGINSWITH 'f'"), [2])
        XCTAssertEqual(try ids(realm, "ANY stock.@allKeys == 'eggs'"), [1], "Realm's other name of @keys")
        XCTAssertEqual(try ids(realm, "'apples' IN stock.@keys"), [1])
        XCTAssertEqual(try ids(realm, "NONE stock.@keys == 'eggs'"), [2, 3])
    }

    func testCountAndAggregates() throws {
        let realm = try seeded()
        XCTAssertEqual(try ids(realm, "stock.@count == 2"), [1])
        XCTAssertEqual(try ids(realm, "stock.@count == 0"), [3])
        XCTAssertEqual(try ids(realm, "stock.@sum == 15"), [1])
        XCTAssertEqual(try ids(realm, "stock.@max == 1"), [2])
        XCTAssertEqual(try ids(realm, "stock.@min == 3"), [1])
        XCTAssertEqual(try ids(realm, "stock.@avg == 7.5"), [1])
    }

    func testKeysAndValuesNeedAMap() throws {
        let realm = try seeded()
        XCTAssertThrowsError(try ids(realm, "ANY id.@keys == 'a'")) { error in
            XCTAssertTrue("\(error)".contains("'@keys' needs a to-many relationship"), "\(error)")
        }
        XCTAssertThrowsError(try realm.objects(Traveller.self).throwingFilter("ANY cities.@keys == 'a'")) { error in
            XCTAssertTrue("\(error)".contains("'@keys' needs a map before it, but 'cities' is not a map"), "\(error)")
        }
        XCTAssertThrowsError(try ids(realm, "ANY stock.@keys == 3")) { error in
            XCTAssertTrue("\(error)".contains("string"), "\(error)")
        }
    }
}
