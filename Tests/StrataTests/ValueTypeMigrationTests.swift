import Foundation
import XCTest
@testable import Strata

final class VMTicketV0: Object {
    override class func _realmObjectName() -> String? { "VMTicket" }
    @Persisted(primaryKey: true) var number = 0
    @Persisted var size = 0
}

final class VMTicketV1: Object {
    override class func _realmObjectName() -> String? { "VMTicket" }
    @Persisted(primaryKey: true) var number = 0
    @Persisted var size: MVKind
    @Persisted var ref: ObjectId
    @Persisted var origin: ObjectId?
}

/// Migrations adding `ObjectId` properties and reading stored raw values as enums.
final class ValueTypeMigrationTests: StrataTestCase {
    private let origin = ObjectId("5f5e10000a0b0c0102000001")

    func testAMigrationSetsNewObjectIdsAndKeepsRawValuesForAnEnum() throws {
        try closingRealms {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: fileURL(), objectTypes: [VMTicketV0.self]))
            try realm.write {
                realm.create(VMTicketV0.self, value: ["number": 1, "size": 7])
                realm.create(VMTicketV0.self, value: ["number": 2, "size": 2])
            }
        }
        let origin = self.origin
        let config = Realm.Configuration(fileURL: fileURL(), schemaVersion: 1, migrationBlock: { migration, _ in
            migration.enumerateObjects(ofType: "VMTicket") { old, new in
                new!["ref"] = ObjectId(timestamp: Date(timeIntervalSince1970: 1_600_000_000), machineId: 1,
                                       processId: old!["number"] as! Int)
                if old!["number"] as! Int == 1 { new!["origin"] = origin.stringValue }
            }
        }, objectTypes: [VMTicketV1.self])
        try closingRealms {
            let realm = try Realm(configuration: config)
            let tickets = realm.objects(VMTicketV1.self).sorted(byKeyPath: "number")
            XCTAssertEqual(tickets.map(\.size), [.large, .medium])
            XCTAssertEqual(tickets.map(\.ref.stringValue), ["5f5e1000000001000100" + "0000", "5f5e1000000001000200" + "0000"])
            XCTAssertEqual(tickets.map(\.origin), [origin, nil])
            XCTAssertEqual(tickets.filter("origin == %@", origin).count, 1)
        }
    }
}
