import Foundation
import XCTest
@testable import StrataStorage

final class LinkTests: StorageFileTestCase {
    private let person = ClassSchema(name: "Person", properties: [
        PropertySchema(name: "name", type: .string, id: 0),
        PropertySchema(name: "friend", type: .link, isOptional: true, id: 1, linkTarget: "Person"),
    ])
    private let dog = ClassSchema(name: "Dog", properties: [
        PropertySchema(name: "name", type: .string, id: 0),
        PropertySchema(name: "owner", type: .link, isOptional: true, id: 1, linkTarget: "Person"),
    ])

    private func open() throws -> (StorageTransaction, Table, Table) {
        let txn = try StorageFile.open(path: path, options: .init()).beginWrite()
        try txn.store(classes: [person, dog])
        return (txn, try XCTUnwrap(try txn.table("Person")), try XCTUnwrap(try txn.table("Dog")))
    }

    func testBacklinksFollowInsertsUpdatesAndDeletes() throws {
        let (txn, people, dogs) = try open()
        let jane = try txn.objects.insert(people, values: [.string("Jane"), .null])
        let joe = try txn.objects.insert(people, values: [.string("Joe"), .null])
        let rex = try txn.objects.insert(dogs, values: [.string("Rex"), .link(jane)])
        let fido = try txn.objects.insert(dogs, values: [.string("Fido"), .link(jane)])
        XCTAssertEqual(try txn.links.origins(dogs, dog.properties[1], linkingTo: jane), [rex, fido])
        XCTAssertEqual(try txn.links.originCount(dogs, dog.properties[1], linkingTo: jane), 2)
        try txn.objects.update(dogs, fido, [(dog.properties[1], .link(joe))])
        XCTAssertEqual(try txn.links.origins(dogs, dog.properties[1], linkingTo: jane), [rex])
        XCTAssertEqual(try txn.links.origins(dogs, dog.properties[1], linkingTo: joe), [fido])
        try txn.objects.delete(dogs, rex)
        XCTAssertEqual(try txn.links.originCount(dogs, dog.properties[1], linkingTo: jane), 0)
    }

    func testDeletingATargetNullifiesEveryLinkToIt() throws {
        let (first, people, dogs) = try open()
        let jane = try first.objects.insert(people, values: [.string("Jane"), .null])
        try first.objects.update(people, jane, [(person.properties[1], .link(jane))])
        let rex = try first.objects.insert(dogs, values: [.string("Rex"), .link(jane)])
        try first.commit(processName: "test", pid: 1)
        let txn = try StorageFile.open(path: path, options: .init()).beginWrite()
        try txn.objects.delete(try XCTUnwrap(try txn.table("Person")), jane)
        XCTAssertEqual(try txn.rows.read(dogs, rex)?.value(dog.properties[1]), .null)
        XCTAssertEqual(txn.changes.classes["Dog"]?.modified[rex], ClassChanges.bit(1))
        XCTAssertEqual(try txn.links.originCount(dogs, dog.properties[1], linkingTo: jane), 0)
    }

    func testClearingATargetClassNullifiesLinksFromOtherClasses() throws {
        let (txn, people, dogs) = try open()
        let jane = try txn.objects.insert(people, values: [.string("Jane"), .null])
        let rex = try txn.objects.insert(dogs, values: [.string("Rex"), .link(jane)])
        try txn.objects.deleteAll(people)
        XCTAssertEqual(try txn.rows.read(dogs, rex)?.value(dog.properties[1]), .null)
    }

    func testLinksToMissingObjectsAreRefused() throws {
        let (txn, _, dogs) = try open()
        XCTAssertThrowsError(try txn.objects.insert(dogs, values: [.string("Rex"), .link(999)])) { error in
            XCTAssertEqual((error as? StorageError)?.code, .invalidInput)
        }
    }
}
