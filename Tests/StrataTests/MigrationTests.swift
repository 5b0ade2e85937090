import Foundation
import XCTest
@testable import Strata

// Versions of one stored class "Person", told apart in Swift.
final class PersonV0: Object {
    override class func _realmObjectName() -> String? { "Person" }
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    @Persisted var age = 0
}

final class PersonV1: Object {
    override class func _realmObjectName() -> String? { "Person" }
    @Persisted var fullName = ""
    @Persisted var age = 0
}

final class PersonV2: Object {
    override class func _realmObjectName() -> String? { "Person" }
    @Persisted var fullName = ""
    @Persisted var email = ""
    @Persisted var age = 0
}

final class PersonV3: Object {
    override class func _realmObjectName() -> String? { "Person" }
    @Persisted var fullName = ""
    @Persisted var email = ""
    @Persisted var age = ""          // int → string
    @Persisted var nickname: String?
}

final class ItemV0: Object {
    override class func _realmObjectName() -> String? { "Item" }
    @Persisted var code = ""
    @Persisted(indexed: true) var label = ""
    @Persisted var count = 0
}

final class ItemRenamed: Object {
    override class func _realmObjectName() -> String? { "Item" }
    @Persisted var code = ""
    @Persisted(indexed: true) var title = ""
    @Persisted var count = 0
}

final class ItemKeyed: Object {
    override class func _realmObjectName() -> String? { "Item" }
    @Persisted(primaryKey: true) var code = ""
    @Persisted(indexed: true) var label = ""
    @Persisted var count = 0
}

final class ItemIntKeyed: Object {
    override class func _realmObjectName() -> String? { "Item" }
    @Persisted var code = ""
    @Persisted(indexed: true) var label = ""
    @Persisted(primaryKey: true) var count = 0
}

/// An enum given to the dynamic API, which stores it as its raw value.
enum ItemCode: String, PersistableEnum {
    case made
}

final class MigrationTests: StrataTestCase {
    func config(_ version: UInt64, _ types: [ObjectBase.Type], block: MigrationBlock? = nil) -> Realm.Configuration {
        Realm.Configuration(fileURL: fileURL(), schemaVersion: version, migrationBlock: block, objectTypes: types)
    }

