import Foundation
import StrataStorage
import XCTest
@testable import Strata

/// Embedded objects owned through a to-one link: assignment adds them, replacing or deleting
/// the owner deletes them, and they are never added on their own.
final class EmbeddedObjectTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: embeddedTypes) }

    func testAssigningAnUnmanagedEmbeddedObjectToAManagedOwnerAddsIt() throws {
        let realm = try open()
        let resident = try realm.write { realm.create(Tenant.self, value: ["id": 1]) }
        let address = Address(value: ["street": "Storgata 1", "city": "Oslo"])
        try realm.write { resident.address = address }
        XCTAssertEqual(address.realm, realm)
        XCTAssertTrue(resident.address?.isSameObject(as: address) ?? false)
        XCTAssertEqual(resident.address?.city, "Oslo")
        try realm.write { address.city = "Bergen" }
        XCTAssertEqual(resident.address?.city, "Bergen")
        assertConsistent()
    }

    func testReplacingOrClearingTheLinkDeletesTheOldEmbeddedObject() throws {
        let realm = try open()
        let resident = try realm.write {
            realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo", "location": ["latitude": 59.9]]])
        }
        let first = try XCTUnwrap(resident.address)
        let location = try XCTUnwrap(first.location)
        try realm.write { resident.address = Address(value: ["city": "Bergen"]) }
        XCTAssertTrue(first.isInvalidated)
        XCTAssertTrue(location.isInvalidated, "what the old object owned goes with it")
        let second = try XCTUnwrap(resident.address)
        try realm.write { resident.address = nil }
        XCTAssertTrue(second.isInvalidated)
        XCTAssertNil(resident.address)
        assertConsistent()
    }

    /// As RealmSwift: `add(_:update: .modified)` writes a given embedded object's values onto
    /// the one the stored owner has (it stays valid, and nested ones too); `.all` replaces it.
    func testUpdatingAnOwnerWithModifiedUpdatesItsEmbeddedObjectInPlace() throws {
        let realm = try open()
        let first = Tenant(value: ["id": 1, "address": ["city": "Oslo", "location": ["latitude": 59.9]]])
        try realm.write { realm.add(first) }
        let address = try XCTUnwrap(first.address), location = try XCTUnwrap(address.location)
        let second = Tenant(value: ["id": 1, "address": ["city": "Bergen", "location": ["latitude": 60.4]]])
        try realm.write { realm.add(second, update: .modified) }
        XCTAssertFalse(address.isInvalidated, "updated, not replaced")
        XCTAssertEqual(address.city, "Bergen")
        XCTAssertFalse(location.isInvalidated)
        XCTAssertEqual(location.latitude, 60.4)
        XCTAssertTrue(second.address?.isSameObject(as: address) ?? false, "the given object is now that embedded object")
        XCTAssertEqual(realm.objects(Tenant.self).count, 1)
        try realm.write { realm.add(Tenant(value: ["id": 1, "address": ["city": "Molde"]]), update: .all) }
        XCTAssertTrue(address.isInvalidated, ".all replaces it")
        XCTAssertEqual(first.address?.city, "Molde")
        assertConsistent()
    }

    func testDeletingTheOwnerDeletesWhatItOwnsRecursively() throws {
        let realm = try open()
        let resident = try realm.write {
            realm.create(Tenant.self, value: [
                "id": 1,
                "address": ["city": "Oslo", "location": ["latitude": 59.9], "phones": [["number": "1"]]],
                "addresses": [["city": "Bergen", "phones": [["number": "2"], ["number": "3"]]], ["city": "Tromsø"]],
            ] as [String: Any])
        }
        let owned: [Object] = [resident.address!, resident.address!.location!, resident.address!.phones[0],
                               resident.addresses[0], resident.addresses[0].phones[1], resident.addresses[1]]
        try realm.write { realm.delete(resident) }
        XCTAssertEqual(owned.filter(\.isInvalidated).count, owned.count)
        assertConsistent()
    }

    func testDeletingEveryOwnerDeletesEveryEmbeddedObject() throws {
        let realm = try open()
        try realm.write {
            for id in 1...3 { realm.create(Tenant.self, value: ["id": id, "address": ["city": "C\(id)"], "addresses": [["city": "L\(id)"]]]) }
        }
        let addresses = realm.objects(Tenant.self).flatMap { [$0.address!] + Array($0.addresses) }
        try realm.write { realm.delete(realm.objects(Tenant.self)) }
        XCTAssertTrue(addresses.allSatisfy(\.isInvalidated))
        assertConsistent()
    }

    func testDeletingAnEmbeddedObjectClearsItsOwnersLink() throws {
        let realm = try open()
        let resident = try realm.write { realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo"], "addresses": [["city": "A"], ["city": "B"]]]) }
        try realm.write {
            realm.delete(resident.address!)
            realm.delete(resident.addresses[0])
        }
        XCTAssertNil(resident.address)
        XCTAssertEqual(resident.addresses.map(\.city), ["B"])
        assertConsistent()
    }

    func testDeleteAllDeletesEmbeddedObjects() throws {
        let realm = try open()
        try realm.write { realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo", "location": ["latitude": 1.0]], "addresses": [["city": "A"]]] as [String: Any]) }
        try realm.write { realm.deleteAll() }
        let counts = realm.core.reading { () throws -> [Int] in
            let txn = try realm.core.transaction()
            return try ["Address", "Coordinates", "Tenant"].map { try txn.rows.count(XCTUnwrap(try txn.table($0))) }
        }
        XCTAssertEqual(counts, [0, 0, 0])
        assertConsistent()
    }

    func testSchemasWrittenBeforeEmbeddedClassesReadAsTopLevel() throws {
        let old = try JSONDecoder().decode(ClassSchema.self, from: Data(#"{"name":"Dog","properties":[]}"#.utf8))
        XCTAssertFalse(old.isEmbedded)
        let encoded = String(decoding: try JSONEncoder().encode(old), as: UTF8.self)
        XCTAssertFalse(encoded.contains("isEmbedded"), "a top-level class keeps the bytes it had")
        let embedded = try JSONEncoder().encode(ClassSchema(name: "Address", properties: [], isEmbedded: true))
        XCTAssertTrue(try JSONDecoder().decode(ClassSchema.self, from: embedded).isEmbedded)
    }

    func testAnEmbeddedObjectCannotBeAddedOrCreatedOnItsOwn() throws {
        let realm = try open()
        try realm.write {
            XCTAssertThrowsError(try realm.throwingAdd(Address(value: ["city": "Oslo"]))) { error in
                XCTAssertTrue("\(error)".contains("Embedded object 'Address' cannot be added on its own"), "\(error)")
            }
            XCTAssertThrowsError(try realm.throwingCreate(Address.self, value: ["city": "Oslo"])) { error in
                XCTAssertTrue("\(error)".contains("Embedded object 'Address' cannot be created on its own"), "\(error)")
            }
        }
        XCTAssertEqual(realm.objects(Tenant.self).count, 0)
        assertConsistent()
    }

    func testAnEmbeddedClassCannotHaveAPrimaryKey() {
        XCTAssertThrowsError(try ModelClass.of(KeyedAddress.self)) { error in
            XCTAssertTrue("\(error)".contains("Embedded object type 'KeyedAddress' cannot have a primary key"), "\(error)")
        }
    }

    func testASetCannotHoldEmbeddedObjects() {
        XCTAssertThrowsError(try ModelClass.of(PhoneBook.self)) { error in
            XCTAssertTrue("\(error)".contains("Set property 'PhoneBook.phones' cannot contain embedded objects ('Phone')"), "\(error)")
        }
    }

    func testAddingAnOwnerGraphAddsItsEmbeddedObjects() throws {
        let realm = try open()
        let resident = Tenant(value: ["id": 1, "address": ["city": "Oslo"], "addresses": [["city": "Bergen"]]])
        let address = try XCTUnwrap(resident.address)
        try realm.write { realm.add(resident) }
        XCTAssertEqual(address.realm, realm)
        XCTAssertEqual(resident.addresses.first?.city, "Bergen")
        assertConsistent()
    }

    func testCreatingFromAManagedOwnerCopiesItsEmbeddedObjects() throws {
        let realm = try open()
        let original = try realm.write { realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo"], "addresses": [["city": "Bergen"]]]) }
        let copy = try realm.write { realm.create(Tenant.self, value: ["id": 2, "address": original.address!, "addresses": original.addresses]) }
        XCTAssertEqual(copy.address?.city, "Oslo")
        XCTAssertFalse(copy.address!.isSameObject(as: original.address))
        try realm.write { copy.address!.city = "Moss" }
        XCTAssertEqual(original.address?.city, "Oslo", "the copy is its own object")
        XCTAssertEqual(copy.addresses.first?.city, "Bergen")
        assertConsistent()
    }

    func testLinkingAnEmbeddedObjectThatHasAnOwnerThrows() throws {
        let realm = try open()
        try realm.write {
            let first = realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo"]])
            let other = Tenant(value: ["id": 2])
            other.address = first.address
            XCTAssertThrowsError(try realm.throwingAdd(other)) { error in
                XCTAssertTrue("\(error)".contains("Can't set link to existing managed embedded object"), "\(error)")
            }
        }
        assertConsistent()
    }

    func testSettingALinkToAnOwnedEmbeddedObjectTraps() throws {
        try assertProbeTraps("testLinkToAnOwnedEmbeddedObject", saying: "Can't set link to existing managed embedded object")
        try assertProbeTraps("testAppendAnOwnedEmbeddedObject", saying: "Cannot add an existing managed embedded object to a List.")
        try assertProbeTraps("testPutAnEmbeddedObjectBackInItsOwnSlot", saying: "Cannot add an existing managed embedded object to a List.")
        try assertProbeTraps("testQueryAnEmbeddedClass", saying: "Querying embedded object type 'Address' is not supported")
    }

    func testTheStoredSchemaMarksEmbeddedClasses() throws {
        let realm = try open()
        let schema = realm.core.reading { try realm.core.transaction().schema }
        XCTAssertEqual(schema.classes["Address"]?.isEmbedded, true)
        XCTAssertEqual(schema.classes["Tenant"]?.isEmbedded, false)
    }
}

extension TrapProbes {
    func testLinkToAnOwnedEmbeddedObject() throws {
        let realm = try openRealm(types: embeddedTypes)
        try realm.write {
            let first = realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo"]])
            let second = realm.create(Tenant.self, value: ["id": 2])
            second.address = first.address
        }
    }

    func testAppendAnOwnedEmbeddedObject() throws {
        let realm = try openRealm(types: embeddedTypes)
        try realm.write {
            let first = realm.create(Tenant.self, value: ["id": 1, "addresses": [["city": "Oslo"]]])
            first.addresses.append(first.addresses[0])
        }
    }

    /// As RealmSwift: even the element's own slot (or a map's key) is a second owner.
    func testPutAnEmbeddedObjectBackInItsOwnSlot() throws {
        let realm = try openRealm(types: embeddedTypes)
        try realm.write {
            let first = realm.create(Tenant.self, value: ["id": 1, "addresses": [["city": "Oslo"]]])
            first.addresses[0] = first.addresses[0]
        }
    }

    func testQueryAnEmbeddedClass() throws {
        let realm = try openRealm(types: embeddedTypes)
        _ = realm.objects(Address.self).count
    }
}
