import Foundation
import XCTest
import StrataStorage
@testable import Strata

/// Lists of embedded objects, queries and sorting through embedded objects, and changes to
/// them reported as changes to their owners (as RealmSwift's `EmbeddedObjectTests` and the
/// embedded cases of its `ListTests` check).
final class EmbeddedListTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: embeddedTypes) }

    private func tenant(_ realm: Realm, cities: [String]) throws -> Tenant {
        try realm.write { realm.create(Tenant.self, value: ["id": 1, "addresses": cities.map { ["city": $0] }]) }
    }

    func testAppendingAddsAndRemovingDeletes() throws {
        let realm = try open()
        let tenant = try tenant(realm, cities: [])
        try realm.write { for i in 0..<10 { tenant.addresses.append(Address(value: ["city": "C\(i)"])) } }
        XCTAssertEqual(tenant.addresses.count, 10)
        for address in tenant.addresses { XCTAssertEqual(address.realm, realm) }
        let removed = tenant.addresses[3]
        try realm.write { tenant.addresses.remove(at: 3) }
        XCTAssertTrue(removed.isInvalidated)
        let rest = Array(tenant.addresses)
        try realm.write { tenant.addresses.removeAll() }
        XCTAssertTrue(rest.allSatisfy(\.isInvalidated))
        assertConsistent()
    }

    func testSettingAnElementDeletesTheOldOne() throws {
        let realm = try open()
        let tenant = try tenant(realm, cities: ["Oslo"])
        let old = tenant.addresses[0]
        let new = Address(value: ["city": "Bergen"])
        try realm.write { tenant.addresses[0] = new }
        XCTAssertTrue(tenant.addresses[0].isSameObject(as: new))
        XCTAssertTrue(old.isInvalidated)
        assertConsistent()
    }

    func testMovingWithinTheListKeepsTheObjects() throws {
        let realm = try open()
        let tenant = try tenant(realm, cities: ["A", "B", "C"])
        let first = tenant.addresses[0]
        try realm.write { tenant.addresses.move(from: 0, to: 2) }
        XCTAssertEqual(tenant.addresses.map(\.city), ["B", "C", "A"])
        XCTAssertFalse(first.isInvalidated)
        try realm.write { tenant.addresses.swapAt(0, 1) }
        XCTAssertEqual(tenant.addresses.map(\.city), ["C", "B", "A"])
        assertConsistent()
    }

    func testAssigningTheListReplacesItsObjects() throws {
        let realm = try open()
        let tenant = try tenant(realm, cities: ["A", "B"])
        let old = Array(tenant.addresses)
        let replacement = List<Address>()
        replacement.append(objectsIn: ["X", "Y", "Z"].map { Address(value: ["city": $0]) })
        try realm.write { tenant.addresses = replacement }
        XCTAssertEqual(tenant.addresses.map(\.city), ["X", "Y", "Z"])
        XCTAssertTrue(old.allSatisfy(\.isInvalidated))
        assertConsistent()
    }

    func testQueriesReachEmbeddedObjects() throws {
        let realm = try open()
        try realm.write {
            realm.create(Tenant.self, value: ["id": 1, "name": "a", "address": ["city": "Oslo", "location": ["latitude": 59.9]],
                                              "addresses": [["city": "Bergen"]]] as [String: Any])
            realm.create(Tenant.self, value: ["id": 2, "name": "b", "address": ["city": "Bergen"], "addresses": [["city": "Oslo"], ["city": "Moss"]]])
            realm.create(Tenant.self, value: ["id": 3, "name": "c"])
        }
        let tenants = realm.objects(Tenant.self)
        XCTAssertEqual(tenants.filter("address.city == 'Oslo'").map(\.id), [1])
        XCTAssertEqual(tenants.filter("address.location.latitude > 50").map(\.id), [1])
        XCTAssertEqual(tenants.filter("ANY addresses.city == 'Moss'").map(\.id), [2])
        XCTAssertEqual(tenants.filter("addresses.@count == 0").map(\.id), [3])
        XCTAssertEqual(tenants.filter("address == nil").map(\.id), [3])
        XCTAssertEqual(tenants.where { $0.address.city == "Bergen" }.map(\.id), [2])
        XCTAssertEqual(tenants.filter("address != nil").sorted(byKeyPath: "address.city").map(\.id), [2, 1])
        let tenant = try XCTUnwrap(tenants.filter("id == 2").first)
        XCTAssertEqual(tenant.addresses.filter("city BEGINSWITH 'M'").map(\.city), ["Moss"])
        XCTAssertEqual(tenant.addresses.sorted(byKeyPath: "city").map(\.city), ["Moss", "Oslo"])
    }

    func testAChangeToAnEmbeddedObjectIsAChangeToItsOwner() throws {
        let realm = try open()
        let tenant = try realm.write {
            realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo", "location": ["latitude": 1.0]], "addresses": [["city": "Moss"]]] as [String: Any])
        }
        try realm.write { realm.create(Tenant.self, value: ["id": 2]) }
        var properties: [[String]] = []
        let objectToken = tenant.observe { change in
            if case .change(_, let changed) = change { properties.append(changed.map(\.name)) }
        }
        defer { objectToken.invalidate() }
        var modifications: [[Int]] = []
        let resultsToken = realm.objects(Tenant.self).observe { change in
            if case .update(_, _, _, let modified) = change { modifications.append(modified) }
        }
        defer { resultsToken.invalidate() }
        drain()
        try realm.write { tenant.address!.city = "Bergen" }
        spin { properties.count == 1 && modifications.count == 1 }
        try realm.write { tenant.address!.location!.latitude = 2 }
        spin { properties.count == 2 && modifications.count == 2 }
        try realm.write { tenant.addresses[0].city = "Ski" }
        spin { properties.count == 3 && modifications.count == 3 }
        XCTAssertEqual(properties, [["address"], ["address"], ["addresses"]])
        XCTAssertEqual(modifications, [[0], [0], [0]])
    }

    func testHistoryRecordsAChangeToAnEmbeddedObjectOnItsOwner() throws {
        let realm = try open()
        let tenant = try realm.write { realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo"]]) }
        let before = try XCTUnwrap(realm.history().map(\.version).max())
        try realm.write { tenant.address!.city = "Bergen" }
        let changes = try realm.changes(from: before, to: before + 1)
        XCTAssertEqual(changes.first { $0.className == "Address" }?.modifiedProperties, ["city"])
        XCTAssertEqual(changes.first { $0.className == "Tenant" }?.modifiedProperties, ["address"])
    }

    /// As RealmSwift: `.modified` writes the given embedded objects onto those the stored
    /// owner has (a list's element by element: more are added, fewer delete the rest); `.all`
    /// replaces them.
    func testUpdatingAnOwnerByPrimaryKeyUpdatesOrReplacesItsEmbeddedObjects() throws {
        let realm = try open()
        let tenant = try realm.write { realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Oslo"], "addresses": [["city": "A"]]]) }
        let (oldAddress, oldElement) = (tenant.address!, tenant.addresses[0])
        try realm.write {
            realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Bergen"], "addresses": [["city": "B"], ["city": "C"]]], update: .modified)
        }
        XCTAssertEqual(tenant.address?.city, "Bergen")
        XCTAssertEqual(tenant.addresses.map(\.city), ["B", "C"])
        XCTAssertFalse(oldAddress.isInvalidated || oldElement.isInvalidated, "updated in place")
        XCTAssertEqual(oldElement.city, "B")
        let second = tenant.addresses[1]
        try realm.write { realm.create(Tenant.self, value: ["id": 1, "addresses": [["city": "D"]]], update: .modified) }
        XCTAssertEqual(tenant.addresses.map(\.city), ["D"])
        XCTAssertTrue(second.isInvalidated, "an element past the new end is deleted")
        XCTAssertEqual(oldAddress.city, "Bergen", "a property not given is left as it is")
        try realm.write {
            realm.create(Tenant.self, value: ["id": 1, "address": ["city": "Molde"], "addresses": [["city": "E"]]], update: .all)
        }
        XCTAssertTrue(oldAddress.isInvalidated && oldElement.isInvalidated, ".all replaces them")
        assertConsistent()
    }

    func testStrataInfoMarksEmbeddedClassesAndQueriesReachThem() throws {
        try closingRealms {
            let realm = try open()
            _ = try tenant(realm, cities: ["Oslo"])
        }
        let run = try strata(["info", fileURL().path])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        XCTAssertTrue(run.lines.contains("Address (embedded): 1 object"), run.transcript)
        XCTAssertTrue(run.lines.contains("Tenant: 1 object"), run.transcript)
        for (city, found) in [("Oslo", 1), ("Bergen", 0)] {
            let query = try strata(["query", fileURL().path, "Tenant", "ANY addresses.city == '\(city)'", "--json"])
            XCTAssertEqual(query.process.terminationStatus, 0, query.transcript)
            XCTAssertEqual(query.lines.count, found, query.transcript)
        }
    }

    func testTheIntegrityCheckReportsAnEmbeddedObjectWithoutAnOwner() throws {
        let realm = try open()
        _ = try tenant(realm, cities: ["Oslo"])
        let file = try StorageFile.open(path: fileURL().path, options: .init())
        let txn = try file.beginWrite()
        let table = try XCTUnwrap(try txn.table("Address"))
        _ = try txn.objects.insert(table, values: [Value](repeating: .null, count: table.slotCount))
        _ = try txn.commit(processName: "test", pid: 0)
        let check = try file.beginRead()
        defer { check.abort() }
        XCTAssertThrowsError(try IntegrityCheck.run(check)) { error in
            XCTAssertTrue("\(error)".contains("an embedded object has 0 owners; it must have exactly one"), "\(error)")
        }
        let repair = try file.beginWrite()
        _ = try repair.objects.delete(try XCTUnwrap(try repair.table("Address")), 2)
        _ = try repair.commit(processName: "test", pid: 0)
    }
}
