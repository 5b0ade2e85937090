import Foundation
import XCTest
@testable import Strata

final class WriteTests: StrataTestCase {
    /// The classes these tests store: naming them keeps the file's schema independent of the
    /// other model classes the test process has discovered.
    private func openRealm() throws -> Realm {
        try openRealm(types: [Dog.self, AllTypes.self, Tag.self, Note.self])
    }

    func testTheIssueExampleWorksEndToEnd() throws {
        let realm = try openRealm()
        try realm.write {
            realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 9]))
            realm.create(Dog.self, value: ["id": 1, "age": 10], update: .modified)
        }
        let old = realm.objects(Dog.self).filter("age > %@ AND name BEGINSWITH[c] 'r'", 8).sorted(byKeyPath: "name")
        XCTAssertEqual(old.count, 1)
        XCTAssertEqual(old.first?.name, "Rex")
        XCTAssertEqual(old.max(ofProperty: "age") as Int?, 10)
    }

    /// Setting properties one after another, with other objects' writes in between, keeps
    /// every earlier set: each set starts from the object's current row, never from one read
    /// before a write.
    func testSuccessiveSetsWithWritesBetweenKeepEveryValue() throws {
        let realm = try openRealm()
        try realm.write {
            for i in 1...200 { realm.add(Dog(value: ["id": i, "name": "d\(i)", "age": i])) }
        }
        let dog = realm.object(ofType: Dog.self, forPrimaryKey: 7)!
        XCTAssertEqual(dog.name, "d7")
        try realm.write {
            dog.name = "seven"
            for i in 100...200 { realm.object(ofType: Dog.self, forPrimaryKey: i)!.name = String(repeating: "x", count: i) }
            dog.age = 70
            dog.photo = Data([7])
            XCTAssertEqual(dog.name, "seven")
            dog.name = "SEVEN"
            dog.age = 71
        }
        let again = realm.object(ofType: Dog.self, forPrimaryKey: 7)!
        XCTAssertEqual(again.name, "SEVEN")
        XCTAssertEqual(again.age, 71)
        XCTAssertEqual(again.photo, Data([7]))
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 150)?.name.count, 150)
        XCTAssertEqual(realm.objects(Dog.self).filter("name == 'SEVEN'").count, 1, "the index follows the last set")
    }

    /// A lookup by primary key, with an `Int` key or any other, finds the object or nil; on
    /// a class without a primary key it traps, as in RealmSwift.
    func testLookupByPrimaryKey() throws {
        let realm = try openRealm()
        try realm.write {
            realm.add(Dog(value: ["id": 3, "name": "Rex"]))
            realm.add(Tag(value: ["name": "red"]))
        }
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 3)?.name, "Rex")
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: Int64(3))?.name, "Rex")
        XCTAssertNil(realm.object(ofType: Dog.self, forPrimaryKey: 4))
        XCTAssertEqual(realm.object(ofType: Tag.self, forPrimaryKey: "red")?.uses, 0)
        XCTAssertNil(realm.object(ofType: Tag.self, forPrimaryKey: "blue"))
        try assertProbeTraps("testLookupByPrimaryKeyOfAClassWithoutOne", saying: "'Note' does not have a primary key")
    }

    func testAddedObjectBecomesManagedAndReadsThroughTheStore() throws {
        let realm = try openRealm()
        let dog = Dog()
        dog.id = 7
        dog.name = "Fido"
        XCTAssertNil(dog.realm)
        try realm.write { realm.add(dog) }
        XCTAssertNotNil(dog.realm)
        try realm.write { dog.age = 4 }
        let fetched = try XCTUnwrap(realm.object(ofType: Dog.self, forPrimaryKey: 7))
        XCTAssertEqual(fetched.age, 4)
        XCTAssertEqual(fetched.name, "Fido")
        try realm.write { fetched.name = "Fido II" }
        XCTAssertEqual(dog.name, "Fido II", "two accessors of one object see the same stored value")
    }

    func testWriteReturnsTheBlockValueAndRollsBackWhenItThrows() throws {
        let realm = try openRealm()
        let n = try realm.write { () -> Int in
            realm.add(Dog(value: ["id": 1]))
            return 42
        }
        XCTAssertEqual(n, 42)
        struct Boom: Error {}
        XCTAssertThrowsError(try realm.write {
            realm.add(Dog(value: ["id": 2]))
            throw Boom()
        })
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(Dog.self).count, 1)
        XCTAssertNil(realm.object(ofType: Dog.self, forPrimaryKey: 2))
    }

    func testALoopInAWriteGoesOverTheObjectsTheResultsHeldWhenItBegan() throws {
        let realm = try openRealm()
        try realm.write { for id in 1...10 { realm.add(Dog(value: ["id": id, "name": "d\(id)", "age": id])) } }
        var visited = 0
        try realm.write {
            for dog in realm.objects(Dog.self).filter("age > 0") {
                visited += 1
                realm.delete(dog)
            }
        }
        XCTAssertEqual(visited, 10)
        XCTAssertEqual(realm.objects(Dog.self).count, 0)
    }

    func testCancelWriteDiscardsChanges() throws {
        let realm = try openRealm()
        realm.beginWrite()
        XCTAssertTrue(realm.isInWriteTransaction)
        let dog = Dog(value: ["id": 1])
        realm.add(dog)
        XCTAssertEqual(realm.objects(Dog.self).count, 1)
        realm.cancelWrite()
        XCTAssertEqual(realm.objects(Dog.self).count, 0)
        XCTAssertTrue(dog.isInvalidated, "an object the cancelled write added (with its class's table)")
        realm.beginWrite()
        realm.add(Dog(value: ["id": 3]))
        try realm.commitWrite()
        XCTAssertEqual(realm.objects(Dog.self).count, 1)
        XCTAssertTrue(dog.isInvalidated)
    }

    /// RealmSwift's tests write through temporary instances: the thread's instance stays
    /// alive while its write is open, and a thread that ends with a write open gives the
    /// writer's lock back (its instance goes, cancelling the write).
    func testTemporaryInstancesShareTheThreadsOpenWrite() throws {
        let configuration = configuration(types: [Dog.self])
        try Realm(configuration: configuration).beginWrite()
        try Realm(configuration: configuration).create(Dog.self, value: ["id": 1, "name": "Rex"])
        XCTAssertTrue(try Realm(configuration: configuration).isInWriteTransaction)
        try Realm(configuration: configuration).commitWrite()
        XCTAssertFalse(try Realm(configuration: configuration).isInWriteTransaction)
        XCTAssertEqual(try Realm(configuration: configuration).objects(Dog.self).count, 1)

        let abandoned = Thread {
            try! Realm(configuration: configuration).beginWrite()
            try! Realm(configuration: configuration).create(Dog.self, value: ["id": 2])
        }
        abandoned.start()
        while !abandoned.isFinished { usleep(1000) }
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.create(Dog.self, value: ["id": 3]) }
        XCTAssertEqual(realm.objects(Dog.self).map(\.id).sorted(), [1, 3], "the abandoned write was cancelled")
    }

    /// As RealmSwift's: `create` copies objects of another Realm's file, nested ones too.
    func testCreateCopiesObjectsOfAnotherRealm() throws {
        let first = try openRealm("first.strata", types: [Walker.self, Pup.self])
        let second = try openRealm("second.strata", types: [Walker.self, Pup.self])
        let walker = try first.write { first.create(Walker.self, value: ["id": 1, "name": "Jane", "dogs": [["name": "Rex", "age": 3]]]) }
        let copy = try second.write { second.create(Walker.self, value: walker) }
        XCTAssertEqual(copy.realm, second)
        XCTAssertEqual(copy.dogs.map(\.name), ["Rex"])
        XCTAssertEqual(second.objects(Pup.self).count, 1, "the nested object is copied")
        XCTAssertEqual(first.objects(Pup.self).count, 1)
        try second.write { second.create(Walker.self, value: ["id": 2, "dogs": [walker.dogs[0]]]) }
        XCTAssertEqual(second.objects(Pup.self).count, 2)
        let unmanaged = Pup(value: ["name": "Given"])
        try second.write { second.create(Walker.self, value: ["id": 3, "dogs": [unmanaged]]) }
        XCTAssertNil(unmanaged.realm, "an unmanaged object given to create is copied, not adopted")
        XCTAssertEqual(second.object(ofType: Walker.self, forPrimaryKey: 3)?.dogs.first?.name, "Given")
    }

    func testDuplicatePrimaryKeyThrowsFromThrowingAddAndKeepsEarlierCommits() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "A"])) }
        XCTAssertThrowsError(try realm.write { try realm.throwingAdd(Dog(value: ["id": 1, "name": "B"])) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("existing primary key value '1'"), "\(error)")
        }
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 1)?.name, "A")
        let tag = Tag(value: ["name": "x"])
        try realm.write { realm.add(tag) }
        XCTAssertThrowsError(try realm.write { try realm.throwingAdd(Tag(value: ["name": "x"])) })
        XCTAssertEqual(realm.objects(Tag.self).count, 1)
    }

    func testARejectedAddLeavesTheObjectUnmanagedAndTheWriteGoesOn() throws {
        let realm = try openRealm()
        try realm.write {
            realm.add(Dog(value: ["id": 1, "name": "A"]))
            let duplicate = Dog(value: ["id": 1, "name": "B"])
            XCTAssertThrowsError(try realm.throwingAdd(duplicate))
            XCTAssertNil(duplicate.realm)
            XCTAssertEqual(duplicate.name, "B")
            duplicate.id = 2
            try realm.throwingAdd(duplicate)
            XCTAssertNotNil(duplicate.realm)
        }
        XCTAssertEqual(realm.objects(Dog.self).sorted(byKeyPath: "id").map(\.name), ["A", "B"])
    }

    func testUpdatePolicyModifiedKeepsUntouchedFieldsAndAllOverwrites() throws {
        let realm = try openRealm()
        try realm.write {
            realm.create(Tag.self, value: ["name": "swift", "uses": 3])
            realm.create(Tag.self, value: ["name": "swift"], update: .modified)
        }
        XCTAssertEqual(realm.object(ofType: Tag.self, forPrimaryKey: "swift")?.uses, 3)
        try realm.write { realm.add(Tag(value: ["name": "swift"]), update: .all) }
        XCTAssertEqual(realm.object(ofType: Tag.self, forPrimaryKey: "swift")?.uses, 0)
        XCTAssertEqual(realm.objects(Tag.self).count, 1)
    }

    func testUpdatePolicyWithoutPrimaryKeyThrows() throws {
        let realm = try openRealm()
        XCTAssertThrowsError(try realm.write { try realm.throwingAdd(Note(), update: .modified) })
    }

    func testThrowingCreateNamesThePropertyWithTheWrongType() throws {
        let realm = try openRealm()
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Dog.self, value: ["id": 1, "age": "old"]) }) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("Dog.age"), "\(error)")
        }
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(Dog.self, value: [1, "n", 3, Date(), nil, "extra"] as [Any?]) })
        XCTAssertThrowsError(try realm.write { try realm.throwingCreate(AllTypes.self, value: ["int8": 300]) }) { error in
            XCTAssertTrue("\(error)".contains("AllTypes.int8"), "\(error)")
        }
        XCTAssertEqual(realm.objects(Dog.self).count, 0)
    }

    func testDeleteInvalidatesObjectsAndDeleteAllEmptiesTheRealm() throws {
        let realm = try openRealm()
        try realm.write {
            for i in 0..<10 { realm.add(Dog(value: ["id": i, "name": "d\(i)"])) }
            realm.add(Note(value: ["text": "hi"]))
        }
        let dog = try XCTUnwrap(realm.object(ofType: Dog.self, forPrimaryKey: 3))
        try realm.write { realm.delete(dog) }
        XCTAssertTrue(dog.isInvalidated)
        XCTAssertEqual(realm.objects(Dog.self).count, 9)
        XCTAssertEqual(realm.objects(Dog.self).filter("name == 'd3'").count, 0, "index entry removed too")
        try realm.write { realm.delete(realm.objects(Dog.self).filter("id < 5")) }
        XCTAssertEqual(realm.objects(Dog.self).count, 5)
        try realm.write { realm.deleteAll() }
        XCTAssertTrue(realm.isEmpty)
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "again"])) }
        XCTAssertEqual(realm.objects(Dog.self).filter("name == 'again'").count, 1)
    }

    func testSubscriptAndSetValueForKey() throws {
        let realm = try openRealm()
        let dog = Dog(value: ["id": 5, "name": "Kvc"])
        XCTAssertEqual(dog["name"] as? String, "Kvc")
        dog["age"] = 3
        try realm.write { realm.add(dog) }
        XCTAssertEqual(dog["age"] as? Int, 3)
        try realm.write { dog.setValue("Renamed", forKey: "name") }
        XCTAssertEqual(realm.objects(Dog.self).filter("name == 'Renamed'").count, 1)
        XCTAssertNil(dog["photo"] ?? nil)
    }

    func testValuesOfEveryTypeRoundTrip() throws {
        let realm = try openRealm()
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123456.789012345)
        let all = AllTypes(value: [
            "bool": true, "int": Int.min, "int8": Int8.max, "int16": Int16.min, "int32": Int32.max,
            "int64": Int64.max, "float": Float(1.5), "double": -2.25, "string": "héllo ✓", "data": Data([0, 1, 255]),
            "date": date, "uuid": uuid, "optInt": 5, "optString": "x", "optDate": date,
        ])
        try realm.write { realm.add(all) }
        realm.refresh()
        let o = try XCTUnwrap(realm.objects(AllTypes.self).first)
        XCTAssertEqual(o.bool, true)
        XCTAssertEqual(o.int, Int.min)
        XCTAssertEqual(o.int8, Int8.max)
        XCTAssertEqual(o.int16, Int16.min)
        XCTAssertEqual(o.int32, Int32.max)
        XCTAssertEqual(o.int64, Int64.max)
        XCTAssertEqual(o.float, 1.5)
        XCTAssertEqual(o.double, -2.25)
        XCTAssertEqual(o.string, "héllo ✓")
        XCTAssertEqual(o.data, Data([0, 1, 255]))
        XCTAssertEqual(o.date, date, "full Date precision")
        XCTAssertEqual(o.uuid, uuid)
        XCTAssertNil(o.optBool)
        XCTAssertEqual(o.optInt, 5)
        XCTAssertNil(o.optInt8)
        XCTAssertEqual(o.optString, "x")
        XCTAssertEqual(o.optDate, date)
        XCTAssertNil(o.optUUID)
        try realm.write { o.optInt = nil; o.optUUID = uuid }
        XCTAssertNil(o.optInt)
        XCTAssertEqual(o.optUUID, uuid)
    }
}
