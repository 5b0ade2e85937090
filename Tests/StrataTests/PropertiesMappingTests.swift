import Foundation
import XCTest
@testable import Strata
import StrataStorage

final class MappedPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var firstName = ""
    @Persisted var lastName = ""
    @Persisted var pets: List<MappedPet>

    override class func propertiesMapping() -> [String: String] {
        ["firstName": "first_name", "lastName": "last_name", "pets": "pet_list"]
    }
}

final class MappedPet: Object {
    @Persisted var name = ""
    @Persisted(originProperty: "pets") var owners: LinkingObjects<MappedPerson>
}

final class ClashingNames: Object {
    @Persisted var a = ""
    @Persisted var b = ""

    override class func propertiesMapping() -> [String: String] { ["a": "same", "b": "same"] }
}

/// Names mapped through RealmSwift's older hook.
final class ColumnNamedBook: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""

    override class func _realmColumnNames() -> [String: String] { ["title": "book title"] }
}

/// `propertiesMapping()`: properties stored under other names, while code, queries,
/// key-value coding and notifications use the property names, as RealmSwift's custom column
/// names.
final class PropertiesMappingTests: StrataTestCase {
    private func openWithPeople() throws -> Realm {
        let realm = try openRealm(types: [MappedPerson.self, MappedPet.self])
        try realm.write {
            realm.create(MappedPerson.self, value: ["id": 1, "firstName": "Ann", "lastName": "Zhou", "pets": [["name": "Rex"]]])
            realm.create(MappedPerson.self, value: ["id": 2, "firstName": "Bob", "lastName": "Abel"])
        }
        return realm
    }

    func testTheFileStoresTheMappedNames() throws {
        let realm = try openWithPeople()
        let file = try StorageFile.open(path: fileURL().path, options: .init(readOnly: true))
        let txn = try file.beginRead()
        defer { txn.abort() }
        XCTAssertEqual(txn.schema.classes["MappedPerson"]?.properties.map(\.name), ["id", "first_name", "last_name", "pet_list"])
        let properties = try XCTUnwrap(realm.schema["MappedPerson"]?.properties)
        XCTAssertEqual(properties.map(\.name), ["id", "firstName", "lastName", "pets"], "the schema the code sees has the property names")
        XCTAssertEqual(properties.map(\.columnName), [nil, "first_name", "last_name", "pet_list"])
        XCTAssertEqual(MappedPerson.sharedSchema()?.properties.map(\.columnName), [nil, "first_name", "last_name", "pet_list"])
    }

