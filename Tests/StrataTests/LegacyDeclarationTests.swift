import Foundation
import XCTest
@testable import Strata

/// A model declaring its primary key, index and ignored property through RealmSwift's hooks
/// from before `@Persisted`.
final class LegacyCountry: Object {
    @Persisted var code = ""
    @Persisted var population = 0
    @Persisted var scratch = ""

    override class func primaryKey() -> String? { "code" }
    override class func indexedProperties() -> [String] { ["population"] }
    var cache: AnyObject?
    lazy var summary = "\(code): \(population)"

    override class func ignoredProperties() -> [String] { ["scratch", "cache", "summary"] }
}

final class LegacyMissingKey: Object {
    @Persisted var name = ""
    override class func primaryKey() -> String? { "id" }
}

final class LegacyDoubleKey: Object {
    @Persisted var weight = 0.0
    override class func primaryKey() -> String? { "weight" }
}

final class LegacyListIndex: Object {
    @Persisted var tags: List<String>
    override class func indexedProperties() -> [String] { ["tags"] }
}

final class LegacyUnknownIgnored: Object {
    @Persisted var name = ""
    override class func ignoredProperties() -> [String] { ["nickname"] }
}

/// `primaryKey()`, `indexedProperties()` and `ignoredProperties()` act as the `@Persisted`
/// options do, and a name they give that is no property, or a type they cannot apply to, is
/// refused when the class is opened.
final class LegacyDeclarationTests: StrataTestCase {
    func testTheHooksDeclareTheKeyTheIndexAndWhatIsNotStored() throws {
        let realm = try openRealm(types: [LegacyCountry.self])
        let schema = try XCTUnwrap(realm.schema["LegacyCountry"])
        XCTAssertEqual(schema.properties.map(\.name), ["code", "population"])
        XCTAssertEqual(schema.primaryKeyProperty?.name, "code")
        XCTAssertEqual(schema.properties.map(\.isIndexed), [true, true], "a primary key is indexed")
        let norway = LegacyCountry(value: ["code": "NO", "population": 5_500_000])
        norway.scratch = "kept apart"
        try realm.write { realm.add(norway) }
        XCTAssertEqual(norway.scratch, "kept apart", "an ignored property keeps the accessor's own value")
        XCTAssertEqual(realm.object(ofType: LegacyCountry.self, forPrimaryKey: "NO")?.population, 5_500_000)
        XCTAssertThrowsError(try realm.write { try realm.throwingAdd(LegacyCountry(value: ["code": "NO"])) }) { error in
            XCTAssertTrue("\(error)".contains("existing primary key value 'NO'"), "\(error)")
        }
        try realm.write { realm.add(LegacyCountry(value: ["code": "NO", "population": 5_600_000]), update: .modified) }
        XCTAssertEqual(realm.objects(LegacyCountry.self).filter("population > 5550000").map(\.code), ["NO"])
        XCTAssertEqual(realm.objects(LegacyCountry.self).count, 1)
    }

    func testANameThatIsNoPropertyOrATypeTheHookCannotApplyToIsRefused() {
        let cases: [(Object.Type, String)] = [
            (LegacyMissingKey.self, "Primary key property 'id' does not exist on object 'LegacyMissingKey'"),
            (LegacyDoubleKey.self, "'LegacyDoubleKey.weight' cannot be the primary key: it is of type 'double'"),
            (LegacyListIndex.self, "'LegacyListIndex.tags' of type 'string' cannot be indexed"),
            (LegacyUnknownIgnored.self, "Ignored property 'nickname' does not exist on object 'LegacyUnknownIgnored'"),
        ]
        for (type, message) in cases {
            XCTAssertThrowsError(try openRealm(types: [type])) { error in
                XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput, "\(type)")
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
    }
}