    func seedPeople() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [PersonV0.self]))
            try realm.write {
                realm.add(PersonV0(value: ["firstName": "Ada", "lastName": "Lovelace", "age": 36]))
                realm.add(PersonV0(value: ["firstName": "Alan", "lastName": "Turing", "age": 41]))
            }
        }
    }

    /// The seeds' linear migration, v0 → v3 in one open, with a type change at v3.
    static let linear: MigrationBlock = { migration, oldSchemaVersion in
        migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
            if oldSchemaVersion < 1 {
                let first = oldObject!["firstName"] as! String
                let last = oldObject!["lastName"] as! String
                newObject!["fullName"] = "\(first) \(last)"
            }
            if oldSchemaVersion < 2 {
                newObject!["email"] = ""
            }
            if oldSchemaVersion < 3 {
                newObject!["age"] = String(oldObject!["age"] as! Int)
            }
        }
    }

    func testLinearMigrationFromVersion0To3InOneOpen() throws {
        try seedPeople()
        let calls = Counter()
        let realm = try Realm(configuration: config(3, [PersonV3.self]) { m, v in calls.add(); Self.linear(m, v) })
        XCTAssertEqual(calls.value, 1)
        let people = realm.objects(PersonV3.self).sorted(byKeyPath: "fullName")
        XCTAssertEqual(people.map(\.fullName), ["Ada Lovelace", "Alan Turing"])
        XCTAssertEqual(people.map(\.age), ["36", "41"])
        XCTAssertEqual(people.map(\.email), ["", ""])
        XCTAssertEqual(people.map(\.nickname), [nil, nil], "an added optional property reads nil")
        XCTAssertEqual(try schemaVersionAtURL(fileURL()), 3)
        XCTAssertEqual(realm.schema["Person"]?.properties.map(\.name), ["fullName", "email", "age", "nickname"])
        try realm.write { people.first!.email = "ada@example.org" }
        XCTAssertEqual(people.first!.nickname, nil, "an update keeps added optional slots nil")
    }

    func testStepByStepMigrationsGiveTheSameResult() throws {
        try seedPeople()
        try closingRealms { _ = try Realm(configuration: config(1, [PersonV1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Person") { old, new in
                new!["fullName"] = "\(old!["firstName"] as! String) \(old!["lastName"] as! String)"
            }
        }) }
        try closingRealms { _ = try Realm(configuration: config(2, [PersonV2.self])) }
        let realm = try Realm(configuration: config(3, [PersonV3.self], block: Self.linear))
        XCTAssertEqual(Set(realm.objects(PersonV3.self).map(\.fullName)), ["Ada Lovelace", "Alan Turing"])
        XCTAssertEqual(Set(realm.objects(PersonV3.self).map(\.age)), ["36", "41"])
    }

    func testPerformMigrationMigratesWithoutKeepingTheRealmOpen() throws {
        try seedPeople()
        let calls = Counter()
        let configuration = config(3, [PersonV3.self]) { m, v in calls.add(); Self.linear(m, v) }
        try closingRealms { try Realm.performMigration(for: configuration) }
        XCTAssertEqual(calls.value, 1)
        XCTAssertEqual(try schemaVersionAtURL(fileURL()), 3)
        try closingRealms {
            let realm = try Realm(configuration: configuration)
            XCTAssertEqual(calls.value, 1, "opening again does not migrate again")
            XCTAssertEqual(Set(realm.objects(PersonV3.self).map(\.fullName)), ["Ada Lovelace", "Alan Turing"])
        }
        XCTAssertThrowsError(try Realm.performMigration(for: config(2, [PersonV2.self]))) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .schemaMismatch, "\(error)")
        }
    }

    func testReopeningAfterAWriteOnTheSameThreadMigrates() throws {
        do {
            let realm = try Realm(configuration: config(0, [PersonV0.self]))
            try realm.write { realm.add(PersonV0(value: ["firstName": "Ada", "lastName": "Lovelace", "age": 36])) }
        }
        let calls = Counter()
        let realm = try Realm(configuration: config(1, [PersonV1.self]) { _, _ in calls.add() })
        XCTAssertEqual(calls.value, 1, "the instance of the write is gone once the write and the scope end")
        XCTAssertEqual(realm.configuration.schemaVersion, 1)
    }

    func testMigrationObjectsHandOutNumbersAsNSNumber() throws {
        try seedPeople()
        let numbers = Counter()
        try closingRealms {
            _ = try Realm(configuration: config(1, [PersonV1.self]) { migration, _ in
                migration.enumerateObjects(ofType: "Person") { old, new in
                    if let age = old!["age"], age is NSNumber, age is Int { numbers.add() }
                    XCTAssertEqual(old!.objectSchema.properties.map(\.name), ["firstName", "lastName", "age"])
                    XCTAssertEqual(new!.objectSchema.properties.map(\.name), ["fullName", "age"])
                }
            })
        }
        XCTAssertEqual(numbers.value, 2, "as RealmSwift's migration objects")
    }

    func testEnumeratingVisitsOnlyTheObjectsThereWereBeforeTheMigration() throws {
        try seedPeople()
        let visits = Counter()
        try closingRealms {
            _ = try Realm(configuration: config(1, [PersonV1.self]) { migration, _ in
                migration.create("Person", value: ["fullName": "New One", "age": 1])
                migration.enumerateObjects(ofType: "Person") { old, _ in
                    XCTAssertNotNil(old, "an object created in the migration has no old object and is not visited")
                    visits.add()
                }
                migration.enumerateObjects(ofType: "Person") { old, _ in migration.delete(old!) }
                migration.create("Person", value: ["fullName": "Another", "age": 2])
                migration.enumerateObjects(ofType: "Person") { _, _ in
                    XCTFail("every object there was before was deleted; created ones are not visited")
                }
            })
        }
        XCTAssertEqual(visits.value, 2)
        XCTAssertEqual(try Realm(configuration: config(1, [PersonV1.self])).objects(PersonV1.self).map(\.fullName).sorted(),
                       ["Another", "New One"])
    }

    func testTheBlockRunsOnceAndNotAgain() throws {
        try seedPeople()
        let calls = Counter()
        try closingRealms { _ = try Realm(configuration: config(1, [PersonV1.self]) { _, _ in calls.add() }) }
        try closingRealms { _ = try Realm(configuration: config(1, [PersonV1.self]) { _, _ in calls.add() }) }
        XCTAssertEqual(calls.value, 1)
    }

    func testDifferencesWithoutAHigherVersionListEveryOne() throws {
        try seedPeople()
        XCTAssertThrowsError(try Realm(configuration: config(0, [PersonV3.self]))) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .schemaMismatch)
            let text = (error as! Realm.Error).localizedDescription
            XCTAssertTrue(text.contains("Property 'Person.fullName' has been added."), text)
            XCTAssertTrue(text.contains("Property 'Person.firstName' has been removed."), text)
            XCTAssertTrue(text.contains("Property 'Person.age' has been changed from 'int' to 'string'."), text)
            XCTAssertTrue(text.contains("increase schemaVersion"), text)
        }
    }

    func testALowerSchemaVersionIsAnError() throws {
        try seedPeople()
        try closingRealms { _ = try Realm(configuration: config(2, [PersonV0.self])) }
        XCTAssertThrowsError(try Realm(configuration: config(1, [PersonV0.self]))) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("Provided schema version 1 is less than last set version 2"), "\(error)")
        }
    }

    func testAddedAndRemovedPropertiesNeedNoBlock() throws {
        try seedPeople()
        let realm = try Realm(configuration: config(1, [PersonV2.self]))
        XCTAssertEqual(realm.objects(PersonV2.self).map(\.age).sorted(), [36, 41], "kept properties keep their values")
        XCTAssertEqual(realm.objects(PersonV2.self).map(\.fullName), ["", ""])
        XCTAssertNil(realm.schema["Person"]?["firstName"])
    }

    func testRenameKeepsTheValuesAndTheIndex() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [ItemV0.self]))
            try realm.write { for i in 0..<5 { realm.add(ItemV0(value: ["code": "c\(i)", "label": "l\(i)", "count": i])) } }
        }
        let realm = try Realm(configuration: config(1, [ItemRenamed.self]) { migration, _ in
            migration.renameProperty(onType: "Item", from: "label", to: "title")
        })
        XCTAssertEqual(realm.objects(ItemRenamed.self).map(\.title), ["l0", "l1", "l2", "l3", "l4"])
        XCTAssertEqual(realm.objects(ItemRenamed.self).filter("title == 'l3'").first?.count, 3)
        XCTAssertTrue(realm.objects(ItemRenamed.self).filter("title == 'l3'").explain().contains("index"),
                      realm.objects(ItemRenamed.self).filter("title == 'l3'").explain())
    }

    func testBadRenamesFailAndLeaveTheFileAtTheOldVersion() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [ItemV0.self]))
            try realm.write { realm.add(ItemV0(value: ["code": "a", "label": "x"])) }
        }
        let cases: [(String, String, String)] = [
            ("missing", "title", "does not exist"),
            ("label", "nothing", "Renamed property 'Item.nothing' does not exist"),
            ("label", "count", "destination property already exists"),
            ("count", "title", "the source property still exists"),
        ]
        for (from, to, text) in cases {
            XCTAssertThrowsError(try Realm(configuration: config(1, [ItemRenamed.self]) { migration, _ in
                migration.renameProperty(onType: "Item", from: from, to: to)
            })) { error in
                XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput, "\(error)")
                XCTAssertTrue("\(error)".contains(text), "\(error)")
                XCTAssertTrue("\(error)".contains("the file is unchanged"), "\(error)")
            }
            XCTAssertEqual(try schemaVersionAtURL(fileURL()), 0)
        }
        let realm = try Realm(configuration: config(0, [ItemV0.self]))
        XCTAssertEqual(realm.objects(ItemV0.self).first?.label, "x")
    }

    func testAWrongTypeSetInTheBlockFailsTheMigration() throws {
        try seedPeople()
        XCTAssertThrowsError(try Realm(configuration: config(1, [PersonV1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Person") { _, newObject in newObject!["fullName"] = 42 }
        })) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("property 'Person.fullName' of type string"), "\(error)")
        }
        XCTAssertEqual(try schemaVersionAtURL(fileURL()), 0)
        let realm = try Realm(configuration: config(0, [PersonV0.self]))
        XCTAssertEqual(realm.objects(PersonV0.self).count, 2)
    }

    func testAPrimaryKeyMadeNonUniqueFailsAndAUniqueOneWorks() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [ItemV0.self]))
            try realm.write { for i in 0..<3 { realm.add(ItemV0(value: ["code": "same", "label": "l\(i)", "count": i])) } }
        }
        XCTAssertThrowsError(try Realm(configuration: config(1, [ItemKeyed.self]))) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("primary key value 'same'"), "\(error)")
        }
        XCTAssertEqual(try schemaVersionAtURL(fileURL()), 0)
        let realm = try Realm(configuration: config(1, [ItemKeyed.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Item") { old, new in new!["code"] = "code-\(old!["count"] as! Int)" }
        })
        XCTAssertEqual(realm.object(ofType: ItemKeyed.self, forPrimaryKey: "code-2")?.label, "l2")
        XCTAssertEqual(realm.objects(ItemKeyed.self).filter("label == 'l1'").first?.code, "code-1")
    }

    func testAnIntegerPrimaryKeyRekeysTheObjects() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [ItemV0.self]))
            try realm.write { for i in [30, 10, 20] { realm.add(ItemV0(value: ["code": "c\(i)", "label": "l\(i)", "count": i])) } }
        }
        let realm = try Realm(configuration: config(1, [ItemIntKeyed.self]))
        XCTAssertEqual(realm.objects(ItemIntKeyed.self).map(\.count), [10, 20, 30], "table order is primary-key order")
        XCTAssertEqual(realm.object(ofType: ItemIntKeyed.self, forPrimaryKey: 20)?.label, "l20")
        try realm.write { realm.add(ItemIntKeyed(value: ["code": "new", "count": 5])) }
        XCTAssertEqual(realm.objects(ItemIntKeyed.self).first?.code, "new")
    }

    func testCreateDeleteAndDeleteData() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [ItemV0.self, Note.self]))
            try realm.write {
                for i in 0..<4 { realm.add(ItemV0(value: ["code": "c\(i)", "label": "l\(i)", "count": i])) }
                realm.add(Note(value: ["text": "gone"]))
            }
        }
        let realm = try Realm(configuration: config(1, [ItemV0.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Item") { old, new in
                if (old!["count"] as! Int) % 2 == 1 { migration.delete(new!) }
            }
            migration.create("Item", value: ["code": ItemCode.made, "label": "new", "count": 9])
            migration.enumerateObjects(ofType: "Nothing") { _, _ in XCTFail("a class in neither schema has no objects") }
            XCTAssertTrue(migration.deleteData(forType: "Note"))
            XCTAssertFalse(migration.deleteData(forType: "Nothing"))
        })
        XCTAssertEqual(realm.objects(ItemV0.self).map(\.count), [0, 2, 9])
        XCTAssertEqual(realm.objects(ItemV0.self).filter("label == 'new'").count, 1, "indexes cover created objects")
        XCTAssertEqual(realm.objects(ItemV0.self).filter("label == 'l1'").count, 0, "and forget deleted ones")
        XCTAssertNil(realm.schema["Note"], "a class outside the new schema is removed by deleteData")
    }

    func testOtherClassesOfAClassSubsetAreUntouched() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [PersonV0.self, Note.self]))
            try realm.write { realm.add(Note(value: ["text": "keep", "rank": 1])) }
        }
        try closingRealms { _ = try Realm(configuration: config(1, [PersonV1.self])) }
        let realm = try Realm(configuration: config(1, [Note.self]))
        XCTAssertEqual(realm.objects(Note.self).first?.text, "keep")
        XCTAssertEqual(realm.schema.objectSchema.map(\.className), ["Note"], "a subset Realm shows only its classes")
        try closingRealms {
            let people = try Realm(configuration: config(1, [PersonV1.self]))
            try people.write { people.add(PersonV1(value: ["fullName": "P"])) }
        }
        try realm.write { realm.deleteAll() }
        let people = try Realm(configuration: config(1, [PersonV1.self]))
        XCTAssertEqual(people.objects(PersonV1.self).count, 1, "deleteAll of a subset leaves other classes alone")
    }

    func testOldAndNewSchemasAreVisibleInTheBlock() throws {
        try seedPeople()
        let names = Box()
        _ = try Realm(configuration: config(1, [PersonV1.self]) { migration, _ in
            names.old = migration.oldSchema["Person"]!.properties.map(\.name)
            names.new = migration.newSchema["Person"]!.properties.map(\.name)
        })
        XCTAssertEqual(names.old, ["firstName", "lastName", "age"])
        XCTAssertEqual(names.new, ["fullName", "age"])
    }

    func testDeleteRealmIfMigrationNeededRecreatesTheFile() throws {
        try seedPeople()
        var configuration = config(0, [PersonV1.self])
        configuration.deleteRealmIfMigrationNeeded = true
        let realm = try Realm(configuration: configuration)
        XCTAssertEqual(realm.objects(PersonV1.self).count, 0)
        try realm.write { realm.add(PersonV1(value: ["fullName": "New"])) }
    }

    func testDeleteRealmIfMigrationNeededRefusesWhileOpenInThisProcess() throws {
        try seedPeople()
        let holder = try Realm(configuration: config(0, [PersonV0.self]))
        var settings = config(1, [PersonV1.self])
        settings.deleteRealmIfMigrationNeeded = true
        let configuration = settings
        let done = DispatchSemaphore(value: 0)
        Thread {   // another thread: this one already has an instance of the file
            do {
                _ = try Realm(configuration: configuration)
                XCTFail("opened")
            } catch {
                XCTAssertEqual((error as? Realm.Error)?.code, .alreadyOpen, "\(error)")
            }
            done.signal()
        }.start()
        done.wait()
        _ = configuration
        XCTAssertEqual(holder.objects(PersonV0.self).count, 2)
    }
}

/// A counter a `@Sendable` block can bump.
final class Counter: @unchecked Sendable {
    private(set) var value = 0
    func add() { value += 1 }
}

/// Values a `@Sendable` block can leave behind.
final class Box: @unchecked Sendable {
    var old: [String] = []
    var new: [String] = []
}
