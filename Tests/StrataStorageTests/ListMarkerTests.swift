import Foundation
import XCTest
@testable import StrataStorage

/// The owner's row records whether each of its lists is empty (docs/FILE-FORMAT.md, "List
/// markers"), so a list whose entries damage hid reads as damaged, not as empty.
final class ListMarkerTests: StorageFileTestCase {
    private let owner = ClassSchema(name: "Owner", properties: [
        PropertySchema(name: "name", type: .string, id: 0),
        PropertySchema(name: "tags", type: .string, id: 1, isList: true),
        PropertySchema(name: "numbers", type: .int, id: 2, isList: true, isSet: true),
        PropertySchema(name: "scores", type: .int, id: 3, isList: true, isMap: true),
    ])
    private var tags: PropertySchema { owner.properties[1] }
    private var numbers: PropertySchema { owner.properties[2] }
    private var scores: PropertySchema { owner.properties[3] }

    private func open() throws -> (StorageTransaction, Table) {
        let txn = try StorageFile.open(path: path, options: .init()).beginWrite()
        try txn.store(classes: [owner])
        return (txn, try XCTUnwrap(try txn.table("Owner")))
    }

    private func marker(_ txn: StorageTransaction, _ table: Table, _ property: PropertySchema, _ key: ObjectKey) throws -> Bool? {
        try txn.lists.marker(table, property, owner: key)
    }

    private func rowBytes(_ txn: StorageTransaction, _ table: Table, _ key: ObjectKey) throws -> [UInt8] {
        Array(try XCTUnwrap(try txn.rows.read(table, key)).bytes)
    }

    /// The marker follows every way a list, set or map goes empty or non-empty, and appends
    /// and edits of a non-empty list leave the row's bytes as they are.
    func testTheRowRecordsWhenAListGoesEmptyOrNonEmptyAndNothingElse() throws {
        let (txn, table) = try open()
        defer { txn.abort() }
        let key = try txn.objects.insert(table, values: [.string("a"), .null, .null, .null])
        XCTAssertNil(try marker(txn, table, tags, key), "a list never written records nothing")

        try txn.lists.insert(table, tags, owner: key, [.string("x")], at: 0)
        XCTAssertEqual(try marker(txn, table, tags, key), true)
        let row = try rowBytes(txn, table, key)
        try txn.lists.insert(table, tags, owner: key, [.string("y"), .string("z")], at: 1)
        try txn.lists.replace(table, tags, owner: key, at: 0, with: .string("w"))
        try txn.lists.move(table, tags, owner: key, from: 0, to: 2)
        try txn.lists.remove(table, tags, owner: key, at: 0)
        XCTAssertEqual(try rowBytes(txn, table, key), row, "edits of a non-empty list do not rewrite its owner's row")

        try txn.lists.remove(table, tags, owner: key, at: 0)
        try txn.lists.remove(table, tags, owner: key, at: 0)
        XCTAssertEqual(try marker(txn, table, tags, key), false, "removing the last element")
        try txn.lists.rewrite(table, tags, owner: key, [.string("r")])
        XCTAssertEqual(try marker(txn, table, tags, key), true, "rewritten with elements")
        try txn.lists.rewrite(table, tags, owner: key, [])
        XCTAssertEqual(try marker(txn, table, tags, key), false, "rewritten empty")

        XCTAssertTrue(try txn.lists.insertMember(table, numbers, owner: key, .int(5)))
        XCTAssertEqual(try marker(txn, table, numbers, key), true)
        XCTAssertTrue(try txn.lists.removeMember(table, numbers, owner: key, .int(5)))
        XCTAssertEqual(try marker(txn, table, numbers, key), false)

        XCTAssertFalse(try txn.lists.setMapValue(table, scores, owner: key, .int(1), forKey: "k"))
        XCTAssertEqual(try marker(txn, table, scores, key), true)
        XCTAssertTrue(try txn.lists.removeMapValue(table, scores, owner: key, forKey: "k"))
        XCTAssertEqual(try marker(txn, table, scores, key), false)

        try txn.lists.insert(table, tags, owner: key, [.string("x")], at: 0)
        try txn.lists.removeAll(table, tags, owner: key)
        XCTAssertEqual(try marker(txn, table, tags, key), false, "removeAll")
        try txn.lists.insert(table, tags, owner: key, [.string("x")], at: 0)
        try txn.lists.removeAll(table, tags)
        XCTAssertEqual(try marker(txn, table, tags, key), false, "the class's lists cleared at once")

        XCTAssertEqual(try txn.lists.count(table, tags, owner: key), 0)
        XCTAssertNoThrow(try IntegrityCheck.run(txn))
    }

