import Foundation
import XCTest
import Strata

final class OSReading: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var label = ""
    @Persisted var other = ""
    @Persisted var note: String?
    @Persisted(indexed: true) var code: String?
    @Persisted var blob = Data()
    @Persisted var count: Int?
    @Persisted var link: OSReading?
    @Persisted var temperatures: List<MVCelsius>
    @Persisted var levels: Map<String, MVCelsius>
    @Persisted var colours: List<MVColour?>
    @Persisted var colourByKey: Map<String, MVColour?>
}

/// Type-safe ordering of strings and data (`$0.name > "b"`, `$0.name < $0.other`), realm-core's
/// order of null against values and against null, and the stored forms of collections of
/// enums and custom types (`rawValue`, `persistableValue`).
final class OrderedStringQueryTests: StrataTestCase {
    private var realm: Realm!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [OSReading.self])
        try realm.write {
            let a = realm.create(OSReading.self, value: ["id": 1, "label": "apple", "other": "b", "note": "x", "code": "k",
                                                         "blob": Data([1]), "count": 5])
            a.temperatures.append(objectsIn: [MVCelsius(degrees: 12), MVCelsius(degrees: 18)])
            a.levels["day"] = MVCelsius(degrees: 30)
            a.colours.append(objectsIn: [.green, nil])
            a.colourByKey["x"] = .blue
            let b = realm.create(OSReading.self, value: ["id": 2, "label": "banana", "other": "a", "blob": Data([2, 0])])
            b.temperatures.append(MVCelsius(degrees: 25))
            b.colourByKey["y"] = .some(nil)
            b.link = a
            realm.create(OSReading.self, value: ["id": 3, "label": "cherry", "other": "cherry", "note": "", "code": "z",
                                                 "blob": Data([2]), "count": 1, "link": b])
        }
    }

    override func tearDownWithError() throws {
        realm = nil
        try super.tearDownWithError()
    }

    private func ids(_ query: (Query<OSReading>) -> Query<Bool>) -> [Int] {
        realm.objects(OSReading.self).where(query).map(\.id).sorted()
    }

    private func ids(_ format: String) -> [Int] {
        realm.objects(OSReading.self).filter(format).map(\.id).sorted()
    }

    func testStringsAndDataOrderByTheirBytes() {
        XCTAssertEqual(ids { $0.label > "b" }, [2, 3])
        XCTAssertEqual(ids { $0.label >= "banana" }, [2, 3])
        XCTAssertEqual(ids { $0.label < "b" }, [1])
        XCTAssertEqual(ids { $0.label <= "banana" }, [1, 2])
        XCTAssertEqual(ids { $0.label > $0.other }, [2])
        XCTAssertEqual(ids { $0.label >= $0.other }, [2, 3])
        XCTAssertEqual(ids { $0.label < $0.other }, [1])
        XCTAssertEqual(ids { $0.blob < Data([2]) }, [1])
        XCTAssertEqual(ids { $0.blob >= Data([2]) }, [2, 3])
        XCTAssertEqual(ids { $0.link.label > "b" }, [3])
        XCTAssertEqual(ids { $0.note > "w" }, [1])
        let (format, arguments) = (Query<OSReading>._constructForTesting().label > "b")._constructPredicate()
        XCTAssertEqual(format, "(label > %@)")
        XCTAssertEqual(arguments.map { "\($0)" }, ["b"])
        XCTAssertEqual((Query<OSReading>._constructForTesting().label <= Query<OSReading>._constructForTesting().other)
            ._constructPredicate().0, "(label <= other)")
    }

    func testNullIsEqualToNullAndBeforeEveryString() {
        XCTAssertEqual(ids { $0.note > nil }, [1, 3])
        XCTAssertEqual(ids { $0.note >= nil }, [1, 2, 3])
        XCTAssertEqual(ids { $0.note < nil }, [])
        XCTAssertEqual(ids { $0.note <= nil }, [2])
        XCTAssertEqual(ids { $0.note < "a" }, [2, 3], "null and \"\" sort before \"a\"")
        XCTAssertEqual(ids { $0.code < "m" }, [1, 2], "the index on code is not used for a range that nulls fall in")
        XCTAssertEqual(ids { $0.code > "a" }, [1, 3])
        XCTAssertEqual(ids("note > nil"), [1, 3])
        XCTAssertEqual(ids("note <= nil"), [2])
        XCTAssertEqual(ids("code <= 'k'"), [1, 2])
    }

    func testNullIsUnorderedAgainstNumbersButEqualToNull() {
        XCTAssertEqual(ids { $0.count > nil }, [])
        XCTAssertEqual(ids { $0.count >= nil }, [2])
        XCTAssertEqual(ids { $0.count <= nil }, [2])
        XCTAssertEqual(ids { $0.count < 10 }, [1, 3])
        XCTAssertEqual(ids { $0.count >= $0.count }, [1, 2, 3])
        XCTAssertEqual(ids { $0.count > $0.count }, [])
        XCTAssertEqual(ids { $0.link.count >= $0.link.count }, [1, 2, 3], "a nil link reads null, and null >= null")
        XCTAssertEqual(ids { $0.count <= $0.link.link.count }, [2, 3], "null <= null, and 1 <= 5")
        XCTAssertEqual(ids("count >= nil"), [2])
        XCTAssertEqual(ids("link.count >= link.count"), [1, 2, 3])
    }

    func testStoredFormsOfCollectionsOfEnumsAndCustomTypes() {
        XCTAssertEqual(ids { $0.temperatures.persistableValue.contains(10.0...20.0) }, [1])
        XCTAssertEqual(ids { $0.temperatures.persistableValue > 20.0 }, [2])
        XCTAssertEqual(ids { $0.levels.persistableValue.contains(25.0...35.0) }, [1])
        XCTAssertEqual(ids { $0.colours.rawValue.contains("g") }, [1])
        XCTAssertEqual(ids { $0.colours.rawValue == nil }, [1])
        XCTAssertEqual(ids { $0.colourByKey.rawValue.contains("blue") }, [1])
        XCTAssertEqual(ids { $0.colourByKey.rawValue.contains(nil) }, [2])
        let (format, arguments) = Query<OSReading>._constructForTesting().temperatures.persistableValue.contains(1.0...2.0)
            ._constructPredicate()
        XCTAssertEqual(format, "((temperatures.@min >= %@) && (temperatures.@max <= %@))")
        XCTAssertEqual(arguments.count, 2)
    }
}
