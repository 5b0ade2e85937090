import Foundation
import XCTest
@testable import Strata

/// Two versions of one stored class, told apart in Swift but stored under one name.
final class PetV1: Object {
    override class func _realmObjectName() -> String? { "Pet" }
    @Persisted var name = ""
    @Persisted var age = 0
}

final class PetV2: Object {
    override class func _realmObjectName() -> String? { "Pet" }
    @Persisted var name: String?
    @Persisted var weight = 0.0
}

final class LongNames: Object {
    @Persisted var aPropertyWhoseNameIsMuchLongerThanTheSixtyThreeByteLimitOfTheFileFormat = 0
}

final class Plain: Object {
    @Persisted var stored = 0
    var notStored = 5
    var computed: Int { stored * 2 }
}

final class Flag: Object {
    @Persisted var on = false
}

/// A default that makes an object from a value: discovering this class makes an instance,
/// which discovers `Flag` on the way.
final class FlagHolder: Object {
    @Persisted var flag: Flag? = Flag(value: ["on": true])
}

final class SchemaTests: StrataTestCase {
    func testADefaultMadeFromAValueIsDiscoveredWithItsClass() throws {
        let realm = try openRealm(types: [FlagHolder.self])
        try realm.write { realm.add(FlagHolder()) }
        XCTAssertEqual(realm.objects(FlagHolder.self).first?.flag?.on, true)
        XCTAssertEqual(realm.objects(Flag.self).count, 1)
        let created = try realm.write { realm.create(FlagHolder.self) }
        XCTAssertEqual(created.flag?.on, true, "create without a value takes the link's default object, as RealmSwift")
        let cleared = try realm.write { realm.create(FlagHolder.self, value: ["flag": NSNull()]) }
        XCTAssertNil(cleared.flag, "a link given as null stays null")
        XCTAssertEqual(realm.objects(Flag.self).count, 2)
    }

    func testDescriptionsAreRealmSwifts() throws {
        let realm = try openRealm(types: [FlagHolder.self])
        let expected = """
            FlagHolder {
                flag {
                    type = object;
                    objectClassName = Flag;
                    linkOriginPropertyName = (null);
                    columnName = flag;
                    indexed = NO;
                    isPrimary = NO;
                    array = NO;
                    set = NO;
                    dictionary = NO;
                    optional = YES;
                }
            }
            """
        XCTAssertEqual(realm.schema["FlagHolder"]?.description, expected.replacingOccurrences(of: "    ", with: "\t"))
        XCTAssertTrue(realm.schema["Flag"]?.description.contains("\ttype = bool;\n\tcolumnName = on;") == false, "each line indented once more")
        XCTAssertTrue(realm.schema["Flag"]?.description.contains("\t\ttype = bool;\n\t\tcolumnName = on;") == true)
    }

    func testOpeningWithADifferentSchemaListsEveryDifference() throws {
        try closingRealms {
            let realm = try openRealm(types: [PetV1.self])
            try realm.write { realm.add(PetV1(value: ["name": "Tom", "age": 3])) }
        }
        XCTAssertThrowsError(try openRealm(types: [PetV2.self])) { error in
            let error = error as! Realm.Error
            XCTAssertEqual(error.code, .schemaMismatch)
            let text = error.localizedDescription
            XCTAssertTrue(text.contains("Property 'Pet.name' has been made optional."), text)
            XCTAssertTrue(text.contains("Property 'Pet.weight' has been added."), text)
            XCTAssertTrue(text.contains("Property 'Pet.age' has been removed."), text)
        }
        let realm = try openRealm(types: [PetV1.self])
        XCTAssertEqual(realm.objects(PetV1.self).first?.name, "Tom", "the data is untouched")
    }

    func testSchemaIsDiscoveredWithoutPlainVars() throws {
        let schema = Plain().objectSchema
        XCTAssertEqual(schema.className, "Plain")
        XCTAssertEqual(schema.properties.map(\.name), ["stored"])
        let dog = Dog().objectSchema
        XCTAssertEqual(dog.properties.map(\.name), ["id", "name", "age", "born", "photo"])
        XCTAssertEqual(dog.primaryKeyProperty?.name, "id")
        XCTAssertEqual(dog["name"]?.isIndexed, true)
        XCTAssertEqual(dog["photo"]?.isOptional, true)
        XCTAssertEqual(dog["photo"]?.type, .data)
        XCTAssertEqual(dog["born"]?.type, .date)
        XCTAssertEqual(Dog.className(), "Dog")
        XCTAssertEqual(PetV1.className(), "PetV1")
    }

    func testTheSchemaIsStoredInTheFile() throws {
        try closingRealms { _ = try openRealm(types: [Dog.self, Tag.self]) }
        try closingRealms {
            let both = try openRealm(types: [Tag.self, Dog.self])
            XCTAssertEqual(Set(both.schema.objectSchema.map(\.className)), ["Dog", "Tag"])
        }
        let realm = try openRealm(types: [Tag.self])
        XCTAssertEqual(Set(realm.schema.objectSchema.map(\.className)), ["Tag"], "a class subset sees only its classes")
        XCTAssertEqual(realm.schema["Tag"]?.primaryKeyProperty?.type, .string)
    }

    func testOverlongPropertyNamesAreRefused() {
        XCTAssertThrowsError(try openRealm(types: [LongNames.self])) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("limit is 63 bytes"), "\(error)")
        }
    }

    func testValuesOver16MiBAreRefusedAndNothingIsLost() throws {
        let realm = try openRealm(types: [Note.self])
        try realm.write { realm.add(Note(value: ["text": "small"])) }
        let huge = String(repeating: "y", count: (16 << 20) + 1)
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Note.self, value: ["text": huge]) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("16 MiB"), "\(error)")
        }
        XCTAssertEqual(realm.objects(Note.self).count, 1)
        let exactly = String(repeating: "z", count: 16 << 20)
        try realm.write { realm.create(Note.self, value: ["text": exactly]) }
        XCTAssertEqual(realm.objects(Note.self).filter("rank == 0").count, 2)
        XCTAssertEqual(realm.objects(Note.self).last?.text.utf8.count, 16 << 20)
    }
}
