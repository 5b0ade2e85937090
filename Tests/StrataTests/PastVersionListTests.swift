import Foundation
import StrataStorage
import XCTest
@testable import Strata

/// Past versions of a list that spans many chunks: its before-images hold the old directory
/// and the chunks each commit rewrote, and every version still reads back whole.
final class PastVersionListTests: StrataTestCase {
    /// The root's list: `memberCount` links cycling through the nodes 1...`nodeCount`, about
    /// ten chunks of links.
    private let memberCount = 2_000, nodeCount = 30

    private func open() throws -> Realm {
        var configuration = configuration(types: [HistoryNode.self, HistoryNote.self])
        configuration.syncOnCommit = false
        return try Realm(configuration: configuration)
    }

    /// Node 0 with the long list `children`, and the nodes it links to.
    private func addRoot(_ realm: Realm) throws -> HistoryNode {
        try realm.write {
            let nodes = (1...nodeCount).map { realm.create(HistoryNode.self, value: ["id": $0, "group": "a", "score": $0 * 3]) }
            let root = realm.create(HistoryNode.self, value: ["id": 0, "group": "b"])
            root.children.append(objectsIn: (0..<memberCount).map { nodes[$0 % nodeCount] })
            return root
        }
    }

    private func node(_ realm: Realm, _ id: Int) throws -> HistoryNode {
        try XCTUnwrap(realm.object(ofType: HistoryNode.self, forPrimaryKey: id))
    }

    /// The stored old values of the history entry of `version`, as bytes and decoded.
    private func storedOldValues(_ version: UInt64) throws -> (bytes: Int, old: ObjectImages) {
        let txn = try StorageFile.open(path: fileURL().path, options: .init()).beginRead()
        defer { txn.abort() }
        let entry = try XCTUnwrap(try txn.history.entry(version))
        let ext = try XCTUnwrap(entry.extensions.first { $0.tag == StrataStorage.HistoryEntry.Extension.oldValuesTag })
        return (ext.bytes.count, try XCTUnwrap(try entry.oldValues()))
    }

    func testEveryVersionOfAListOfManyChunksReadsAsAFrozenRealmSawIt() throws {
        let realm = try open()
        let root = try addRoot(realm)
        var pinned: [(UInt64, Realm)] = [(realm.version, realm.freeze())]
        func commit(_ body: () throws -> Void) throws {
            try realm.write(body)
            pinned.append((realm.version, realm.freeze()))
        }
        try commit { root.children.append(try node(realm, 5)) }
        try commit { root.children.insert(try node(realm, 7), at: 1_000) }
        try commit { root.children.remove(at: 3) }
        try commit { root.children.move(from: 10, to: 1_900) }
        try commit { root.children[1_500] = try node(realm, 2) }
        let nine = try node(realm, 9), six = try node(realm, 6)
        try commit {
            // Splits the first chunk, then changes chunks on either side of the split.
            root.children.insert(contentsOf: Array(repeating: nine, count: 300), at: 0)
            root.children.remove(at: 290)
            root.children.remove(at: root.children.count - 1)
            root.children.swapAt(5, 1_700)
        }
        try commit { root.labels.insert("x"); root.counts["a"] = 1; root.children.append(try node(realm, 4)) }
        try commit { root.counts.removeObject(for: "a"); root.counts["b"] = 2; root.labels.insert("y") }
        try commit { realm.delete(try node(realm, 3)) }
        try commit { root.children.removeAll() }
        try commit { root.children.append(objectsIn: Array(repeating: six, count: 600)) }
        try commit { root.children.replace(index: 599, object: try node(realm, 8)); root.labels.remove("x") }
        try commit { realm.delete(root) }

        let file = try StorageFile.open(path: fileURL().path, options: .init())
        for (version, frozen) in pinned {
            let past = try realm.freeze(atVersion: version)
            XCTAssertEqual(HistoryState.lines(past), HistoryState.lines(frozen), "version \(version)")
            XCTAssertEqual(past.object(ofType: HistoryNode.self, forPrimaryKey: 0)?.children.map(\.id),
                           frozen.object(ofType: HistoryNode.self, forPrimaryKey: 0)?.children.map(\.id), "version \(version)")
            // The rebuilt file's lists, chunks and backlinks agree with one another.
            _ = try file.writeCopy(atVersion: version, to: fileURL("v\(version).strata").path)
            assertConsistent("v\(version).strata")
        }
    }

