import Foundation
import XCTest
@testable import Strata

/// Declared and never used in code by any test: only the default schema brings it in.
final class NeverNamedModel: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var label = ""
    @Persisted var tags: List<String>
}

/// Kept out of the default schema by RealmSwift's hook.
final class IgnoredModel: Object {
    override class func _realmIgnoreClass() -> Bool { true }
    @Persisted var value = 0
}

/// Two shapes of one stored class ("Shelf"), neither of them used by the tests below until
/// they name one.
final class ShelfV1: Object {
    override class func _realmObjectName() -> String? { "Shelf" }
    @Persisted var width = 0
}

final class ShelfV2: Object {
    override class func _realmObjectName() -> String? { "Shelf" }
    @Persisted var depth = 0.0
}

/// Two classes stored as one ("Rack"), under their own property names: twins, stored by
/// default.
final class RackTwin1: Object {
    override class func _realmObjectName() -> String? { "Rack" }
    override class func propertiesMapping() -> [String: String] { ["height": "h", "label": "l"] }
    @Persisted var height = 0
    @Persisted var label = ""
}

final class RackTwin2: Object {
    override class func _realmObjectName() -> String? { "Rack" }
    override class func propertiesMapping() -> [String: String] { ["size": "h", "title": "l"] }
    @Persisted var size = 0
    @Persisted var title = ""
}

/// A configuration without `objectTypes` stores every model class the program declares, as
/// RealmSwift's default schema does.
final class DefaultSchemaTests: StrataTestCase {
    private func openDefault(_ name: String = "default.strata") throws -> Realm {
        try Realm(configuration: Realm.Configuration(fileURL: fileURL(name)))
    }

    func testEveryDeclaredClassIsInTheDefaultSchemaBeforeAnyUse() throws {
        let realm = try openDefault()
        let schema = try XCTUnwrap(realm.schema["NeverNamedModel"], "a declared class the process never named is stored")
        XCTAssertEqual(schema.primaryKeyProperty?.name, "id")
        XCTAssertEqual(schema.properties.map(\.name), ["id", "label", "tags"])
        XCTAssertNotNil(realm.schema["Flag"], "every test model is declared")
        XCTAssertNotNil(realm.schema["Coordinates"], "embedded classes too")
        XCTAssertEqual(realm.dynamicObjects("NeverNamedModel").count, 0, "the dynamic API finds the stored class by name")
        try realm.write { realm.dynamicCreate("NeverNamedModel", value: ["id": 3, "label": "three", "tags": ["a"]]) }
        XCTAssertEqual(realm.object(ofType: NeverNamedModel.self, forPrimaryKey: 3)?.tags.first, "a")
    }

    func testStrataAndIgnoredClassesAreLeftOut() throws {
        let names = try Set(openDefault().schema.objectSchema.map(\.className))
        for name in ["Object", "EmbeddedObject", "DynamicObject", "IgnoredModel"] {
            XCTAssertFalse(names.contains(name), "\(name) is not a model of the default schema")
        }
        let explicit = try Realm(configuration: Realm.Configuration(fileURL: fileURL("explicit.strata"), objectTypes: [IgnoredModel.self]))
        try explicit.write { explicit.add(IgnoredModel()) }
        XCTAssertEqual(explicit.objects(IgnoredModel.self).count, 1, "an ignored class is stored when a configuration names it")
        let later = try Set(openDefault("later.strata").schema.objectSchema.map(\.className))
        XCTAssertFalse(later.contains("IgnoredModel"), "used through objectTypes, an ignored class still stays out of the default schema")
    }

    func testANameTwoClassesDeclareWaitsForTheCodeToChooseOne() throws {
        XCTAssertNil(try openDefault().schema["Shelf"], "neither shape is stored by default")
        let realm = try openDefault("chosen.strata")
        try realm.write { realm.add(ShelfV2()) }
        XCTAssertEqual(realm.schema["Shelf"]?.properties.map(\.name), ["depth"], "the shape the code used is stored")
    }

    func testTwinsStoringAlikeAreOneStoredClass() throws {
        let realm = try openDefault()
        XCTAssertNotNil(realm.schema["Rack"])
        try realm.write { realm.add(RackTwin1(value: [3, "low"])) }
        XCTAssertEqual(realm.objects(RackTwin2.self).first?.title, "low", "either twin reads the stored objects")
    }

    func testAClassStrataCannotStoreIsLeftOutAndFailsWhenNamed() throws {
        let realm = try openDefault()
        XCTAssertNil(realm.schema["LongNames"], "a property name over the limit")
        XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: fileURL("named.strata"), objectTypes: [LongNames.self]))) {
            XCTAssertEqual(($0 as? Realm.Error)?.code, .invalidInput, "\($0)")
        }
    }

    func testTheProgramsClassesAreFoundInItsImages() {
        let names = Set(DeclaredClasses.all.map { $0.className() })
        XCTAssertTrue(names.isSuperset(of: ["NeverNamedModel", "ShelfV1", "ShelfV2", "LongNames", "Flag"]), "\(names.count) classes")
        XCTAssertFalse(names.contains("IgnoredModel"))
        let shelves = DeclaredClasses.byName.first { $0.contains { $0 == ShelfV1.self } }
        XCTAssertTrue(shelves?.contains { $0 == ShelfV2.self } == true, "grouped by schema name")
    }
}
