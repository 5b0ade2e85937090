import Foundation
import XCTest
import Strata
import StrataStorage

/// A class a mixed value can hold (integer primary keys are object keys: a re-created
/// object gets the key of the deleted one).
final class MixedTarget: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

/// An object whose mixed value, list, set and map of mixed values hold objects.
final class MixedOwner: Object {
    @Persisted var name = ""
    @Persisted var value: AnyRealmValue
    @Persisted var values: List<AnyRealmValue>
    @Persisted var members: MutableSet<AnyRealmValue>
    @Persisted var entries: Map<String, AnyRealmValue>
}

/// `AnyRealmValue.object` in managed objects: single mixed values and lists, sets and maps of
/// them hold objects of any class; a delete clears what held the object (null in a value, a
/// list or a map, gone from a set), so a re-created object is never linked by mistake.
final class MixedObjectTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [MixedTarget.self, MixedOwner.self]) }

    private func target(_ realm: Realm, _ id: Int) -> MixedTarget {
        realm.object(ofType: MixedTarget.self, forPrimaryKey: id)!
    }

    /// Commits an owner "o" and a target "Rex" (id 1), which `hold` puts into the owner.
    private func writeOwner(_ realm: Realm, holdingRex hold: (MixedOwner, MixedTarget) -> Void) throws {
        try realm.write {
            let rex = realm.create(MixedTarget.self, value: ["id": 1, "name": "Rex"])
            hold(realm.create(MixedOwner.self, value: ["name": "o"]), rex)
        }
    }

    func testAnUnmanagedObjectInAMixedValueIsAddedWithItsHolderAndReadsBackAsItsClass() throws {
        let realm = try open()
        let owner = MixedOwner()
        let rex = MixedTarget()
        rex.id = 1
        rex.name = "Rex"
        owner.value = .object(rex)
        XCTAssertEqual(owner.value.object(MixedTarget.self)?.name, "Rex")
        try realm.write { realm.add(owner) }
        XCTAssertEqual(realm.objects(MixedTarget.self).count, 1)
        XCTAssertNotNil(rex.realm, "the held object is managed once its holder is added")
        try realm.write { owner.value.object(MixedTarget.self)!.name = "Max" }
        XCTAssertEqual(target(realm, 1).name, "Max")

        let reopened = try XCTUnwrap(try open().objects(MixedOwner.self).first)
        guard case .object(let held) = reopened.value else { return XCTFail("expected an object, got \(reopened.value)") }
        XCTAssertTrue(held is MixedTarget)
        XCTAssertEqual((held as? MixedTarget)?.name, "Max")
        XCTAssertEqual(reopened.value, .object(target(reopened.realm!, 1)))
        XCTAssertEqual(reopened.value.dynamicObject?["name"] as? String, "Max")
    }

    func testAManagedMixedValueTakesAnObjectAndLetsGoOfItWhenDeleted() throws {
        let realm = try open()
        let owner = try realm.write { () -> MixedOwner in
            let owner = realm.create(MixedOwner.self, value: ["name": "o"])
            owner.value = .object(realm.create(MixedTarget.self, value: ["id": 1, "name": "Rex"]))
            return owner
        }
        XCTAssertEqual(owner.value.object(MixedTarget.self)?.name, "Rex")
        XCTAssertEqual(realm.objects(MixedOwner.self).filter("value == %@", target(realm, 1)).count, 1)

        try realm.write { realm.delete(target(realm, 1)) }
        XCTAssertEqual(owner.value, AnyRealmValue.none, "a deleted object's mixed value becomes none")
        try realm.write { realm.create(MixedTarget.self, value: ["id": 1, "name": "New"]) }
        XCTAssertEqual(owner.value, AnyRealmValue.none, "a re-created object with the same key is not linked")

        try realm.write {
            owner.value = .object(target(realm, 1))
            owner.value = .int(5)
        }
        try realm.write { realm.delete(target(realm, 1)) }
        XCTAssertEqual(owner.value, .int(5), "a value that no longer holds the object is left alone")
    }

    func testListsSetsAndMapsOfMixedValuesLetGoOfADeletedObjectAsRealmSwiftDoes() throws {
        let realm = try open()
        let owner = try realm.write { () -> MixedOwner in
            let rex = realm.create(MixedTarget.self, value: ["id": 1, "name": "Rex"])
            let max = realm.create(MixedTarget.self, value: ["id": 2, "name": "Max"])
            let owner = realm.create(MixedOwner.self, value: ["name": "o"])
            owner.values.append(objectsIn: [.object(rex), .int(7), .object(max), .object(rex)])
            owner.members.insert(.object(rex))
            owner.members.insert(.object(max))
            owner.members.insert(.string("s"))
            owner.entries["a"] = .object(rex)
            owner.entries["b"] = .object(max)
            return owner
        }
        XCTAssertEqual(owner.values.compactMap { $0.object(MixedTarget.self)?.name }, ["Rex", "Max", "Rex"])
        XCTAssertTrue(owner.members.contains(.object(target(realm, 2))))
        XCTAssertEqual(owner.entries["b"]?.object(MixedTarget.self)?.name, "Max")
        XCTAssertEqual(realm.objects(MixedOwner.self).filter("ANY values == %@", target(realm, 2)).count, 1)

        try realm.write { realm.delete(target(realm, 1)) }
        XCTAssertEqual(Array(owner.values), [AnyRealmValue.none, .int(7), .object(target(realm, 2)), AnyRealmValue.none])
        XCTAssertEqual(owner.members.count, 2, "a set loses the deleted object")
        XCTAssertEqual(owner.entries["a"], AnyRealmValue.none, "a map's value becomes none, its key stays")
        XCTAssertEqual(owner.entries.count, 2)

        try realm.write { owner.values.remove(at: 2) }
        try realm.write { realm.delete(target(realm, 2)) }
        XCTAssertEqual(owner.values.count, 3)
        XCTAssertFalse(owner.members.contains { $0 != .string("s") })
        XCTAssertEqual(owner.entries["b"], AnyRealmValue.none)
        assertConsistent()
    }

    func testClearingAClassClearsTheMixedValuesThatHeldItsObjects() throws {
        let realm = try open()
        try writeOwner(realm) { owner, rex in
            owner.value = .object(rex)
            owner.values.append(.object(rex))
            owner.entries["a"] = .object(rex)
        }
        try realm.write { realm.delete(realm.objects(MixedTarget.self)) }
        let owner = try XCTUnwrap(realm.objects(MixedOwner.self).first)
        XCTAssertEqual(owner.value, AnyRealmValue.none)
        XCTAssertEqual(Array(owner.values), [AnyRealmValue.none])
        try realm.write { realm.deleteAll() }
        try realm.write { realm.create(MixedTarget.self, value: ["id": 1]) }
        try realm.write { realm.delete(target(realm, 1)) }
        assertConsistent()
    }

    func testAMixedValueRefusesAnEmbeddedObjectAndAnObjectOfAnotherRealm() throws {
        let realm = try open()
        let other = try openRealm("other.strata", types: [MixedTarget.self, MixedOwner.self])
        let foreign = try other.write { other.create(MixedTarget.self, value: ["id": 9]) }
        realm.beginWrite()
        let owner = realm.create(MixedOwner.self, value: ["name": "o"])
        XCTAssertThrowsError(try realm.throwingCreate(MixedOwner.self, value: ["name": "p", "value": AnyRealmValue.object(foreign)])) { error in
            XCTAssertTrue("\(error)".contains("another Realm"), "\(error)")
        }
        realm.cancelWrite()
        XCTAssertTrue(owner.isInvalidated)
    }

    func testAPastVersionStillHoldsTheObjectTheNewestNoLongerHolds() throws {
        let realm = try open()
        try writeOwner(realm) { owner, rex in owner.value = .object(rex) }
        let before = try XCTUnwrap(realm.readableVersions?.upperBound)
        try realm.write { realm.delete(target(realm, 1)) }
        let past = try realm.freeze(atVersion: before)
        XCTAssertEqual(past.objects(MixedOwner.self).first?.value.object(MixedTarget.self)?.name, "Rex")
        XCTAssertEqual(realm.objects(MixedOwner.self).first?.value, AnyRealmValue.none)
    }

    func testExportThenImportKeepsTheObjectsMixedValuesHold() throws {
        let realm = try open()
        try writeOwner(realm) { owner, rex in
            owner.value = .object(rex)
            owner.values.append(objectsIn: [.object(rex), .int(2)])
            owner.entries["k"] = .object(rex)
        }
        let export = try assertExportImportRoundTrip(fileURL().path, into: "copy.strata")
        XCTAssertTrue(export.lines.contains { $0.contains("\"value\":{\"type\":\"link\",\"value\":{\"class\":\"MixedTarget\",\"key\":1}}") }, export.transcript)
        let copy = try openRealm("copy.strata", types: [MixedTarget.self, MixedOwner.self])
        XCTAssertEqual(copy.objects(MixedOwner.self).first?.values.first?.object(MixedTarget.self)?.name, "Rex")
    }

    func testAnEncryptedCopyKeepsTheObjectsMixedValuesHold() throws {
        let realm = try open()
        try realm.write {
            let rex = realm.create(MixedTarget.self, value: ["id": 1, "name": "Rex"])
            realm.create(MixedOwner.self, value: ["name": "o", "value": AnyRealmValue.object(rex), "members": [AnyRealmValue.object(rex)]])
        }
        let key = Data((0..<64).map { UInt8($0) })
        try realm.writeCopy(toFile: fileURL("copy.strata"), encryptionKey: key)
        assertConsistent("copy.strata", encryptionKey: key)
        let copy = try Realm(configuration: Realm.Configuration(fileURL: fileURL("copy.strata"), encryptionKey: key,
                                                                objectTypes: [MixedTarget.self, MixedOwner.self]))
        try copy.write { copy.delete(copy.objects(MixedTarget.self)) }
        XCTAssertEqual(copy.objects(MixedOwner.self).first?.value, AnyRealmValue.none)
        XCTAssertEqual(copy.objects(MixedOwner.self).first?.members.count, 0)
    }

    func testAFileWrittenBeforeTypedLinksOpensReadOnlyAndGetsThemWhenOpenedForWriting() throws {
        try closingRealms {
            let realm = try open()
            try realm.write { realm.create(MixedOwner.self, value: ["name": "o", "value": AnyRealmValue.int(3)]) }
        }
        try StorageFixtures.clearDatabase(path: fileURL().path, name: "strata.typedlinks", deleting: true)
        try closingRealms {
            let reader = try Realm(configuration: Realm.Configuration(fileURL: fileURL(), readOnly: true, objectTypes: [MixedTarget.self, MixedOwner.self]))
            XCTAssertEqual(reader.objects(MixedOwner.self).first?.value, .int(3))
        }
        assertConsistent()
        let realm = try open()
        try realm.write { realm.objects(MixedOwner.self).first!.value = .object(realm.create(MixedTarget.self, value: ["id": 1])) }
        try realm.write { realm.delete(target(realm, 1)) }
        XCTAssertEqual(realm.objects(MixedOwner.self).first?.value, AnyRealmValue.none)
        assertConsistent()
    }

    func testTheIntegrityCheckFindsAHeldObjectWithoutItsEntry() throws {
        try closingRealms {
            let realm = try open()
            try realm.write {
                realm.create(MixedOwner.self, value: ["name": "o", "value": AnyRealmValue.object(realm.create(MixedTarget.self, value: ["id": 1]))])
            }
        }
        try StorageFixtures.clearDatabase(path: fileURL().path, name: "strata.typedlinks")
        try closingRealms {
            let txn = try StorageFile.open(path: fileURL().path, options: .init()).beginRead()
            defer { txn.abort() }
            XCTAssertThrowsError(try IntegrityCheck.run(txn)) { error in
                XCTAssertTrue("\(error)".contains("'MixedOwner' object 1: a mixed value holds MixedTarget object"), "\(error)")
                XCTAssertTrue("\(error)".contains("with no entry among the links held by mixed values"), "\(error)")
            }
        }
        let realm = try open()
        try realm.write { realm.delete(realm.objects(MixedOwner.self)) }
    }

    func testAMigrationThatDeletesTheHeldObjectsClearsTheValuesThatHeldThem() throws {
        try closingRealms {
            let realm = try open()
            try writeOwner(realm) { owner, rex in
                owner.value = .object(rex)
                owner.members.insert(.object(rex))
                owner.entries["k"] = .object(rex)
            }
        }
        let config = Realm.Configuration(fileURL: fileURL(), schemaVersion: 1, migrationBlock: { migration, _ in
            migration.enumerateObjects(ofType: "MixedOwner") { old, _ in
                XCTAssertEqual((old?["value"] as? DynamicObject)?["name"] as? String, "Rex", "a migration reads a held object")
            }
            XCTAssertTrue(migration.deleteData(forType: "MixedTarget"))
        }, objectTypes: [MixedTarget.self, MixedOwner.self])
        let realm = try Realm(configuration: config)
        let owner = try XCTUnwrap(realm.objects(MixedOwner.self).first)
        XCTAssertEqual(owner.value, AnyRealmValue.none)
        XCTAssertEqual(owner.members.count, 0)
        XCTAssertEqual(owner.entries["k"], AnyRealmValue.none)
        assertConsistent()
    }

    func testRevertingADeleteBringsTheHeldObjectBackIntoTheValuesThatHeldIt() throws {
        var deleted: UInt64 = 0
        try closingRealms {
            let realm = try open()
            try writeOwner(realm) { owner, rex in
                owner.value = .object(rex)
                owner.values.append(.object(rex))
            }
            try realm.write { realm.delete(target(realm, 1)) }
            deleted = realm.version
        }
        let revert = try strata(["revert", fileURL().path, String(deleted)])
        XCTAssertEqual(revert.process.terminationStatus, 0, revert.transcript)
        let owner = try XCTUnwrap(try open().objects(MixedOwner.self).first)
        XCTAssertEqual(owner.value.object(MixedTarget.self)?.name, "Rex")
        XCTAssertEqual(owner.values.first?.object(MixedTarget.self)?.name, "Rex")
        assertConsistent()
    }
}
