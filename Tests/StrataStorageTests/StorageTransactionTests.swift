import Foundation
import XCTest
@testable import StrataStorage

final class StorageTransactionTests: XCTestCase {
    private var path = ""

    override func setUp() {
        path = NSTemporaryDirectory() + "storage-\(UUID().uuidString).strata"
    }

    override func tearDown() {
        for p in [path, path + "-lock"] { try? FileManager.default.removeItem(atPath: p) }
    }

    private let dog = ClassSchema(name: "Dog", properties: [
        PropertySchema(name: "name", type: .string, isIndexed: true, id: 0),
        PropertySchema(name: "age", type: .int, id: 1),
    ])

    func testIndexesFollowUpdatesAndDeletesInTheSameTransaction() throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [dog])
        let table = try XCTUnwrap(try txn.table("Dog"))
        let a = try txn.insert(table, values: [.string("rex"), .int(3)])
        let b = try txn.insert(table, values: [.string("rex"), .int(4)])
        XCTAssertEqual(try txn.lookup(table, dog.properties[0], equalTo: .string("rex")), [a, b])
        try txn.update(table, a, [(dog.properties[0], .string("max"))])
        XCTAssertEqual(try txn.lookup(table, dog.properties[0], equalTo: .string("rex")), [b])
        XCTAssertEqual(try txn.lookup(table, dog.properties[0], equalTo: .string("max")), [a])
        try txn.delete(table, b)
        XCTAssertEqual(try txn.lookup(table, dog.properties[0], equalTo: .string("rex")), [])
        let version = try txn.commit(processName: "test", pid: 1)
        XCTAssertEqual(version, 1)

        let read = try file.beginRead()
        XCTAssertEqual(read.version, 1)
        XCTAssertEqual(try read.count(try XCTUnwrap(try read.table("Dog"))), 1)
    }

    func testEveryCommitLeavesAHistoryEntryWithItsChanges() throws {
        let file = try StorageFile.open(path: path, options: .init())
        var txn = try file.beginWrite()
        try txn.store(classes: [dog])
        var table = try XCTUnwrap(try txn.table("Dog"))
        let key = try txn.insert(table, values: [.string("a"), .int(1)])
        try txn.commit(processName: "test", pid: 7)
        txn = try file.beginWrite()
        table = try XCTUnwrap(try txn.table("Dog"))
        try txn.update(table, key, [(dog.properties[1], .int(2))])
        txn.commitDescription = "birthday"
        try txn.commit(processName: "test", pid: 7)

        let read = try file.beginRead()
        let history = try XCTUnwrap(try read.lmdb.openDatabase("strata.history"))
        var k = UInt64(2).bigEndian
        let entry = try withUnsafeBytes(of: &k) { try read.lmdb.get(history, key: $0) }.flatMap { HistoryEntry(decoding: $0) }
        XCTAssertEqual(entry?.version, 2)
        XCTAssertEqual(entry?.description, "birthday")
        XCTAssertEqual(entry?.pid, 7)
        XCTAssertEqual(entry?.changes.classes["Dog"]?.modified[key], ClassChanges.bit(1))
    }

    func testAnEmptyWriteCommitsNothing() throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        XCTAssertEqual(try txn.commit(processName: "test", pid: 1), 0)
        XCTAssertEqual(try file.beginRead().version, 0)
    }

    func testAnAbortedWriteLeavesNoTrace() throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [dog])
        _ = try txn.insert(try XCTUnwrap(try txn.table("Dog")), values: [.string("x"), .int(0)])
        txn.abort()
        let read = try file.beginRead()
        XCTAssertNil(try read.table("Dog"))
        XCTAssertEqual(read.version, 0)
    }
}
