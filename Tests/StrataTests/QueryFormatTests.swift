import Foundation
import XCTest
import Strata

enum QFKind: Int, PersistableEnum { case a = 1, b, c }

final class QFPet: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

final class QFOwner: Object {
    @Persisted var intCol = 0
    @Persisted var optIntCol: Int?
    @Persisted var stringCol = ""
    @Persisted var boolCol = false
    @Persisted var binaryCol = Data()
    @Persisted var kind: QFKind
    @Persisted var arrayInt: List<Int>
    @Persisted var setInt: MutableSet<Int>
    @Persisted var mapInt: Map<String, Int>
    @Persisted var pets: List<QFPet>
    @Persisted var best: QFPet?
}

/// `_constructPredicate()` gives the predicate format and arguments RealmSwift builds for the
/// same type-safe expression (RealmSwift's query tests compare them).
final class QueryFormatTests: XCTestCase {
    private func assertFormat(_ expected: String, _ arguments: [Any], _ query: (Query<QFOwner>) -> Query<Bool>,
                              file: StaticString = #filePath, line: UInt = #line) {
        let (format, values) = query(Query<QFOwner>._constructForTesting())._constructPredicate()
        XCTAssertEqual(format, expected, file: file, line: line)
        XCTAssertEqual(values.count, arguments.count, "arguments", file: file, line: line)
        for (value, argument) in zip(values, arguments) {
            XCTAssertEqual("\(value)", "\(argument)", file: file, line: line)
        }
    }

    func testComparisonsAreParenthesisedWithTheirValuesAsArguments() {
        assertFormat("(intCol == %@)", [6]) { $0.intCol == 6 }
        assertFormat("(intCol != %@)", [6]) { $0.intCol != 6 }
        assertFormat("(intCol > %@)", [6]) { $0.intCol > 6 }
        assertFormat("(intCol <= %@)", [6]) { $0.intCol <= 6 }
        assertFormat("(optIntCol == %@)", [NSNull()]) { $0.optIntCol == nil }
        assertFormat("(kind == %@)", [QFKind.b]) { $0.kind == .b }
        assertFormat("(kind > %@)", [1]) { $0.kind.rawValue > 1 }
        assertFormat("(intCol IN %@)", [[1, 2]]) { $0.intCol.in([1, 2]) }
        assertFormat("(intCol > intCol)", []) { $0.intCol > $0.intCol }
        assertFormat("(best.name == %@)", ["Rex"]) { $0.best.name == "Rex" }
    }

    func testStringOperatorsCarryTheirOptions() {
        assertFormat("(stringCol BEGINSWITH[c] %@)", ["a"]) { $0.stringCol.starts(with: "a", options: [.caseInsensitive]) }
        assertFormat("(stringCol ==[cd] %@)", ["a"]) { $0.stringCol.equals("a", options: [.caseInsensitive, .diacriticInsensitive]) }
        assertFormat("(stringCol LIKE[c] %@)", ["a*"]) { $0.stringCol.like("a*", caseInsensitive: true) }
        assertFormat("(NOT binaryCol CONTAINS %@)", [Data([1])]) { !$0.binaryCol.contains(Data([1])) }
    }

    func testCompoundsBoolsAndRanges() {
        assertFormat("boolCol == true", []) { $0.boolCol }
        assertFormat("boolCol == false", []) { !$0.boolCol }
        assertFormat("(boolCol == true && (intCol > %@))", [1]) { $0.boolCol && $0.intCol > 1 }
        assertFormat("((intCol > %@) && (stringCol == %@))", [5, "a"]) { $0.intCol > 5 && $0.stringCol == "a" }
        assertFormat("NOT ((intCol > %@) || (intCol < %@))", [5, 1]) { !($0.intCol > 5 || $0.intCol < 1) }
        assertFormat("((intCol >= %@) && (intCol < %@))", [1, 5]) { $0.intCol.contains(1..<5) }
        assertFormat("(intCol BETWEEN {%@, %@})", [1, 5]) { $0.intCol.contains(1...5) }
    }

