import Foundation
import XCTest
@testable import Strata

final class TypedItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var int = 0
    @Persisted var int8: Int8 = 0
    @Persisted var int32: Int32 = 0
    @Persisted var float: Float = 0
    @Persisted var double = 0.0
    @Persisted var date = Date(timeIntervalSinceReferenceDate: 0)
    @Persisted var data = Data()
    @Persisted var uuid = UUID()
    @Persisted var flag = false
    @Persisted var limit = 0
    @Persisted var optInt: Int?
    @Persisted var optString: String?
    @Persisted var optDouble: Double?
    @Persisted var optDate: Date?
    @Persisted var optData: Data?
    @Persisted var optBool: Bool?
    var scratch = 0
    var doubled: Int { int * 2 }
}

/// Every operator and modifier of the type-safe form, each against the string form on the
/// same data: the same objects, and the same plan and predicate (`explain()`).
final class TypeSafeQueryTests: StrataTestCase {
    private var realm: Realm!
    private var items: Results<TypedItem>!
    private let names = ["Bella", "bert", "Éclair", "eclair", "Max", "max", "Straße", "STRASSE", "Zoë", "", "B*?", "日本語"]
    private let fixedUUID = UUID(uuidString: "3C6F4E1A-0000-4000-8000-000000000001")!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [TypedItem.self])
        try realm.write {
            for i in 0..<60 {
                let item = TypedItem()
                item.id = i
                item.name = names[i % names.count]
                item.int = (i * 7) % 23 - 11
                item.int8 = Int8(i % 5 - 2)
                item.int32 = Int32(i * 1000)
                item.float = Float(i) / 4 - 3
                item.double = i % 9 == 0 ? -0.0 : Double(i) * 1.5 - 20
                item.date = Date(timeIntervalSinceReferenceDate: Double(i) * 86_400)
                item.data = Data([UInt8(i % 4), 1, 2])
                item.uuid = i % 6 == 0 ? fixedUUID : UUID()
                item.flag = i % 2 == 0
                item.limit = i % 13 - 5
                item.optInt = i % 3 == 0 ? nil : i % 10
                item.optString = i % 4 == 0 ? nil : names[(i + 3) % names.count]
                item.optDouble = i % 5 == 0 ? nil : (i % 7 == 0 ? .nan : Double(i) / 3)
                item.optDate = i % 2 == 1 ? nil : Date(timeIntervalSinceReferenceDate: Double(i) * 3_600)
                item.optData = i % 3 == 1 ? nil : Data([UInt8(i % 3)])
                item.optBool = i % 3 == 2 ? nil : i % 2 == 0
                realm.add(item)
            }
        }
        items = realm.objects(TypedItem.self)
    }

    override func tearDownWithError() throws {
        items = nil
        realm = nil
        try super.tearDownWithError()
    }

    /// The type-safe results equal the string query's: same ids, same plan and predicate.
    private func assertSame(_ typed: Results<TypedItem>, _ text: String, _ args: Any..., file: StaticString = #filePath, line: UInt = #line) {
        let byText = try! items.filtered(text, args)
        XCTAssertEqual(typed.map(\.id), byText.map(\.id), text, file: file, line: line)
        XCTAssertEqual(typed.explain(), byText.explain(), text, file: file, line: line)
    }

    /// RealmSwift's testing hooks: a query built outside any Realm gives RealmSwift's predicate
    /// format and arguments, which the string form takes too and which find the same objects.
    func testAQueryBuiltOutsideARealmGivesRealmSwiftsPredicate() throws {
        let condition: (Query<TypedItem>) -> Query<Bool> = { $0.int > 3 && $0.name.starts(with: "a") || $0.optInt == nil }
        let (format, arguments) = condition(Query<TypedItem>())._constructPredicate()
        XCTAssertEqual(format, "(((int > %@) && (name BEGINSWITH %@)) || (optInt == %@))")
        XCTAssertEqual(arguments.count, 3)
        XCTAssertEqual(items.where(condition).map(\.id), try items.filtered(format, arguments).map(\.id), format)
        XCTAssertEqual(condition(Query<TypedItem>._constructForTesting())._constructPredicate().0, format)
        let optional: (Query<TypedItem?>) -> Query<Bool> = { $0.int == 3 }
        XCTAssertEqual(optional(Query<TypedItem?>())._constructPredicate().0, "(int == %@)", "a map's objects' queries too")
    }

    func testEqualityAndInequalityOnEveryType() {
        assertSame(items.where { $0.int == 3 }, "int == 3")
        assertSame(items.where { $0.int != 3 }, "int != 3")
        assertSame(items.where { $0.int8 == -1 }, "int8 == -1")
        assertSame(items.where { $0.int32 == 5000 }, "int32 == 5000")
        assertSame(items.where { $0.float == -2.5 }, "float == -2.5")
        assertSame(items.where { $0.double == 0 }, "double == 0.0")
        assertSame(items.where { $0.date == Date(timeIntervalSinceReferenceDate: 86_400) }, "date == %@",
                   Date(timeIntervalSinceReferenceDate: 86_400))
        assertSame(items.where { $0.data == Data([1, 1, 2]) }, "data == %@", Data([1, 1, 2]))
        assertSame(items.where { $0.uuid == fixedUUID }, "uuid == %@", fixedUUID)
        assertSame(items.where { $0.uuid != fixedUUID }, "uuid != %@", fixedUUID)
        assertSame(items.where { $0.flag == true }, "flag == true")
        assertSame(items.where { $0.flag != true }, "flag != true")
        assertSame(items.where { $0.name == "Max" }, "name == 'Max'")
        assertSame(items.where { $0.id == 7 }, "id == 7")
        XCTAssertEqual(items.where { $0.name == "Max" }.count, 5)
    }

    func testNilComparisonsOnOptionals() {
        assertSame(items.where { $0.optInt == nil }, "optInt == nil")
        assertSame(items.where { $0.optInt != nil }, "optInt != nil")
        assertSame(items.where { $0.optInt == 4 }, "optInt == 4")
        assertSame(items.where { $0.optInt != 4 }, "optInt != 4")
        assertSame(items.where { $0.optString == nil }, "optString == nil")
        assertSame(items.where { $0.optString != "Max" }, "optString != 'Max'")
        assertSame(items.where { $0.optDouble == nil }, "optDouble == nil")
        assertSame(items.where { $0.optDate != nil }, "optDate != nil")
        assertSame(items.where { $0.optData == nil }, "optData == nil")
        assertSame(items.where { $0.optBool == nil }, "optBool == nil")
        assertSame(items.where { $0.optBool == false }, "optBool == false")
        XCTAssertEqual(items.where { $0.optInt == nil }.count, 20)
        XCTAssertEqual(items.where { $0.optInt > nil }.count, 0, "a number is unordered against nil")
        XCTAssertEqual(items.where { $0.optInt < nil }.count, 0)
        XCTAssertEqual(items.where { $0.optInt <= nil || $0.optInt >= nil }.count, 20, "null >= null and null <= null hold")
        XCTAssertEqual(items.where { $0.optString > nil }.count, items.where { $0.optString != nil }.count,
                       "every string sorts after null")
    }

    func testOrderingOnNumbersAndDates() {
        assertSame(items.where { $0.int > 3 }, "int > 3")
        assertSame(items.where { $0.int >= 3 }, "int >= 3")
        assertSame(items.where { $0.int < -3 }, "int < -3")
        assertSame(items.where { $0.int <= -3 }, "int <= -3")
        assertSame(items.where { $0.int8 > -1 }, "int8 > -1")
        assertSame(items.where { $0.float <= 0.25 }, "float <= 0.25")
        assertSame(items.where { $0.double < 0 }, "double < 0.0")
        assertSame(items.where { $0.double >= -0.0 }, "double >= -0.0")
        assertSame(items.where { $0.optDouble > 5 }, "optDouble > 5.0")
        assertSame(items.where { $0.optDouble <= .nan }, "optDouble <= nan")
        assertSame(items.where { $0.optInt >= 5 }, "optInt >= 5")
        let day10 = Date(timeIntervalSinceReferenceDate: 10 * 86_400)
        assertSame(items.where { $0.date > day10 }, "date > %@", day10)
        assertSame(items.where { $0.date <= day10 }, "date <= %@", day10)
        assertSame(items.where { $0.optDate < Date(timeIntervalSinceReferenceDate: 40 * 3_600) }, "optDate < %@",
                   Date(timeIntervalSinceReferenceDate: 40 * 3_600))
        assertSame(items.where { $0.id > 50 }, "id > 50")
        XCTAssertEqual(items.where { $0.id > 50 }.count, 9)
    }

    func testPropertyAgainstProperty() {
        assertSame(items.where { $0.int == $0.limit }, "int == limit")
        assertSame(items.where { $0.int != $0.limit }, "int != limit")
        assertSame(items.where { $0.int > $0.limit }, "int > limit")
        assertSame(items.where { $0.int >= $0.limit }, "int >= limit")
        assertSame(items.where { $0.int < $0.limit }, "int < limit")
        assertSame(items.where { $0.int <= $0.limit }, "int <= limit")
    }

    func testRangesAreBetweenOrHalfOpen() {
        assertSame(items.where { $0.int.contains(-2...4) }, "int BETWEEN {-2, 4}")
        assertSame(items.where { $0.int.contains(-2..<4) }, "int >= -2 AND int < 4")
        assertSame(items.where { $0.double.contains(-5.0...5.0) }, "double BETWEEN {-5.0, 5.0}")
        let a = Date(timeIntervalSinceReferenceDate: 5 * 86_400), b = Date(timeIntervalSinceReferenceDate: 9 * 86_400)
        assertSame(items.where { $0.date.contains(a...b) }, "date BETWEEN {%@, %@}", a, b)
        assertSame(items.where { $0.date.contains(a..<b) }, "date >= %@ AND date < %@", a, b)
        assertSame(items.where { $0.optInt.contains(2...5) }, "optInt BETWEEN {2, 5}")
        assertSame(items.where { $0.optInt.contains(2..<5) }, "optInt >= 2 AND optInt < 5")
        assertSame(items.where { $0.name.contains("B"..."M") }, "name BETWEEN {'B', 'M'}")
        assertSame(items.where { $0.id.contains(10...19) }, "id BETWEEN {10, 19}")
        XCTAssertEqual(items.where { $0.id.contains(10...19) }.count, 10)
    }

    func testInWithValuesNilAndEmptyCollections() {
        assertSame(items.where { $0.int.in([1, 2, 3]) }, "int IN {1, 2, 3}")
        assertSame(items.where { $0.name.in(["Max", "bert"]) }, "name IN {'Max', 'bert'}")
        assertSame(items.where { $0.optInt.in([nil, 4]) }, "optInt IN {nil, 4}")
        assertSame(items.where { $0.optString.in(Set<String?>(["Zoë"])) }, "optString IN {'Zoë'}")
        assertSame(items.where { $0.int.in([Int]()) }, "int IN {}")
        assertSame(items.where { $0.id.in([3, 4, 99]) }, "id IN {3, 4, 99}")
        assertSame(items.where { $0.uuid.in([fixedUUID]) }, "uuid IN %@", [fixedUUID])
        XCTAssertEqual(items.where { $0.int.in([Int]()) }.count, 0)
    }

    func testStringOperatorsWithOptions() {
        assertSame(items.where { $0.name.starts(with: "B") }, "name BEGINSWITH 'B'")
        assertSame(items.where { $0.name.starts(with: "b", options: .caseInsensitive) }, "name BEGINSWITH[c] 'b'")
        assertSame(items.where { $0.name.starts(with: "ecl", options: .diacriticInsensitive) }, "name BEGINSWITH[d] 'ecl'")
        assertSame(items.where { $0.name.starts(with: "ECL", options: [.caseInsensitive, .diacriticInsensitive]) },
                   "name BEGINSWITH[cd] 'ECL'")
        assertSame(items.where { $0.name.ends(with: "ax") }, "name ENDSWITH 'ax'")
        assertSame(items.where { $0.name.ends(with: "SSE", options: .caseInsensitive) }, "name ENDSWITH[c] 'SSE'")
        assertSame(items.where { $0.name.contains("ai") }, "name CONTAINS 'ai'")
        assertSame(items.where { $0.name.contains("AI", options: [.caseInsensitive, .diacriticInsensitive]) },
                   "name CONTAINS[cd] 'AI'")
        assertSame(items.where { $0.name.equals("strasse", options: .caseInsensitive) }, "name ==[c] 'strasse'")
        assertSame(items.where { $0.name.notEquals("max", options: .caseInsensitive) }, "name !=[c] 'max'")
        assertSame(items.where { $0.name.equals("Max") }, "name == 'Max'")
        assertSame(items.where { $0.name.like("?a*") }, "name LIKE '?a*'")
        assertSame(items.where { $0.name.like("b*", caseInsensitive: true) }, "name LIKE[c] 'b*'")
        assertSame(items.where { $0.optString.starts(with: "M") }, "optString BEGINSWITH 'M'")
        assertSame(items.where { $0.optString.like("*e*") }, "optString LIKE '*e*'")
        assertSame(items.where { $0.name.starts(with: "") }, "name BEGINSWITH ''")
        assertSame(items.where { $0.name.contains("日本") }, "name CONTAINS '日本'")
        XCTAssertEqual(items.where { $0.name.equals("strasse", options: .caseInsensitive) }.count, 10)
    }

    func testStringOperatorsOnData() {
        assertSame(items.where { $0.data.starts(with: Data([2])) }, "data BEGINSWITH %@", Data([2]))
        assertSame(items.where { $0.data.ends(with: Data([1, 2])) }, "data ENDSWITH %@", Data([1, 2]))
        assertSame(items.where { $0.data.contains(Data([3, 1])) }, "data CONTAINS %@", Data([3, 1]))
        assertSame(items.where { $0.optData.contains(Data([1])) }, "optData CONTAINS %@", Data([1]))
        assertSame(items.where { $0.data.equals(Data([0, 1, 2])) }, "data == %@", Data([0, 1, 2]))
    }

    func testNotAndOrWithPrecedence() {
        assertSame(items.where { !($0.int > 3) }, "NOT int > 3")
        assertSame(items.where { $0.int > 3 && $0.flag == true }, "int > 3 AND flag == true")
        assertSame(items.where { $0.int > 3 || $0.name == "Max" }, "int > 3 OR name == 'Max'")
        assertSame(items.where { $0.int > 3 || $0.name == "Max" && $0.flag == false }, "int > 3 OR (name == 'Max' AND flag == false)")
        assertSame(items.where { ($0.int > 3 || $0.name == "Max") && $0.flag == false }, "(int > 3 OR name == 'Max') AND flag == false")
        assertSame(items.where { $0.int > 0 && $0.int < 8 && $0.optInt != nil }, "int > 0 AND int < 8 AND optInt != nil")
        assertSame(items.where { !($0.optString.starts(with: "M")) }, "NOT optString BEGINSWITH 'M'")
        assertSame(items.where { $0.id < 5 || $0.id > 55 || $0.id == 30 }, "id < 5 OR id > 55 OR id == 30")
    }

    func testBoolPropertyIsACondition() {
        assertSame(items.where { $0.flag }, "flag == true")
        assertSame(items.where { !$0.flag }, "NOT flag == true")
        assertSame(items.where { $0.flag && $0.int > 0 }, "flag == true AND int > 0")
        assertSame(items.where { ($0.int > 0) == false }, "NOT int > 0")
    }

    func testTheRealmSwiftExampleAndChaining() {
        assertSame(items.where { $0.int > 8 && $0.name.starts(with: "B", options: .caseInsensitive) },
                   "int > 8 AND name BEGINSWITH[c] 'B'")
        let chained = items.filter("int > 0").where { $0.flag == true }.sorted(byKeyPath: "name")
        let text = items.filter("int > 0 AND flag == true").sorted(byKeyPath: "name")
        XCTAssertEqual(chained.map(\.id), text.map(\.id))
        XCTAssertEqual(chained.explain(), text.explain())
        XCTAssertEqual(items.where { $0.int > 0 }.where { $0.name == "Max" }.map(\.id), items.filter("int > 0 AND name == 'Max'").map(\.id))
    }

    func testIndexMatchingFindsTheFirstMatch() {
        let sorted = items.sorted(byKeyPath: "int")
        XCTAssertEqual(sorted.index(matching: { $0.name == "Zoë" }), sorted.index(matching: "name == 'Zoë'"))
        XCTAssertNotNil(sorted.index(matching: { $0.name == "Zoë" }))
        XCTAssertNil(items.index(matching: { $0.id > 1000 }))
        XCTAssertEqual(items.index(matching: { $0.id == 4 }), 4)
    }

    func testKeyPathsAreRecordedOncePerProperty() {
        let info = ModelClass.forType(TypedItem.self)
        XCTAssertEqual(info.properties[KeyPathRecorder.declarationIndex(of: \TypedItem.optDate, in: info)].name, "optDate")
        XCTAssertEqual(info.properties[KeyPathRecorder.declarationIndex(of: \TypedItem.id, in: info)].name, "id")
        XCTAssertEqual(info.properties[KeyPathRecorder.declarationIndex(of: \TypedItem.id, in: info)].name, "id")
        // Recording leaves managed objects alone.
        XCTAssertEqual(items.first?.name, "Bella")
        XCTAssertNil(items.where { $0.optDate == nil }.first?.optDate)
    }
}
