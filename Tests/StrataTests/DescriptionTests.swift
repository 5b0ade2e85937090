import Foundation
import XCTest
@testable import Strata

final class DTNode: Object {
    @Persisted var name = ""
    @Persisted var children: List<DTNode>
}

/// How objects and collections print: as RealmSwift prints them (RealmCollectionTypeTests'
/// `testDescription`), an object's nil as `(null)`, collections element by element.
final class DescriptionTests: StrataTestCase {
    func testObjectsAndCollectionsPrintTheirElements() throws {
        let realm = try openRealm(types: shipTypes)
        let ship = try realm.write {
            realm.create(Ship.self, value: ["id": 1, "name": "Hind", "roster": [["id": 2, "name": "Bo"]], "logbook": ["calm"]])
        }
        XCTAssertTrue(ship.description.contains("\n\tchart = (null);"), ship.description)
        let roster = ship.roster.description
        let pattern = #"^List<Sailor> <0x[0-9a-f]+> \(\n\t\[0\] Sailor \{\n\t\tid = 2;\n\t\tname = Bo;\n\t\trank = 0;\n\t\tship = \(null\);\n\t\}\n\)$"#
        XCTAssertNotNil(roster.range(of: pattern, options: .regularExpression), roster)
        XCTAssertTrue(ship.logbook.description.hasPrefix("List<string> <0x"), ship.logbook.description)
        XCTAssertTrue(ship.logbook.description.hasSuffix("(\n\t[0] calm\n)"), ship.logbook.description)
        XCTAssertTrue(realm.objects(Sailor.self).description.hasPrefix("Results<Sailor> <0x"))
        XCTAssertTrue(DynOwner().petsByName.description.hasPrefix("Map<string, DynPet> <0x"), DynOwner().petsByName.description)
        XCTAssertTrue(DynOwner().scores.description.hasPrefix("Map<string, int> <0x"))
        let scores = DynOwner().scores
        scores["a"] = 1
        XCTAssertTrue(scores.description.hasSuffix("(\n[a]: 1\n)"), "a map's entries are not indented, as RealmSwift prints them: \(scores.description)")
        XCTAssertTrue(ship.description.contains("\troster = List<Sailor> <0x"), "a collection property prints its elements, nested")
        let sailor = try XCTUnwrap(realm.object(ofType: Sailor.self, forPrimaryKey: 2))
        try realm.write { sailor.ship = ship }
        XCTAssertTrue(sailor.description.contains("\tship = Ship {\n\t\tid = 1;"), "a linked object prints nested: \(sailor.description)")
    }

    func testValuesPrintAsRealmSwiftPrintsThem() throws {
        let long = String(repeating: "x", count: 100)
        let object = AllTypes(value: ["bool": true, "string": long, "data": Data([0x61, 0x62, 0x63, 0x64, 0x65])])
        let text = object.description
        XCTAssertTrue(text.contains("\n\tbool = 1;"), text)
        XCTAssertTrue(text.contains("\n\tdata = <61626364 65>;"), text)
        XCTAssertTrue(text.contains("\n\tstring = \(long);"), "a string prints whole: \(text)")
        XCTAssertTrue(AllTypes().description.contains("\n\tbool = 0;"))
        let realm = try openRealm(types: [AllTypes.self])
        let stored = try realm.write { realm.create(AllTypes.self, value: ["bool": true, "data": Data([1])]) }
        XCTAssertTrue(stored.description.contains("\n\tbool = 1;\n"), stored.description)
        XCTAssertTrue(stored.description.contains("\n\tdata = <01>;"), stored.description)
        XCTAssertTrue(MixedSettingV0().description.hasPrefix("MixedSettingV0 {"), "the Swift class's name, not its stored name")
        // Numbers as Apple's NSNumber prints them, where RealmSwift's descriptions come from.
        let numbers = AllTypes(value: ["float": Float(1.23), "double": 10.0, "optDouble": 1.0 / 3.0]).description
        XCTAssertTrue(numbers.contains("\n\tfloat = 1.23;"), numbers)
        XCTAssertTrue(numbers.contains("\n\tdouble = 10;"), numbers)
        XCTAssertTrue(numbers.contains("\n\toptDouble = 0.3333333333333333;"), numbers)
        let doubles = List<Double>()
        doubles.append(objectsIn: [1, 2.5])
        XCTAssertTrue(doubles.description.hasSuffix("(\n\t[0] 1,\n\t[1] 2.5\n)"), doubles.description)
    }

    func testNestingStopsFiveLevelsDownAsInRealmSwift() {
        let node = DTNode(value: ["name": "a"])
        node.children.append(node)
        let list = #"List<DTNode> <0x[0-9a-f]+> \("#
        let pattern = #"^DTNode \{\n\tname = a;\n\tchildren = "# + list + #"\n\t\t\[0\] DTNode \{\n\t\t\tname = a;\n\t\t\tchildren = "#
            + list + #"\n\t\t\t\t\[0\] DTNode \{\n\t\t\t\t\tname = a;\n\t\t\t\t\tchildren = <Maximum depth exceeded>;\n\t\t\t\t\}\n\t\t\t\);\n\t\t\}\n\t\);\n\}$"#
        XCTAssertNotNil(node.description.range(of: pattern, options: .regularExpression), node.description)
        node.children.removeAll()
    }
}
