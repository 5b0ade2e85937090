import Foundation
import XCTest
import Strata

/// `Map.Index`: finding an entry by its value, reading the entry at a position, and the
/// key-value coding read, on unmanaged and managed maps.
final class MapIndexTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Pantry.self, Companion.self]) }

    func testIndexOfAValueIsItsFirstKeyInKeyOrder() throws {
        let realm = try open()
        let unmanaged = Pantry(value: ["id": 1, "stock": ["tea": 2, "bread": 5, "jam": 2]])
        let managed = try realm.write { realm.create(Pantry.self, value: ["id": 2, "stock": ["tea": 2, "bread": 5, "jam": 2]]) }
        for stock in [unmanaged.stock, managed.stock] {
            let jam = try XCTUnwrap(stock.index(of: 2))
            XCTAssertEqual(jam.offset, 1, "bread, jam, tea: the first 2 is jam's")
            XCTAssertEqual(stock[jam].key, "jam")
            XCTAssertEqual(stock[jam].value, 2)
            XCTAssertEqual(stock.index(of: 5)?.offset, 0)
            XCTAssertNil(stock.index(of: 7))
            XCTAssertLessThan(try XCTUnwrap(stock.index(of: 5)), jam)
        }
    }

    func testIndexOfNilInAMapOfOptionals() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "notes": ["b": "fresh", "a": nil]]) }
        let position = try XCTUnwrap(pantry.notes.index(of: nil))
        XCTAssertEqual(pantry.notes[position].key, "a")
        XCTAssertNil(pantry.notes[position].value)
    }

    func testValueForKeyReadsTheValueOrNil() throws {
        let realm = try open()
        let pantry = try realm.write { realm.create(Pantry.self, value: ["id": 1, "stock": ["eggs": 12]]) }
        XCTAssertEqual(pantry.stock.value(forKey: "eggs") as? Int, 12)
        XCTAssertNil(pantry.stock.value(forKey: "flour"))
        try realm.write { pantry.stock.setValue(nil, forKey: "eggs") }
        XCTAssertNil(pantry.stock.value(forKey: "eggs"))
    }
}
