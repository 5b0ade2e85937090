import Foundation
import XCTest
import Strata

enum Mood: Int, PersistableEnum, Codable {
    case calm = 1, busy = 2
}

final class Parcel: Object, Codable {
    @Persisted(primaryKey: true) var id: Int
    @Persisted(indexed: true) var label: String
    @Persisted var weight: Double
    @Persisted var flag: Bool
    @Persisted var small: Int8
    @Persisted var sent: Date
    @Persisted var payload: Data
    @Persisted var price: Decimal128
    @Persisted var tracking: ObjectId
    @Persisted var uuid: UUID
    @Persisted var mood: Mood
    @Persisted var note: String?
    @Persisted var count: Int?
    @Persisted var tags: List<String>
    @Persisted var sizes: List<Int?>
    @Persisted var codes: MutableSet<String>
    @Persisted var stock: Map<String, Int>
    @Persisted var sender: Courier?
    @Persisted var stops: List<Courier>
    var legacyCount = RealmProperty<Int?>()
}

final class Courier: Object, Codable {
    @Persisted var name: String
}

/// A model that encodes itself, managed or not, by reading its properties.
final class Stamp: Object, Encodable {
    @Persisted var code = ""
    @Persisted var value = 0

    private enum CodingKeys: String, CodingKey { case code, value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(value, forKey: .value)
    }
}

/// `Codable` models: decoding every property kind, missing optional keys and collections,
/// bad input as a `DecodingError`, encoding unmanaged objects (and refusing managed ones as
/// RealmSwift does), and adding what was decoded.
final class CodableTests: StrataTestCase {
    private let decoder = JSONDecoder()

    private static let full = """
        {
          "id": 7, "label": "box", "weight": 2.5, "flag": true, "small": -3,
          "sent": 2.5, "payload": "\(Data("def".utf8).base64EncodedString())",
          "price": "1.5e2", "tracking": "1234567890abcdef12345678",
          "uuid": "00000000-0000-0000-0000-000000000001", "mood": 2,
          "note": "fragile", "count": 4,
          "tags": ["a", "b"], "sizes": [1, null], "codes": ["x", "y", "x"],
          "stock": {"eggs": 12, "apples": 3},
          "sender": {"name": "Ann"}, "stops": [{"name": "Bo"}, {"name": "Cy"}],
          "legacyCount": 9
        }
        """

    private static let minimal = """
        {
          "id": 8, "label": "bag", "weight": 1, "flag": false, "small": 0, "sent": 0,
          "payload": "", "price": 3, "tracking": "1234567890abcdef12345678",
          "uuid": "00000000-0000-0000-0000-000000000002", "mood": 1
        }
        """

    private func decodeParcel(_ json: String) throws -> Parcel {
        try decoder.decode(Parcel.self, from: Data(json.utf8))
    }

