import Foundation
import XCTest
@testable import Strata

final class Owner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var bestFriend: Owner?
}

final class Hound: Object {
    @Persisted var name = ""
    @Persisted var owner: Owner?
}

final class LinkTests: StrataTestCase {
    func testSetReplaceAndClearAToOneLink() throws {
        let realm = try openRealm(types: [Hound.self])
        let jane = Owner(value: ["id": 1, "name": "Jane"])
        let joe = Owner(value: ["id": 2, "name": "Joe"])
        let rex = Hound(value: ["name": "Rex"])
        try realm.write {
            realm.add([jane, joe])
            realm.add(rex)
            rex.owner = jane
        }
        XCTAssertEqual(rex.owner?.name, "Jane")
        XCTAssertTrue(rex.owner?.isSameObject(as: jane) ?? false)
        try realm.write { rex.owner = joe }
        XCTAssertEqual(realm.objects(Hound.self).first?.owner?.name, "Joe")
        try realm.write { rex.owner = nil }
        XCTAssertNil(rex.owner)
        assertConsistent()
    }

    func testAssigningAnUnmanagedObjectInsideAWriteAddsIt() throws {
        let realm = try openRealm(types: [Hound.self])
        let rex = Hound(value: ["name": "Rex"])
        try realm.write { realm.add(rex) }
        try realm.write { rex.owner = Owner(value: ["id": 5, "name": "New"]) }
        XCTAssertEqual(realm.object(ofType: Owner.self, forPrimaryKey: 5)?.name, "New")
        XCTAssertEqual(rex.owner?.id, 5)
        assertConsistent()
    }

    func testAddingAnUnmanagedGraphAddsEveryObjectWithCyclesAndSelfLinks() throws {
        let realm = try openRealm(types: [Hound.self])
        let a = Owner(value: ["id": 1, "name": "A"])
        let b = Owner(value: ["id": 2, "name": "B"])
        a.bestFriend = b
        b.bestFriend = a
        let me = Owner(value: ["id": 3, "name": "Me"])
        me.bestFriend = me
        let rex = Hound(value: ["name": "Rex", "owner": a])
        try realm.write {
            realm.add(rex)
            realm.add(me)
        }
        XCTAssertEqual(realm.objects(Owner.self).count, 3)
        let storedA = try XCTUnwrap(realm.object(ofType: Owner.self, forPrimaryKey: 1))
        XCTAssertEqual(storedA.bestFriend?.name, "B")
        XCTAssertEqual(storedA.bestFriend?.bestFriend?.name, "A")
        XCTAssertEqual(realm.object(ofType: Owner.self, forPrimaryKey: 3)?.bestFriend?.id, 3)
        XCTAssertEqual(rex.owner?.bestFriend?.name, "B", "key-path traversal reads lazily from the store")
        assertConsistent()
    }

    func testNestedValuesBuildTheGraphAndUpdateInPlaceByPrimaryKey() throws {
        let realm = try openRealm(types: [Hound.self])
        try realm.write {
            realm.create(Hound.self, value: ["name": "Rex", "owner": ["id": 1, "name": "Jane", "bestFriend": [2, "Joe", nil]]])
        }
        XCTAssertEqual(realm.objects(Owner.self).count, 2)
        XCTAssertEqual(realm.objects(Hound.self).first?.owner?.bestFriend?.name, "Joe")
        try realm.write {
            realm.create(Owner.self, value: ["id": 1, "bestFriend": ["id": 2, "name": "Joseph"]], update: .modified)
        }
        XCTAssertEqual(realm.objects(Owner.self).count, 2, "nested objects with primary keys update in place")
        XCTAssertEqual(realm.object(ofType: Owner.self, forPrimaryKey: 2)?.name, "Joseph")
        XCTAssertEqual(realm.object(ofType: Owner.self, forPrimaryKey: 1)?.name, "Jane", "untouched fields are kept")
        XCTAssertThrowsError(try realm.write {
            try realm.throwingCreate(Hound.self, value: ["name": "Fido", "owner": ["id": 1, "name": "Dup"]])
        }, "a nested duplicate primary key with .error is an error")
        let unmanaged = Hound(value: ["name": "Max", "owner": ["id": 9, "name": "Nested"]])
        XCTAssertEqual(unmanaged.owner?.name, "Nested", "init(value:) builds unmanaged nested objects")
        XCTAssertNil(unmanaged.owner?.realm)
        assertConsistent()
    }