    /// As RealmSwift: the old object knows only the stored names, the new one takes the
    /// property names too.
    func testAMigrationsNewObjectsTakeThePropertyNames() throws {
        _ = try openWithPeople()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: fileURL(), schemaVersion: 1, migrationBlock: { migration, _ in
            migration.enumerateObjects(ofType: "MappedPerson") { old, new in
                XCTAssertEqual(new!["firstName"] as? String, old!["first_name"] as? String)
                new!["lastName"] = (new!["last_name"] as! String).uppercased()
                XCTAssertTrue(new!["pets"] as AnyObject === new!["pet_list"] as AnyObject, "one property, either name")
            }
        }, objectTypes: [MappedPerson.self, MappedPet.self]))
        XCTAssertEqual(realm.objects(MappedPerson.self).sorted(byKeyPath: "id").map(\.lastName), ["ZHOU", "ABEL"])
    }

    func testTheOlderColumnNamesHookMapsAsPropertiesMappingDoes() throws {
        let realm = try openRealm(types: [ColumnNamedBook.self])
        try realm.write { realm.create(ColumnNamedBook.self, value: ["id": 1, "title": "Dune"]) }
        let file = try StorageFile.open(path: fileURL().path, options: .init(readOnly: true))
        let txn = try file.beginRead()
        defer { txn.abort() }
        XCTAssertEqual(txn.schema.classes["ColumnNamedBook"]?.properties.map(\.name), ["id", "book title"])
        XCTAssertEqual(realm.schema["ColumnNamedBook"]?.properties.map(\.columnName), [nil, "book title"])
        XCTAssertEqual(realm.objects(ColumnNamedBook.self).filter("title == 'Dune'").count, 1)
        XCTAssertEqual(MappedPerson._realmColumnNames(), MappedPerson.propertiesMapping(), "by default, the same mapping")
    }

    func testTheBaseClassesHaveNoSharedSchema() {
        XCTAssertNil(ObjectBase.sharedSchema())
        XCTAssertNil(Object.sharedSchema())
        XCTAssertNil(EmbeddedObject.sharedSchema())
        XCTAssertEqual(ColumnNamedBook.sharedSchema()?.className, "ColumnNamedBook")
    }

    func testTheDynamicAPIUsesThePropertyNames() throws {
        let realm = try openWithPeople()
        let ann = try XCTUnwrap(realm.dynamicObject(ofType: "MappedPerson", forPrimaryKey: 1))
        XCTAssertEqual(ann["firstName"] as? String, "Ann")
        XCTAssertEqual(ann.dynamicList("pets").count, 1)
        try realm.write {
            ann.lastName = "Zhu"
            realm.dynamicCreate("MappedPerson", value: ["id": 3, "firstName": "Cy", "pets": [["name": "Tom"]]])
        }
        XCTAssertEqual(realm.object(ofType: MappedPerson.self, forPrimaryKey: 1)?.lastName, "Zhu")
        XCTAssertEqual(realm.object(ofType: MappedPerson.self, forPrimaryKey: 3)?.pets.first?.name, "Tom")
        XCTAssertEqual(realm.dynamicObjects("MappedPerson").filter("firstName == 'Cy'").count, 1)
    }

    func testQueriesSortingAndKeyPathsUseThePropertyNames() throws {
        let realm = try openWithPeople()
        let people = realm.objects(MappedPerson.self)
        XCTAssertEqual(people.filter("firstName == 'Ann'").map(\.id), [1])
        XCTAssertEqual(people.sorted(byKeyPath: "lastName").map(\.id), [2, 1])
        XCTAssertEqual(people.where { $0.firstName == "Bob" }.map(\.id), [2])
        XCTAssertEqual(people.filter("ANY pets.name == 'Rex'").map(\.id), [1])
        XCTAssertEqual(realm.objects(MappedPet.self).filter("ANY owners.lastName == 'Zhou'").count, 1)
        XCTAssertEqual(realm.objects(MappedPet.self).first?.owners.first?.firstName, "Ann", "backlinks through a mapped list")
    }

    func testKeyValueCodingAndWritesUseThePropertyNames() throws {
        let realm = try openWithPeople()
        let ann = try XCTUnwrap(realm.object(ofType: MappedPerson.self, forPrimaryKey: 1))
        XCTAssertEqual(ann["firstName"] as? String, "Ann")
        try realm.write { ann.setValue("Anna", forKey: "firstName"); ann.lastName = "Zhu" }
        XCTAssertEqual(realm.objects(MappedPerson.self).filter("firstName == 'Anna' AND lastName == 'Zhu'").count, 1)
    }

    func testNotificationsNameThePropertyNames() throws {
        let realm = try openWithPeople()
        let ann = try XCTUnwrap(realm.object(ofType: MappedPerson.self, forPrimaryKey: 1))
        var names: [[String]] = []
        let token = ann.observe(keyPaths: ["firstName"]) { change in
            if case .change(_, let properties) = change { names.append(properties.map(\.name)) }
        }
        defer { token.invalidate() }
        try realm.write { ann.lastName = "not observed" }
        try realm.write { ann.firstName = "Anne" }
        spin { names.count == 1 }
        XCTAssertEqual(names, [["firstName"]])
    }

    func testTwoPropertiesStoredUnderOneNameAreRefused() throws {
        XCTAssertThrowsError(try openRealm(types: [ClashingNames.self])) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput, "\(error)")
            XCTAssertTrue("\(error)".contains("are both stored as 'same'"), "\(error)")
        }
    }
}