    /// A label long enough that six fill a chunk: 2,000 of them nest the set's directory.
    private func label(_ i: Int) -> String { String(format: "%06d", i) + String(repeating: "-", count: 300) }

    func testEveryVersionOfASetWithANestedDirectoryReadsAsAFrozenRealmSawIt() throws {
        let realm = try open()
        let root = try addRoot(realm)
        var pinned: [(UInt64, Realm)] = []
        func commit(_ body: () throws -> Void) throws {
            try realm.write(body)
            pinned.append((realm.version, realm.freeze()))
        }
        try commit { root.labels.insert(objectsIn: (0..<2_000).map { label($0 * 2) }) }
        try commit { root.labels.insert(label(1_001)) }  // one node and one chunk change
        try commit { root.labels.insert(objectsIn: (0..<400).map { label($0 * 10 + 1) }) }
        try commit { (0..<50).forEach { root.labels.remove(label($0 * 40)) } }
        try commit { root.labels.remove(label(2)); root.children.append(try node(realm, 1)) }
        try commit { root.labels.removeAll() }
        try commit { root.labels.insert(objectsIn: (0..<1_600).map { label($0) }) }
        try commit { realm.delete(root) }

        let file = try StorageFile.open(path: fileURL().path, options: .init())
        for (version, frozen) in pinned {
            let past = try realm.freeze(atVersion: version)
            XCTAssertEqual(past.object(ofType: HistoryNode.self, forPrimaryKey: 0).map { Array($0.labels).sorted() },
                           frozen.object(ofType: HistoryNode.self, forPrimaryKey: 0).map { Array($0.labels).sorted() }, "version \(version)")
            _ = try file.writeCopy(atVersion: version, to: fileURL("v\(version).strata").path)
            assertConsistent("v\(version).strata")
        }
        // The one-label insert recorded the directory, one node and one chunk, not the set.
        let one = try storedOldValues(pinned[1].0)
        let image = try XCTUnwrap(one.old.classes["HistoryNode"]?.values.first?.lists.values.first)
        XCTAssertEqual(image.count, 2_000)
        XCTAssertEqual(image.chunks.count, 2, "one node and one chunk")
        XCTAssertLessThan(one.bytes, 2 * ListEncoding.chunkBytes)
    }

    func testAOneElementAppendRecordsTheDirectoryAndOneChunk() throws {
        let realm = try open()
        let root = try addRoot(realm)
        try realm.write { root.children.append(try node(realm, 5)) }
        let append = try storedOldValues(realm.version)
        XCTAssertEqual(append.old.classes["HistoryNode"]?.count, 1, "only the root changed")
        let image = try XCTUnwrap(append.old.classes["HistoryNode"]?.values.first?.lists.values.first)
        XCTAssertEqual(append.old.classes["HistoryNode"]?.values.first?.row, nil, "the row did not change")
        XCTAssertEqual(image.count, memberCount, "the old directory's total")
        XCTAssertEqual(image.chunks.count, 1, "the chunk the append rewrote")
        XCTAssertLessThan(append.bytes, 2 * ListEncoding.chunkBytes)

        try realm.write { root.children.removeAll() }
        let clear = try storedOldValues(realm.version)
        XCTAssertGreaterThan(clear.old.classes["HistoryNode"]?.values.first?.lists.values.first?.chunks.count ?? 0, 5,
                             "emptying the list records every chunk")
        XCTAssertGreaterThan(clear.bytes, 5 * ListEncoding.chunkBytes)
        XCTAssertEqual(try realm.freeze(atVersion: realm.version - 1).object(ofType: HistoryNode.self, forPrimaryKey: 0)?.children.count,
                       memberCount + 1)
    }
}