    func testDeletingATargetNullifiesLinksAndKeepsTheRest() throws {
        let realm = try openRealm(types: [Hound.self])
        try realm.write {
            realm.create(Hound.self, value: ["name": "Rex", "owner": ["id": 1, "name": "Jane"]])
            realm.create(Hound.self, value: ["name": "Fido", "owner": realm.object(ofType: Owner.self, forPrimaryKey: 1)!])
        }
        let jane = try XCTUnwrap(realm.object(ofType: Owner.self, forPrimaryKey: 1))
        try realm.write { realm.delete(jane) }
        XCTAssertEqual(realm.objects(Hound.self).count, 2)
        XCTAssertTrue(realm.objects(Hound.self).allSatisfy { $0.owner == nil })
        try realm.write { realm.create(Owner.self, value: ["id": 1, "name": "Again"]) }
        XCTAssertTrue(realm.objects(Hound.self).allSatisfy { $0.owner == nil }, "a new object with the same key is not linked")
        try realm.write {
            realm.objects(Hound.self).first!.owner = realm.object(ofType: Owner.self, forPrimaryKey: 1)
            realm.delete(realm.objects(Owner.self))
        }
        XCTAssertNil(realm.objects(Hound.self).first?.owner, "deleting a whole class nullifies links to it")
        assertConsistent()
    }

    func testLinkingToAnotherRealmsObjectIsRefusedAndCreateCopiesIt() throws {
        let realm = try openRealm(types: [Hound.self])
        let other = try openRealm("other.strata", types: [Hound.self])
        let stranger = Owner(value: ["id": 7])
        try other.write { other.add(stranger) }
        try realm.write { realm.add(Hound(value: ["name": "Rex"])) }
        let rex = try XCTUnwrap(realm.objects(Hound.self).first)
        XCTAssertThrowsError(try realm.write { try realm.throwingAdd(Hound(value: ["name": "X", "owner": stranger])) })
        let created = try realm.write { try realm.throwingCreate(Hound.self, value: ["name": "X", "owner": stranger]) }
        XCTAssertEqual(created.owner?.realm, realm, "create copies it, as RealmSwift's does")
        XCTAssertEqual(stranger.realm, other, "the original stays where it was")
        _ = rex
        assertConsistent()
    }

    /// As RealmSwift's: once added, objects that linked each other while unmanaged hold no
    /// reference to each other (reads go to storage), so they are freed with their last user.
    func testAddedObjectsLinkingEachOtherAreFreed() throws {
        let realm = try openRealm(types: [CycleLeft.self, CycleRight.self])
        weak var weakLeft: CycleLeft?, weakRight: CycleRight?
        do {
            let left = CycleLeft(), right = CycleRight()
            left.right = right
            right.left = left
            try realm.write { realm.add(left) }
            weakLeft = left
            weakRight = right
            XCTAssertTrue(left.right?.isSameObject(as: right) ?? false)
        }
        XCTAssertNil(weakLeft)
        XCTAssertNil(weakRight)
        XCTAssertEqual(realm.objects(CycleLeft.self).first?.right?.left?.right?.realm, realm)
    }

    func testSchemaRecordsLinkTargetsAndAddsTargetClasses() throws {
        let realm = try openRealm(types: [Hound.self])
        let owner = try XCTUnwrap(realm.schema["Hound"]?["owner"])
        XCTAssertEqual(owner.type, .object)
        XCTAssertEqual(owner.objectClassName, "Owner")
        XCTAssertTrue(owner.isOptional)
        XCTAssertNotNil(realm.schema["Owner"], "the target class is stored with the class that links to it")
        assertConsistent()
    }
}

