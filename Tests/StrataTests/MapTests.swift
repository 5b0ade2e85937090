import Foundation
import XCTest
import Strata

final class Pantry: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var stock: Map<String, Int>
    @Persisted var notes: Map<String, String?>
    @Persisted var prices: Map<String, Double>
    @Persisted var pets: Map<String, Companion?>
}

/// `Map`: subscript, keys and values in key order, removal, merging, aggregates, objects as
/// values (a deleted one becomes nil), rejected keys, and reading back from a reopened file.
final class MapTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Pantry.self, Companion.self]) }

    func testUnmanagedAndManagedMapsReadTheSame() throws {
        let realm = try open()
        let pantry = Pantry(value: ["id": 1])
        pantry.stock["eggs"] = 12
        pantry.stock["apples"] = 3
        XCTAssertEqual(pantry.stock.count, 2)
        XCTAssertEqual(pantry.stock.keys, ["apples", "eggs"], "keys are in increasing order")
        XCTAssertEqual(pantry.stock["eggs"], 12)
        try realm.write { realm.add(pantry) }
        XCTAssertNotNil(pantry.stock.realm)
        XCTAssertEqual(pantry.stock.keys, ["apples", "eggs"])
        XCTAssertEqual(pantry.stock.values, [3, 12])
        XCTAssertEqual(pantry.stock["eggs"], 12)
        XCTAssertNil(pantry.stock["flour"], "a missing key reads nil")
        XCTAssertEqual(pantry.stock.map(\.key), ["apples", "eggs"])
        XCTAssertEqual(pantry.stock.map(\.value), [3, 12])
        XCTAssertEqual(pantry.stock.asKeyValueSequence().map { "\($0.key)=\($0.value)" }, ["apples=3", "eggs=12"])
        assertConsistent()
    }

    func testSettingReplacingAndRemoving() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": ["b": 2, "a": 1]]) }
        try realm.write {
            pantry.stock["a"] = 10
            pantry.stock.updateValue(30, forKey: "c")
            pantry.stock.setValue(40, forKey: "d")
        }
        XCTAssertEqual(pantry.stock.keys, ["a", "b", "c", "d"])
        XCTAssertEqual(pantry.stock.values, [10, 2, 30, 40])
        try realm.write {
            pantry.stock["b"] = nil
            pantry.stock.removeObject(for: "c")
            pantry.stock.removeObject(for: "missing")
            pantry.stock.setValue(nil, forKey: "d")
        }
        XCTAssertEqual(pantry.stock.keys, ["a"])
        XCTAssertEqual(pantry.stock.object(forKey: "a"), 10)
        try realm.write { pantry.stock.removeAll() }
        XCTAssertEqual(pantry.stock.count, 0)
        XCTAssertEqual(Array(pantry.stock.keys), [])
        assertConsistent()
    }

    func testAnEmptyArrayIsAnEmptyMapAndANilValueReadsAsNSNull() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": [], "notes": ["a": nil, "b": "x"]]) }
        XCTAssertEqual(pantry.stock.count, 0, "as RealmSwift: [] for a map is an empty map")
        XCTAssertTrue(pantry.notes.value(forKey: "a") is NSNull, "a key holding nil")
        XCTAssertEqual(pantry.notes.value(forKey: "b") as? String, "x")
        XCTAssertNil(pantry.notes.value(forKey: "c"), "no such key")
    }

    func testOptionalValuesStoreNilUnderAKey() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1]) }
        try realm.write {
            pantry.notes["a"] = "fresh"
            pantry.notes["b"] = String?.none
        }
        XCTAssertEqual(pantry.notes.count, 2, "an optional map stores nil under its key")
        XCTAssertEqual(pantry.notes["b"], .some(nil))
        try realm.write { pantry.notes["b"] = nil }
        XCTAssertEqual(pantry.notes.keys, ["a"], "assigning nil itself removes the key")
    }

    func testAssigningAndMerging() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": ["x": 1]]) }
        let other = Map<String, Int>()
        other["y"] = 2
        other["x"] = 5
        try realm.write { pantry.stock.merge(other) }
        XCTAssertEqual(pantry.stock.values, [5, 2])
        try realm.write { pantry.stock.merge([(key: "z", value: 3)]) }
        XCTAssertEqual(pantry.stock.keys, ["x", "y", "z"])
        let replacement = Map<String, Int>()
        replacement["only"] = 9
        try realm.write { pantry.stock = replacement }
        XCTAssertEqual(pantry.stock.keys, ["only"], "assigning a map replaces its entries")
        XCTAssertEqual(pantry.stock["only"], 9)
        try realm.write {
            pantry.stock.merge([(key: "only", value: 1), (key: "new", value: 4)], uniquingKeysWith: +)
            pantry.stock.merge(other) { current, _ in current }
        }
        XCTAssertEqual(pantry.stock.keys, ["new", "only", "x", "y"])
        XCTAssertEqual(pantry.stock.values, [4, 10, 5, 2], "an existing key keeps what the closure makes")
    }

    func testAggregatesOverTheValues() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": ["a": 4, "b": 1, "c": 7], "prices": [:] as [String: Double]]) }
        XCTAssertEqual(pantry.stock.min(), 1)
        XCTAssertEqual(pantry.stock.max(), 7)
        XCTAssertEqual(pantry.stock.sum(), 12)
        XCTAssertEqual(pantry.stock.average(), 4.0)
        XCTAssertNil(pantry.prices.min(), "an empty map has no minimum")
        XCTAssertEqual(pantry.prices.sum(), 0)
        XCTAssertNil(pantry.prices.average() as Double?)
    }

    func testObjectValuesAndADeletedTargetBecomesNil() throws {
        let realm = try open()
        let pantry = Pantry(value: ["id": 1])
        pantry.pets["rex"] = Companion(value: ["name": "Rex", "age": 3])
        pantry.pets["tom"] = Companion(value: ["name": "Tom", "age": 9])
        pantry.pets["none"] = nil as Companion?
        XCTAssertEqual(pantry.pets.min(of: \.age), 3, "an unmanaged map aggregates its objects")
        XCTAssertEqual(pantry.pets.max(ofProperty: "age") as Int?, 9)
        XCTAssertEqual(pantry.pets.sum(of: \.age), 12)
        XCTAssertEqual(pantry.pets.average(of: \.age), 6)
        pantry.pets.removeObject(for: "none")
        try realm.write { realm.add(pantry) }
        XCTAssertEqual(realm.objects(Companion.self).count, 2, "object values are added with their map")
        XCTAssertEqual(pantry.pets["rex"]??.name, "Rex")
        XCTAssertEqual(pantry.pets.filter("age > 5").map(\.?.name), ["Tom"])
        XCTAssertEqual(pantry.pets.where { $0.age > 5 }.map(\.?.name), ["Tom"], "type-safe, as RealmSwift's Map.where")
        XCTAssertEqual(pantry.pets.sorted(byKeyPath: "age", ascending: false).map(\.?.name), ["Tom", "Rex"])
        XCTAssertEqual(pantry.pets.sorted(by: \.name, ascending: false).map(\.?.name), ["Tom", "Rex"])
        XCTAssertEqual(pantry.pets.min(of: \.age), 3)
        XCTAssertEqual(pantry.pets.max(ofProperty: "age") as Int?, 9)
        XCTAssertEqual(pantry.pets.sum(of: \.age), 12)
        XCTAssertEqual(pantry.pets.average(of: \.age), 6)
        try realm.write { realm.delete(pantry.pets["tom"]!!) }
        XCTAssertEqual(pantry.pets.keys, ["rex", "tom"], "the key of a deleted object stays")
        XCTAssertEqual(pantry.pets["tom"], .some(nil), "and its value becomes nil")
        assertConsistent()
    }

    func testKeysWithADotOrADollarAreRejected() throws {
        let realm = try open()
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Pantry.self, value: ["id": 1, "stock": ["a.b": 1]]) }) { error in
            XCTAssertTrue("\(error)".contains("cannot contain '.' or start with '$'"), "\(error)")
        }
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Pantry.self, value: ["id": 2, "stock": ["$a": 1]]) })
        XCTAssertEqual(realm.objects(Pantry.self).count, 0)
    }

    func testAMapHoldsAValueOfItsTypeOnly() throws {
        let realm = try open()
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Pantry.self, value: ["id": 1, "stock": ["a": "one"]]) })
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Pantry.self, value: ["id": 1, "stock": [1, 2]]) }) { error in
            XCTAssertTrue("\(error)".contains("expected a dictionary for a map"), "\(error)")
        }
    }

    func testMapsReadBackFromAReopenedFileAndDieWithTheirObject() throws {
        try closingRealms {
            let realm = try open()
            try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": ["k": 1, "j": 2], "notes": ["n": nil]]) }
        }
        let realm = try open()
        let pantry = try XCTUnwrap(realm.object(ofType: Pantry.self, forPrimaryKey: 1))
        XCTAssertEqual(pantry.stock.keys, ["j", "k"])
        XCTAssertEqual(pantry.stock.values, [2, 1])
        XCTAssertEqual(pantry.notes["n"], .some(nil))
        let stock = pantry.stock
        try realm.write { realm.delete(pantry) }
        XCTAssertTrue(stock.isInvalidated)
        assertConsistent()
    }
}