    /// A list, set or map whose entries are missing while its owner's row records elements
    /// (what a damaged branch page that hides them leaves) is an error on every read, naming
    /// the class, the object and the property, and `IntegrityCheck` reports it; so is a row
    /// that records as empty a list that has elements.
    func testAListWhoseEntriesAreHiddenReadsAsDamagedNotEmpty() throws {
        let (txn, table) = try open()
        defer { txn.abort() }
        let key = try txn.objects.insert(table, values: [.string("a"), .null, .null, .null])
        try txn.lists.insert(table, tags, owner: key, [.string("x"), .string("y")], at: 0)
        try txn.lists.insertMember(table, numbers, owner: key, .int(3))
        try txn.lists.setMapValue(table, scores, owner: key, .int(1), forKey: "k")
        // The entries disappear and nothing else changes, as when damage hides them.
        try txn.lists.deleteEntry(table, tags, key: ListStore.key(key))
        try txn.lists.deleteEntry(table, numbers, key: ListStore.key(key))
        try txn.lists.deleteEntry(table, scores, key: ListStore.key(key))
        try txn.lists.deleteEntry(table, scores, key: ListStore.mapKeysKey(key))

        func assertDamaged(_ property: PropertySchema, _ kind: String, _ read: () throws -> Void, line: UInt = #line) {
            XCTAssertThrowsError(try read(), line: line) { error in
                let e = error as? StorageError
                XCTAssertEqual(e?.code, .invalidDatabase, line: line)
                XCTAssertTrue(e?.message.contains("is damaged: the \(kind) 'Owner.\(property.name)' of object \(key) has elements") == true, "\(error)", line: line)
            }
        }
        assertDamaged(tags, "list") { _ = try txn.lists.count(table, tags, owner: key) }
        assertDamaged(tags, "list") { _ = try txn.lists.values(table, tags, owner: key) }
        assertDamaged(tags, "list") { _ = try txn.lists.value(table, tags, owner: key, at: 0) }
        assertDamaged(tags, "list") { try txn.lists.insert(table, tags, owner: key, [.string("z")], at: 0) }
        assertDamaged(numbers, "set") { _ = try txn.lists.contains(.int(3), in: table, numbers, owner: key) }
        assertDamaged(scores, "map") { _ = try txn.lists.mapKeys(table, scores, owner: key) }
        assertDamaged(scores, "map") { _ = try txn.lists.mapValue(table, scores, owner: key, forKey: "k") }
        XCTAssertThrowsError(try IntegrityCheck.run(txn)) { error in
            XCTAssertTrue("\(error)".contains("'Owner' object \(key): its list 'tags' cannot be read"), "\(error)")
        }

        let other = try txn.objects.insert(table, values: [.string("b"), .null, .null, .null])
        try txn.lists.insert(table, tags, owner: other, [.string("x")], at: 0)
        for property in [tags, numbers, scores] { try txn.lists.mark(table, property, owner: key, nonEmpty: false) }
        XCTAssertEqual(try txn.lists.count(table, tags, owner: key), 0, "once its row records it as empty")
        try txn.lists.mark(table, tags, owner: other, nonEmpty: false)
        XCTAssertThrowsError(try IntegrityCheck.run(txn)) { error in
            XCTAssertTrue("\(error)".contains("'Owner' object \(other): its list 'tags' is not empty, but its row records it as empty"), "\(error)")
        }
    }

    /// A row that records nothing (written before markers, or in a format 2 file) reads its
    /// missing list as empty, as before; so does a row whose slot holds something else.
    func testARowThatRecordsNothingReadsAMissingListAsEmpty() throws {
        let (txn, table) = try open()
        defer { txn.abort() }
        let key = try txn.objects.insert(table, values: [.string("a"), .null, .null, .null])
        XCTAssertEqual(try txn.lists.count(table, tags, owner: key), 0)
        XCTAssertEqual(try txn.lists.values(table, tags, owner: key), [])
        XCTAssertEqual(try txn.lists.mapKeys(table, scores, owner: key), [])
        let row = RowEncoder.encode([.string("a"), .int(300), .null, .null])
        XCTAssertNil(row.withUnsafeBytes { ListStore.marker(RowView($0)!, tags) }, "a slot of two bytes is no marker")
    }
}