    func testDecodesEveryPropertyKind() throws {
        let parcel = try decodeParcel(Self.full)
        XCTAssertEqual(parcel.id, 7)
        XCTAssertEqual(parcel.label, "box")
        XCTAssertEqual(parcel.weight, 2.5)
        XCTAssertTrue(parcel.flag)
        XCTAssertEqual(parcel.small, -3)
        XCTAssertEqual(parcel.sent, Date(timeIntervalSinceReferenceDate: 2.5))
        XCTAssertEqual(parcel.payload, Data("def".utf8))
        XCTAssertEqual(parcel.price, 150)
        XCTAssertEqual(parcel.tracking, ObjectId("1234567890abcdef12345678"))
        XCTAssertEqual(parcel.uuid, UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
        XCTAssertEqual(parcel.mood, .busy)
        XCTAssertEqual(parcel.note, "fragile")
        XCTAssertEqual(parcel.count, 4)
        XCTAssertEqual(Array(parcel.tags), ["a", "b"])
        XCTAssertEqual(Array(parcel.sizes), [1, nil])
        XCTAssertEqual(Set(parcel.codes), ["x", "y"], "a repeated member is kept once")
        XCTAssertEqual(parcel.stock.keys, ["apples", "eggs"])
        XCTAssertEqual(parcel.stock["eggs"], 12)
        XCTAssertEqual(parcel.sender?.name, "Ann")
        XCTAssertEqual(parcel.stops.map(\.name), ["Bo", "Cy"])
        XCTAssertEqual(parcel.legacyCount.value, 9)
    }

    func testMissingOptionalsAndCollectionsDecodeAsNilAndEmpty() throws {
        let parcel = try decodeParcel(Self.minimal)
        XCTAssertNil(parcel.note)
        XCTAssertNil(parcel.count)
        XCTAssertNil(parcel.sender)
        XCTAssertNil(parcel.legacyCount.value)
        XCTAssertTrue(parcel.tags.isEmpty)
        XCTAssertTrue(parcel.codes.isEmpty)
        XCTAssertEqual(parcel.stock.count, 0)
        XCTAssertTrue(parcel.stops.isEmpty)
        XCTAssertEqual(parcel.price, 3, "a decimal decodes from a JSON number too")
    }

    func testNullDecodesAsNil() throws {
        let json = Self.minimal.replacingOccurrences(of: "\"mood\": 1", with: "\"mood\": 1, \"note\": null, \"count\": null, \"legacyCount\": null")
        let parcel = try decodeParcel(json)
        XCTAssertNil(parcel.note)
        XCTAssertNil(parcel.count)
        XCTAssertNil(parcel.legacyCount.value)
    }

    func testBadInputIsADecodingError() {
        let missingRequired = Self.minimal.replacingOccurrences(of: "\"label\": \"bag\", ", with: "")
        XCTAssertThrowsError(try decodeParcel(missingRequired)) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "label")
        }
        let wrongType = Self.minimal.replacingOccurrences(of: "\"weight\": 1", with: "\"weight\": \"heavy\"")
        XCTAssertThrowsError(try decodeParcel(wrongType)) { XCTAssertTrue($0 is DecodingError, "\($0)") }
        let badObjectId = Self.minimal.replacingOccurrences(of: "1234567890abcdef12345678", with: "not-an-id")
        XCTAssertThrowsError(try decodeParcel(badObjectId)) { XCTAssertTrue($0 is DecodingError, "\($0)") }
        let badEnum = Self.minimal.replacingOccurrences(of: "\"mood\": 1", with: "\"mood\": 9")
        XCTAssertThrowsError(try decodeParcel(badEnum)) { XCTAssertTrue($0 is DecodingError, "\($0)") }
        let badMapKey = Self.minimal.replacingOccurrences(of: "\"mood\": 1", with: "\"mood\": 1, \"stock\": {\"a.b\": 1}")
        XCTAssertThrowsError(try decodeParcel(badMapKey)) { error in
            XCTAssertTrue(error is DecodingError, "\(error)")
            XCTAssertTrue("\(error)".contains("a.b"), "\(error)")
        }
    }

    func testEncodedUnmanagedObjectDecodesToTheSameValues() throws {
        let parcel = try decodeParcel(Self.full)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(parcel)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains(#""tags":["a","b"]"#), text)
        XCTAssertTrue(text.contains(#""stock":{"apples":3,"eggs":12}"#), text)
        XCTAssertTrue(text.contains(#""price":"1.5E2""#), text)
        XCTAssertTrue(text.contains(#""tracking":"1234567890abcdef12345678""#), text)
        XCTAssertTrue(text.contains(#""payload":"ZGVm""#), "Data follows the encoder's strategy: \(text)")
        let again = try decoder.decode(Parcel.self, from: data)
        XCTAssertEqual(try encoder.encode(again), data, "decoding what was encoded gives the same object")
    }

    func testDecodedObjectIsAddedWithItsGraph() throws {
        let realm = try openRealm(types: [Parcel.self, Courier.self])
        let parcel = try decodeParcel(Self.full)
        try realm.write { realm.add(parcel) }
        let stored = try XCTUnwrap(realm.object(ofType: Parcel.self, forPrimaryKey: 7))
        XCTAssertEqual(stored.label, "box")
        XCTAssertEqual(stored.mood, .busy)
        XCTAssertEqual(Array(stored.tags), ["a", "b"])
        XCTAssertEqual(stored.stock["apples"], 3)
        XCTAssertEqual(stored.sender?.name, "Ann")
        XCTAssertEqual(stored.stops.map(\.name), ["Bo", "Cy"])
        XCTAssertEqual(stored.legacyCount.value, 9)
        XCTAssertEqual(realm.objects(Courier.self).count, 3)
        XCTAssertEqual(realm.objects(Parcel.self).filter("label == 'box'").count, 1, "the index declared on the class is used")

        // The primary key declared on the class holds for decoded objects too.
        let duplicate = try decodeParcel(Self.full)
        XCTAssertThrowsError(try realm.write { try realm.throwingAdd(duplicate) })
        let update = try decodeParcel(Self.full.replacingOccurrences(of: "\"box\"", with: "\"crate\""))
        try realm.write { realm.add(update, update: .modified) }
        XCTAssertEqual(realm.object(ofType: Parcel.self, forPrimaryKey: 7)?.label, "crate")
        assertConsistent()
    }

    func testManagedObjectDoesNotEncode() throws {
        let realm = try openRealm(types: [Parcel.self, Courier.self])
        let parcel = try decodeParcel(Self.minimal)
        XCTAssertNoThrow(try JSONEncoder().encode(parcel))
        try realm.write { realm.add(parcel) }
        XCTAssertThrowsError(try JSONEncoder().encode(parcel)) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(context.debugDescription.contains("Only unmanaged Realm objects"), context.debugDescription)
        }
    }

    func testResultsEncodeTheirObjects() throws {
        let realm = try openRealm(types: [Stamp.self])
        try realm.write {
            realm.create(Stamp.self, value: ["code": "a", "value": 1])
            realm.create(Stamp.self, value: ["code": "b", "value": 2])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let expected = #"[{"code":"a","value":1},{"code":"b","value":2}]"#
        XCTAssertEqual(String(decoding: try encoder.encode(realm.objects(Stamp.self)), as: UTF8.self), expected)
        XCTAssertEqual(String(decoding: try encoder.encode(AnyRealmCollection(realm.objects(Stamp.self))), as: UTF8.self), expected)
        XCTAssertEqual(String(decoding: try encoder.encode(realm.objects(Stamp.self).filter("value > 1")), as: UTF8.self),
                       #"[{"code":"b","value":2}]"#)
    }

    func testCollectionsAndBoxesCodeOnTheirOwn() throws {
        let list = try decoder.decode(List<Int?>.self, from: Data("[1,null,3]".utf8))
        XCTAssertEqual(Array(list), [1, nil, 3])
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(list), as: UTF8.self), "[1,null,3]")
        let map = try decoder.decode(Map<String, String>.self, from: Data(#"{"b":"2","a":"1"}"#.utf8))
        XCTAssertEqual(map.keys, ["a", "b"])
        let optionals = try decoder.decode(Map<String, Int?>.self, from: Data(#"{"a":null,"b":2}"#.utf8))
        XCTAssertEqual(optionals.count, 2)
        XCTAssertEqual(optionals["a"], .some(nil), "null is a value of a map of optionals, not a missing key")
        let property = try decoder.decode([RealmProperty<Int?>].self, from: Data("[null, 5]".utf8))
        XCTAssertEqual(property.map(\.value), [nil, 5])
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(property), as: UTF8.self), "[null,5]")
    }
}
