import Foundation
import XCTest
import Strata

/// `@ThreadSafe`: a managed object or collection read from other threads, each read finding it
/// in that thread's Realm; deleted objects, nil, frozen values, function arguments and the
/// trap for an unmanaged value.
final class ThreadSafeWrapperTests: StrataTestCase {
    private func seeded() throws -> (Realm, DogPound) {
        let realm = try openRealm(types: [Dog.self, DogPound.self])
        let pound = try realm.write { () -> DogPound in
            let pound = realm.create(DogPound.self, value: ["id": 1])
            for (id, name) in [(1, "A"), (2, "B"), (3, "C"), (4, "D")] {
                let dog = realm.create(Dog.self, value: ["id": id, "name": name, "age": id])
                pound.dogs.append(dog)
                pound.favourites.insert(dog)
            }
            return pound
        }
        return (realm, pound)
    }

    func testObjectsAndCollectionsAreReadOnOtherThreads() throws {
        let (realm, pound) = try seeded()
        @ThreadSafe var dog = realm.object(ofType: Dog.self, forPrimaryKey: 2)
        @ThreadSafe var sorted = realm.objects(Dog.self).filter("name != 'C'").sorted(byKeyPath: "name", ascending: false)
        @ThreadSafe var list = pound.dogs
        @ThreadSafe var wrapped = AnyRealmCollection(pound.favourites)
        let read = try onNewThread { () -> [String] in
            [dog?.name ?? "-", sorted?.map(\.name).joined() ?? "-", list?.map(\.name).joined() ?? "-",
             "\(wrapped?.count ?? -1)", "\(dog?.realm?.isFrozen == false)"]
        }
        XCTAssertEqual(read, ["B", "DBA", "ABCD", "4", "true"])
        XCTAssertEqual(dog?.name, "B", "the wrapper reads again on its own thread")
    }

    func testWritesOnAnotherThreadAreSeenAfterRefresh() throws {
        let (realm, _) = try seeded()
        @ThreadSafe var dog = try realm.write { realm.create(Dog.self, value: ["id": 9, "name": "before"]) }
        XCTAssertEqual(dog?.name, "before")
        try onNewThread {
            guard let dog else { return XCTFail("the object made in a write is found on another thread") }
            try dog.realm!.write { dog.name = "after" }
        }
        realm.refresh()
        XCTAssertEqual(dog?.name, "after")
    }

    /// As RealmSwift's: a thread that writes through the value it read from the wrapper
    /// leaves the wrapper at least that new, so the next read anywhere sees the write.
    func testAWriteThroughTheWrapperIsSeenByItsNextReadWithoutRefresh() throws {
        let (_, pound) = try seeded()
        @ThreadSafe var dogs = pound.dogs
        @ThreadSafe var first = pound.dogs.first
        try onNewThread {
            let realm = try XCTUnwrap(dogs?.realm)
            try realm.write {
                first?.name = "Ace"
                dogs?.append(realm.create(Dog.self, value: ["id": 5, "name": "E", "age": 5]))
            }
        }
        XCTAssertEqual(dogs?.map(\.name), ["Ace", "B", "C", "D", "E"])
        XCTAssertEqual(first?.name, "Ace")
    }

    func testManyThreadsWriteThroughOneWrapper() throws {
        let (realm, _) = try seeded()
        @ThreadSafe var dog = realm.object(ofType: Dog.self, forPrimaryKey: 1)
        DispatchQueue.concurrentPerform(iterations: 20) { i in
            guard let dog else { return }
            try? dog.realm?.write { dog.age += 1 }
        }
        realm.refresh()
        XCTAssertEqual(dog?.age, 21, "each thread's write went to the one stored object")
    }

    func testDeletedObjectReadsNilAndTheWrapperCanBeReset() throws {
        let (realm, _) = try seeded()
        @ThreadSafe var dog = realm.object(ofType: Dog.self, forPrimaryKey: 3)
        try realm.write { realm.delete(realm.object(ofType: Dog.self, forPrimaryKey: 3)!) }
        XCTAssertNil(try onNewThread { dog?.name })
        XCTAssertNil(dog)
        dog = realm.object(ofType: Dog.self, forPrimaryKey: 4)
        XCTAssertEqual(try onNewThread { dog?.name }, "D")
        dog = nil
        XCTAssertNil(try onNewThread { dog })
    }

    func testFrozenValueIsKeptAsItIs() throws {
        let (realm, _) = try seeded()
        @ThreadSafe var frozen = realm.objects(Dog.self).freeze()
        try realm.write { realm.deleteAll() }
        XCTAssertEqual(try onNewThread { frozen?.count }, 4)
        XCTAssertEqual(frozen?.isFrozen, true)
    }

    private func rename(@ThreadSafe _ dog: Dog?, to name: String) throws {
        try onNewThread {
            let realm = try XCTUnwrap(dog?.realm)
            try realm.write { dog?.name = name }
        }
    }

    func testFunctionArgument() throws {
        let (realm, _) = try seeded()
        try rename(realm.object(ofType: Dog.self, forPrimaryKey: 1), to: "renamed")
        realm.refresh()
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 1)?.name, "renamed")
    }

    func testUnmanagedValueTraps() throws {
        try assertProbeTraps("testWrapAnUnmanagedObjectAsThreadSafe", saying: "Only managed objects may be wrapped as thread safe.")
    }
}
