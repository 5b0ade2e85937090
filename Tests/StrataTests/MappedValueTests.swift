import Foundation
import XCTest
@testable import Strata

enum MVKind: Int, PersistableEnum { case small = 1, medium = 2, large = 7 }
enum MVColour: String, PersistableEnum { case red, green = "g", blue }

/// A mapping that always converts.
struct MVCelsius: CustomPersistable {
    typealias PersistedType = Double
    var degrees: Double
    init(degrees: Double) { self.degrees = degrees }
    init(persistedValue: Double) { degrees = persistedValue }
    var persistableValue: Double { degrees }
}

/// A mapping from the even integers only.
struct MVEven: FailableCustomPersistable {
    typealias PersistedType = Int
    let half: Int
    init?(persistedValue: Int) {
        guard persistedValue % 2 == 0 else { return nil }
        half = persistedValue / 2
    }
    var persistableValue: Int { half * 2 }
}

/// A mapping with no value for its stored type's default (0).
struct MVNonZero: FailableCustomPersistable {
    typealias PersistedType = Int
    let value: Int
    init(_ value: Int) { self.value = value }
    init?(persistedValue: Int) {
        guard persistedValue != 0 else { return nil }
        value = persistedValue
    }
    var persistableValue: Int { value }
}

/// Declared in the program, so in every default schema: making one must not need its
/// `MVNonZero` default.
final class MVNoDefault: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var count: MVNonZero
}

final class MVBox: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var kind: MVKind
    @Persisted(indexed: true) var colour: MVColour
    @Persisted var optKind: MVKind?
    @Persisted var kinds: List<MVKind>
    @Persisted var optColours: List<MVColour?>
    @Persisted var temperature: MVCelsius
    @Persisted var optTemperature: MVCelsius?
    @Persisted var even: MVEven
    @Persisted var optEven: MVEven?
}

/// `MVBox` as its stored types, to write values no case or mapping accepts.
final class MVBoxStored: Object {
    override class func _realmObjectName() -> String? { "MVBox" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var kind = 0
    @Persisted(indexed: true) var colour = ""
    @Persisted var optKind: Int?
    @Persisted var kinds: List<Int>
    @Persisted var optColours: List<String?>
    @Persisted var temperature = 0.0
    @Persisted var optTemperature: Double?
    @Persisted var even = 0
    @Persisted var optEven: Int?
}

/// `PersistableEnum`, `CustomPersistable` and `FailableCustomPersistable` properties: stored
/// as their raw or persisted values, queried by them, and read back from stored values that
/// have no Swift value.
final class MappedValueTests: StrataTestCase {
    private func box(_ id: Int, _ kind: MVKind, _ colour: MVColour, degrees: Double) -> MVBox {
        let box = MVBox()
        box.id = id
        box.kind = kind
        box.colour = colour
        box.temperature = MVCelsius(degrees: degrees)
        return box
    }

    private func fill(_ realm: Realm) throws {
        try realm.write {
            realm.add(box(1, .small, .red, degrees: -4.5))
            let second = box(2, .large, .green, degrees: 21)
            second.optKind = .medium
            second.kinds.append(objectsIn: [.large, .small])
            second.optColours.append(objectsIn: [nil, .blue])
            second.optTemperature = MVCelsius(degrees: 3)
            second.even = MVEven(persistedValue: 8)!
            second.optEven = MVEven(persistedValue: 4)
            realm.add(second)
            realm.add(box(3, .medium, .blue, degrees: 10))
        }
    }

    func testUndeclaredValuesAreTheFirstCaseAndTheMappedDefault() {
        let box = MVBox()
        XCTAssertEqual(box.kind, .small)
        XCTAssertEqual(box.colour, .red)
        XCTAssertNil(box.optKind)
        XCTAssertEqual(box.temperature.degrees, 0)
        XCTAssertEqual(box.even.half, 0)
        XCTAssertNil(box.optEven)
    }