final class GraphAtomicityTests: StrataTestCase {
    func testAFailedGraphAddLeavesNothingAndTheObjectsUnmanaged() throws {
        let realm = try openRealm(types: [Hound.self])
        try realm.write { realm.add(Owner(value: ["id": 2, "name": "Taken"])) }
        let rex = Hound(value: ["name": "Rex", "owner": ["id": 1, "name": "A", "bestFriend": ["id": 2, "name": "Dup"]]])
        try realm.write {
            XCTAssertThrowsError(try realm.throwingAdd(rex))
            XCTAssertEqual(realm.objects(Hound.self).count, 0, "the hound's row is gone with the failed graph")
            XCTAssertEqual(realm.objects(Owner.self).count, 1)
            realm.add(Hound(value: ["name": "Fido"]))
        }
        XCTAssertNil(rex.realm, "objects of a failed graph stay unmanaged")
        XCTAssertNil(rex.owner?.realm)
        XCTAssertEqual(rex.owner?.name, "A", "and keep their values")
        XCTAssertEqual(realm.objects(Hound.self).count, 1, "the rest of the write commits")
        XCTAssertEqual(realm.object(ofType: Owner.self, forPrimaryKey: 2)?.name, "Taken")
        assertConsistent()
    }
}

final class Kennel: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(originProperty: "kennel") var dogs: LinkingObjects<Resident>
}

final class Resident: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var kennel: Kennel?
}

final class BadInverse: Object {
    @Persisted(originProperty: "nothing") var dogs: LinkingObjects<Resident>
}

final class LinkingObjectsTests: StrataTestCase {
    func testLinkingObjectsAreLiveQueryableAndCounted() throws {
        let realm = try openRealm(types: [Kennel.self])
        let kennel = Kennel(value: ["id": 1])
        XCTAssertEqual(kennel.dogs.count, 0, "empty while unmanaged")
        try realm.write {
            realm.add(kennel)
            for (i, name) in ["Buster", "Buddy", "Rex"].enumerated() {
                realm.add(Resident(value: ["name": name, "age": i + 1, "kennel": kennel]))
            }
            realm.add(Resident(value: ["name": "Stray"]))
        }
        XCTAssertEqual(kennel.dogs.count, 3)
        XCTAssertEqual(Set(kennel.dogs.map(\.name)), ["Buster", "Buddy", "Rex"])
        XCTAssertEqual(kennel.dogs.filter("name BEGINSWITH 'B'").count, 2)
        XCTAssertEqual(kennel.dogs.sorted(byKeyPath: "age", ascending: false).first?.name, "Rex")
        XCTAssertEqual(kennel.dogs.sum(ofProperty: "age") as Int, 6)
        let rex = try XCTUnwrap(realm.objects(Resident.self).filter("name == 'Rex'").first)
        try realm.write { rex.kennel = nil }
        XCTAssertEqual(kennel.dogs.count, 2, "live")
        try realm.write { realm.delete(realm.objects(Resident.self).filter("name == 'Buddy'")) }
        XCTAssertEqual(kennel.dogs.map(\.name), ["Buster"])
        try realm.write { realm.delete(kennel) }
        XCTAssertNil(realm.objects(Resident.self).filter("name == 'Buster'").first?.kennel)
        assertConsistent()
    }

    func testAnInverseOfAMissingPropertyIsRefused() {
        XCTAssertThrowsError(try openRealm(types: [BadInverse.self])) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
            XCTAssertTrue("\(error)".contains("'BadInverse.dogs' is the inverse of 'Resident.nothing'"), "\(error)")
        }
    }

    func testLinkingObjectsAreNotStoredInTheSchema() throws {
        let realm = try openRealm(types: [Kennel.self])
        XCTAssertEqual(realm.schema["Kennel"]?.properties.map(\.name), ["id"])
        assertConsistent()
    }
}

final class CycleLeft: Object {
    @Persisted var right: CycleRight?
}

final class CycleRight: Object {
    @Persisted var left: CycleLeft?
}