    func testCollections() {
        assertFormat("(%@ IN arrayInt)", [3]) { $0.arrayInt.contains(3) }
        assertFormat("(NOT %@ IN setInt)", [3]) { !$0.setInt.contains(3) }
        assertFormat("(ANY arrayInt > %@)", [3]) { $0.arrayInt > 3 }
        assertFormat("(ANY arrayInt == %@)", [3]) { $0.arrayInt == 3 }
        assertFormat("(ANY arrayInt IN %@)", [[1, 2]]) { $0.arrayInt.containsAny(in: [1, 2]) }
        assertFormat("(arrayInt.@count > %@)", [2]) { $0.arrayInt.count > 2 }
        assertFormat("(arrayInt.@avg > %@)", [2]) { $0.arrayInt.avg > 2 }
        assertFormat("((arrayInt.@min >= %@) && (arrayInt.@max <= %@))", [1, 3]) { $0.arrayInt.contains(1...3) }
        assertFormat("(ANY pets.name == %@)", ["Rex"]) { $0.pets.name == "Rex" }
        assertFormat("(pets.@sum.age > %@)", [3]) { $0.pets.age.sum > 3 }
        assertFormat("(SUBQUERY(pets, $col1, (($col1.age > %@) && ($col1.name == %@))).@count > %@)", [2, "Rex", 0]) {
            ($0.pets.age > 2 && $0.pets.name == "Rex").count > 0
        }
    }

    func testMaps() {
        assertFormat("(mapInt[%@] == %@)", ["foo", 1]) { $0.mapInt["foo"] == 1 }
        assertFormat("(%@ IN mapInt)", [1]) { $0.mapInt.contains(1) }
        assertFormat("(ANY mapInt.@allKeys == %@)", ["foo"]) { $0.mapInt.keys == "foo" }
        assertFormat("(ANY mapInt.@allValues > %@)", [1]) { $0.mapInt.values > 1 }
        assertFormat("(mapInt.@count > %@)", [1]) { $0.mapInt.count > 1 }
        assertFormat("(mapInt.@max < %@)", [9]) { $0.mapInt.max < 9 }
    }

    /// The formats only describe: the same expressions still run.
    func testTheExpressionsStillRun() throws {
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: name, objectTypes: [QFOwner.self, QFPet.self]))
        try realm.write {
            realm.create(QFOwner.self, value: ["intCol": 6, "arrayInt": [1, 3], "mapInt": ["foo": 1], "pets": [["name": "Rex", "age": 3]]])
        }
        let owners = realm.objects(QFOwner.self)
        XCTAssertEqual(owners.where { $0.intCol.contains(1...6) && $0.mapInt["foo"] == 1 }.count, 1)
        XCTAssertEqual(owners.where { ($0.pets.age > 2 && $0.pets.name == "Rex").count > 0 }.count, 1)
        XCTAssertEqual(owners.where { $0.arrayInt.contains(1...3) && !$0.boolCol }.count, 1)
        XCTAssertEqual(owners.where { $0.kind.rawValue > 1 }.count, 0)
    }
}

final class QFNode: Object {
    @Persisted var name = ""
    @Persisted var label = ""
    @Persisted var rank = 0
    @Persisted var children: List<QFNode>
}

/// A type-safe SUBQUERY whose condition names a property on its own (`$0.children.name ==
/// $0.label`): RealmSwift writes it `SUBQUERY(children, $col1, ($col1.name == label))`, and
/// realm-core reads every key path inside a SUBQUERY on the objects counted, so `label` is
/// each child's own.
final class SubqueryOwnKeyPathTests: StrataTestCase {
    func testAPropertyNamedOnItsOwnInASubqueryIsTheCountedObjects() throws {
        let realm = try openRealm(types: [QFNode.self])
        try realm.write {
            let same = QFNode(value: ["name": "a", "label": "a", "rank": 1])
            let other = QFNode(value: ["name": "b", "label": "c", "rank": 5])
            realm.create(QFNode.self, value: ["name": "root1", "label": "a", "rank": 3, "children": [same, other]])
            realm.create(QFNode.self, value: ["name": "root2", "label": "b", "rank": 9, "children": [other]])
        }
        let nodes = realm.objects(QFNode.self)
        func names(_ query: (Query<QFNode>) -> Query<Bool>) -> [String] { nodes.where(query).map(\.name).sorted() }
        XCTAssertEqual(names { ($0.children.name == $0.label).count > 0 }, ["root1"], "a child whose own name is its own label")
        // `create` copies the children given, so each root has its own "b".
        XCTAssertEqual(names { ($0.children.name == $0.label).count == 0 }, ["a", "b", "b", "root2"])
        XCTAssertEqual(names { ($0.children.name == $0.name).count == 0 }, ["a", "b", "b"], "every child's name is its own")
        XCTAssertEqual(names { ($0.children.rank > $0.rank).count > 0 }, [])
        XCTAssertEqual(names { ($0.label == $0.children.name && $0.children.rank < 3).count == 1 }, ["root1"])
        let root = Query<QFNode>._constructForTesting()
        let (format, arguments) = ((root.children.name == root.label).count == 0)._constructPredicate()
        XCTAssertEqual(format, "(SUBQUERY(children, $col1, ($col1.name == label)).@count == %@)")
        XCTAssertEqual(arguments.map { "\($0)" }, ["0"])
    }
}