    func testValuesAreStoredAsTheirRawAndPersistedValuesAndReadBackAfterReopening() throws {
        try closingRealms { try fill(try openRealm(types: [MVBox.self])) }
        try closingRealms {
            let realm = try openRealm(types: [MVBox.self])
            let second = try XCTUnwrap(realm.object(ofType: MVBox.self, forPrimaryKey: 2))
            XCTAssertEqual(second.kind, .large)
            XCTAssertEqual(second.colour, .green)
            XCTAssertEqual(second.optKind, .medium)
            XCTAssertEqual(Array(second.kinds), [.large, .small])
            XCTAssertEqual(Array(second.optColours), [nil, .blue])
            XCTAssertEqual(second.temperature, MVCelsius(degrees: 21))
            XCTAssertEqual(second.optTemperature?.degrees, 3)
            XCTAssertEqual(second.even.half, 4)
            XCTAssertEqual(second.optEven?.half, 2)
            let properties = try XCTUnwrap(realm.schema["MVBox"]).properties
            XCTAssertEqual(properties.map(\.type), [.int, .int, .string, .int, .int, .string, .double, .double, .int, .int])
        }
        try closingRealms {
            let stored = try openRealm(types: [MVBoxStored.self])
            let second = try XCTUnwrap(stored.object(ofType: MVBoxStored.self, forPrimaryKey: 2))
            XCTAssertEqual([second.kind, second.optKind, second.even], [7, 2, 8])
            XCTAssertEqual(second.colour, "g")
            XCTAssertEqual(Array(second.optColours), [nil, "blue"])
        }
    }

    func testQueriesCompareTheStoredValuesInBothForms() throws {
        let realm = try openRealm(types: [MVBox.self])
        try fill(realm)
        let boxes = realm.objects(MVBox.self)
        func ids(_ results: Results<MVBox>) -> [Int] { results.sorted(byKeyPath: "id").map(\.id) }
        XCTAssertEqual(ids(boxes.where { $0.kind == .large }), [2])
        XCTAssertEqual(ids(boxes.where { $0.kind > .small }), [2, 3])
        XCTAssertEqual(ids(boxes.where { $0.optKind == nil }), [1, 3])
        XCTAssertEqual(ids(boxes.where { $0.colour.in([.red, .blue]) }), [1, 3])
        XCTAssertEqual(ids(boxes.where { $0.kinds.contains(.small) }), [2])
        XCTAssertEqual(ids(boxes.where { $0.temperature > MVCelsius(degrees: 0) }), [2, 3])
        XCTAssertEqual(ids(boxes.filter("kind == %@", MVKind.medium)), [3])
        XCTAssertEqual(ids(boxes.filter("kind == 7")), [2])
        XCTAssertEqual(ids(boxes.filter("colour IN %@", [MVColour.green, .blue])), [2, 3])
        XCTAssertEqual(ids(boxes.filter("optKind == %@", MVKind?.some(.medium) as Any)), [2])
        XCTAssertEqual(ids(boxes.filter("temperature < %@", MVCelsius(degrees: 0))), [1])
        XCTAssertEqual(ids(boxes.filter("ANY optColours == %@", MVColour.blue)), [2])
        XCTAssertEqual(boxes.sorted(byKeyPath: "kind").map(\.id), [1, 3, 2])
        XCTAssertEqual(boxes.max(ofProperty: "kind") as MVKind?, .large)
        XCTAssertEqual(boxes.min(ofProperty: "kind") as MVKind?, .small)
    }

