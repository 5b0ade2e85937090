import Foundation
import XCTest
@testable import StrataStorage

final class ListTests: StorageFileTestCase {
    private let dog = ClassSchema(name: "Dog", properties: [PropertySchema(name: "name", type: .string, id: 0)])
    private let person = ClassSchema(name: "Person", properties: [
        PropertySchema(name: "dogs", type: .link, isOptional: false, id: 0, linkTarget: "Dog", isList: true),
        PropertySchema(name: "tags", type: .string, isOptional: true, id: 1, isList: true),
    ])

    private func open() throws -> (StorageTransaction, Table, Table) {
        let txn = try StorageFile.open(path: path, options: .init()).beginWrite()
        try txn.store(classes: [dog, person])
        return (txn, try XCTUnwrap(try txn.table("Person")), try XCTUnwrap(try txn.table("Dog")))
    }

    /// A chunk's elements read in place are those it was built from, nulls included; a chunk
    /// cut anywhere inside an element reads as damaged.
    func testChunkElementsReadInPlaceAndACutChunkIsDamaged() {
        let elements: [[UInt8]?] = [[1, 2, 3], nil, [], Array(repeating: 7, count: 300), [9]]
        let chunk = ListEncoding.chunk(elements[...])
        var seen: [[UInt8]?] = []
        let whole = chunk.withUnsafeBytes { ListEncoding.forEachElement(in: $0) { seen.append($0.map(Array.init)) } }
        XCTAssertTrue(whole)
        XCTAssertEqual(seen, elements)
        for cut in [1, 3, 7, 100, chunk.count - 1] {
            XCTAssertNil(Array(chunk.prefix(cut)).withUnsafeBytes { ListEncoding.elements($0) }, "cut at \(cut)")
        }
    }

    /// Deleting an object rewrites the lists that hold it with the rest of their elements; an
    /// element whose row is gone while the list (and its backlinks) still hold it is damage,
    /// not a link the caller asked for to an object that does not exist.
    func testDeletingBesideAnElementWhoseRowIsGoneIsDamage() throws {
        let (txn, people, dogs) = try open()
        defer { txn.abort() }
        let rex = try txn.objects.insert(dogs, values: [.string("Rex")])
        let fido = try txn.objects.insert(dogs, values: [.string("Fido")])
        let owner = try txn.objects.insert(people, values: [.null, .null])
        try txn.lists.insert(people, person.properties[0], owner: owner, [.link(rex), .link(fido)], at: 0)
        try txn.rows.remove(dogs, fido)  // as damage would: its list and backlinks still hold it
        XCTAssertThrowsError(try txn.objects.delete(dogs, rex)) { error in
            XCTAssertEqual((error as? StorageError)?.code, .invalidDatabase, "\(error)")
            XCTAssertTrue("\(error)".contains("is damaged: the row of 'Dog' object \(fido)"), "\(error)")
        }
        // With the backlink gone too, the list itself still holds it.
        try txn.links.changeOccurrences(people, person.properties[0], of: fido, in: owner, by: -1)
        XCTAssertThrowsError(try txn.objects.delete(dogs, rex)) { error in
            XCTAssertEqual((error as? StorageError)?.code, .invalidDatabase, "\(error)")
            XCTAssertTrue("\(error)".contains("is damaged: the list 'Person.dogs' of object \(owner)"), "\(error)")
        }
    }

    func testInsertRemoveReplaceAcrossManyChunksKeepOrder() throws {
        let (txn, people, _) = try open()
        let owner = try txn.objects.insert(people, values: [.null, .null])
        let tags = person.properties[1]
        var model: [Value] = []
        var rng = SystemRandomNumberGenerator()
        for i in 0..<3000 {
            let value: Value = i % 17 == 0 ? .null : .string("t\(i)")
            let at = model.isEmpty ? 0 : Int.random(in: 0...model.count, using: &rng)
            try txn.lists.insert(people, tags, owner: owner, [value], at: at)
            model.insert(value, at: at)
            if i % 5 == 4 {
                let r = Int.random(in: 0..<model.count, using: &rng)
                XCTAssertEqual(try txn.lists.remove(people, tags, owner: owner, at: r), model.remove(at: r))
            }
            if i % 7 == 6 {
                let r = Int.random(in: 0..<model.count, using: &rng)
                try txn.lists.replace(people, tags, owner: owner, at: r, with: .string("r\(i)"))
                model[r] = .string("r\(i)")
            }
        }
        XCTAssertEqual(try txn.lists.count(people, tags, owner: owner), model.count)
        XCTAssertEqual(try txn.lists.values(people, tags, owner: owner), model)
        for i in stride(from: 0, to: model.count, by: 97) {
            XCTAssertEqual(try txn.lists.value(people, tags, owner: owner, at: i), model[i])
        }
        try txn.lists.insert(people, tags, owner: owner, (0..<1000).map { .string("bulk\($0)") }, at: 10)
        XCTAssertEqual(try txn.lists.value(people, tags, owner: owner, at: 1009), .string("bulk999"))
        try txn.lists.removeAll(people, tags, owner: owner)
        XCTAssertEqual(try txn.lists.count(people, tags, owner: owner), 0)
    }

    func testObjectListsKeepBacklinksWithDuplicatesAndLoseDeletedTargets() throws {
        let (txn, people, dogs) = try open()
        let list = person.properties[0]
        let rex = try txn.objects.insert(dogs, values: [.string("Rex")])
        let fido = try txn.objects.insert(dogs, values: [.string("Fido")])
        let jane = try txn.objects.insert(people, values: [.null, .null])
        let joe = try txn.objects.insert(people, values: [.null, .null])
        try txn.lists.insert(people, list, owner: jane, [.link(rex), .link(fido), .link(rex)], at: 0)
        try txn.lists.insert(people, list, owner: joe, [.link(rex)], at: 0)
        XCTAssertEqual(try txn.links.origins(people, list, linkingTo: rex), [jane, joe])
        XCTAssertEqual(try txn.links.originCount(people, list, linkingTo: rex), 2)
        try txn.lists.remove(people, list, owner: jane, at: 0)
        XCTAssertEqual(try txn.links.origins(people, list, linkingTo: rex), [jane, joe], "one occurrence is left in jane's list")
        try txn.objects.delete(dogs, rex)
        XCTAssertEqual(try txn.lists.values(people, list, owner: jane), [.link(fido)])
        XCTAssertEqual(try txn.lists.values(people, list, owner: joe), [])
        XCTAssertEqual(try txn.links.originCount(people, list, linkingTo: rex), 0)
        try txn.objects.delete(people, jane)
        XCTAssertEqual(try txn.links.originCount(people, list, linkingTo: fido), 0)
        XCTAssertThrowsError(try txn.lists.insert(people, list, owner: joe, [.link(999)], at: 0))
        XCTAssertThrowsError(try txn.lists.insert(people, list, owner: joe, [.null], at: 0), "an object list holds no nil")
    }

    func testClearingTheTargetClassEmptiesTheListsOfIt() throws {
        let (txn, people, dogs) = try open()
        let list = person.properties[0]
        let rex = try txn.objects.insert(dogs, values: [.string("Rex")])
        let jane = try txn.objects.insert(people, values: [.null, .null])
        try txn.lists.insert(people, list, owner: jane, [.link(rex), .link(rex)], at: 0)
        try txn.objects.deleteAll(dogs)
        XCTAssertEqual(try txn.lists.count(people, list, owner: jane), 0)
    }
}