    func testCreateAndSubscriptsTakeCasesMappedValuesOrStoredValues() throws {
        let realm = try openRealm(types: [MVBox.self])
        let made = try realm.write {
            realm.create(MVBox.self, value: ["id": 5, "kind": MVKind.large, "colour": "g", "optKind": 2,
                                             "kinds": [MVKind.medium, 1], "temperature": MVCelsius(degrees: 1.5), "even": 6])
        }
        XCTAssertEqual(made.kind, .large)
        XCTAssertEqual(made.colour, .green)
        XCTAssertEqual(made.optKind, .medium)
        XCTAssertEqual(Array(made.kinds), [.medium, .small])
        XCTAssertEqual(made.temperature.degrees, 1.5)
        XCTAssertEqual(made.even.half, 3)
        XCTAssertEqual(made["kind"] as? Int, MVKind.large.rawValue, "key-value coding reads an enum as its raw value, as RealmSwift's")
        XCTAssertEqual(made["temperature"] as? Double, 1.5, "and a custom-persisted value as the value it is stored as")
        try realm.write { made.setValue(MVColour.blue, forKey: "colour") }
        XCTAssertEqual(made.colour, .blue)
    }

    func testStoredValuesWithNoCaseOrMappingReadAsNilThroughOptionals() throws {
        try closingRealms {
            let stored = try openRealm(types: [MVBoxStored.self])
            try stored.write {
                stored.create(MVBoxStored.self, value: ["id": 1, "kind": 1, "colour": "red", "optKind": 99,
                                                        "optColours": ["purple", "g"], "optEven": 3])
            }
        }
        let realm = try openRealm(types: [MVBox.self])
        let box = try XCTUnwrap(realm.object(ofType: MVBox.self, forPrimaryKey: 1))
        XCTAssertNil(box.optKind)
        XCTAssertEqual(Array(box.optColours), [nil, .green])
        XCTAssertNil(box.optEven)
        XCTAssertEqual(realm.objects(MVBox.self).filter("optKind == 99").count, 1, "queries see the stored value")
    }

    func testANonOptionalEnumWithNoCaseForItsStoredValueTraps() throws {
        try assertProbeTraps("testReadEnumWithoutACase", saying: "The stored value '99' is not a raw value of any case of MVKind")
    }

    /// A property declared without a value gets its type's default when first read or
    /// written, as in RealmSwift: a type that has none fails only then.
    func testAFailableMappingWithoutADefaultIsNeededOnlyWhenReadUnset() throws {
        let object = MVNoDefault()
        object.count = MVNonZero(4)
        XCTAssertEqual(object.count.value, 4)
        let realm = try openRealm(types: [MVNoDefault.self])
        try realm.write { realm.add(object) }
        XCTAssertEqual(realm.objects(MVNoDefault.self).first?.count.value, 4)
        try realm.write { realm.create(MVNoDefault.self, value: ["id": 2, "count": MVNonZero(9)]) }
        XCTAssertEqual(realm.object(ofType: MVNoDefault.self, forPrimaryKey: 2)?.count.value, 9)
        // The default schema holds every class the program declares, this one too.
        XCTAssertNotNil(try Realm(configuration: Realm.Configuration(inMemoryIdentifier: name)).schema["MVNoDefault"])
    }

    func testReadingAnUnsetFailableMappingWithoutADefaultTraps() throws {
        try assertProbeTraps("testReadUnsetMappingWithoutADefault", saying: "Failed to make a default MVNonZero from the default Int value")
    }

    func testANonOptionalFailableMappingThatDoesNotConvertTraps() throws {
        try assertProbeTraps("testReadFailedMapping", saying: "Failed to convert persisted value '3' to type 'MVEven' in a non-optional context")
    }
}

extension TrapProbes {
    /// Writes one `MVBox` through its stored types, then reads it through the mapped ones.
    private func storedBox(_ values: [String: Any]) throws -> MVBox? {
        try closingRealms {
            let stored = try openRealm(types: [MVBoxStored.self])
            try stored.write { stored.create(MVBoxStored.self, value: values) }
        }
        return try openRealm(types: [MVBox.self]).object(ofType: MVBox.self, forPrimaryKey: 1)
    }

    func testReadEnumWithoutACase() throws {
        _ = try storedBox(["id": 1, "kind": 99])?.kind
    }

    func testReadUnsetMappingWithoutADefault() throws {
        _ = MVNoDefault().count
    }

    func testReadFailedMapping() throws {
        _ = try storedBox(["id": 1, "kind": 1, "even": 3])?.even
    }
}
