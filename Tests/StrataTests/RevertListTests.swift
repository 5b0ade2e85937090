import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// `strata revert` of commits that changed a list of many chunks, a set and a map, run as the
/// built executable: the old elements are assembled from the before-image and the chunks the
/// commit did not change, and a later change to the same collection refuses the revert.
final class RevertListTests: StrataTestCase {
    private let types: [ObjectBase.Type] = [HistoryNode.self, HistoryNote.self]

    /// What node 0 holds: its list, set and map.
    private func collections(_ realm: Realm) throws -> String {
        let root = try XCTUnwrap(realm.object(ofType: HistoryNode.self, forPrimaryKey: 0))
        return "children=\(root.children.map(\.id)) labels=\(Array(root.labels).sorted()) counts=\(root.counts.map { "\($0.key):\($0.value)" }.sorted())"
    }

    /// Runs `body` in a write on a Realm of the test file and returns the version it committed.
    private func write(_ body: (Realm, HistoryNode) throws -> Void) throws -> UInt64 {
        var version: UInt64 = 0
        try closingRealms {
            let realm = try openRealm(types: types)
            try realm.write { try body(realm, try XCTUnwrap(realm.object(ofType: HistoryNode.self, forPrimaryKey: 0))) }
            version = realm.version
        }
        return version
    }

    private func node(_ realm: Realm, _ id: Int) -> HistoryNode { realm.object(ofType: HistoryNode.self, forPrimaryKey: id)! }

    func testRevertingAChangeToALongListASetAndAMapBringsBackTheirOldElements() throws {
        var before = ""
        try closingRealms {
            let realm = try openRealm(types: types)
            try realm.write {
                let nodes = (1...30).map { realm.create(HistoryNode.self, value: ["id": $0, "group": "a"]) }
                let root = realm.create(HistoryNode.self, value: ["id": 0, "group": "b"])
                root.children.append(objectsIn: (0..<2_000).map { nodes[$0 % nodes.count] })
                root.labels.insert("kept")
                root.counts["kept"] = 1
            }
            before = try collections(realm)
        }
        let changed = try write { realm, root in
            root.children.insert(node(realm, 7), at: 1_000)
            root.children.remove(at: 3)
            root.labels.insert("new")
            root.counts["new"] = 2
            root.counts.removeObject(for: "kept")
        }
        _ = try write { _, root in root.score = 99 }
        let revert = try strata(["revert", fileURL().path, String(changed)])
        XCTAssertEqual(revert.process.terminationStatus, 0, revert.transcript)
        try closingRealms {
            let realm = try openRealm(types: types)
            XCTAssertEqual(try collections(realm), before)
            XCTAssertEqual(realm.object(ofType: HistoryNode.self, forPrimaryKey: 0)?.score, 99, "the later change stays")
        }
        assertConsistent()  // the backlinks of the list follow its elements
    }

    func testRevertingChangesToASetWithANestedDirectoryBringsBackItsOldMembers() throws {
        // Six labels fill a chunk: 2,000 nest the set's directory (docs/FILE-FORMAT.md, "Lists").
        func label(_ i: Int) -> String { String(format: "%06d", i) + String(repeating: "-", count: 300) }
        var before = ""
        try closingRealms {
            let realm = try openRealm(types: types)
            try realm.write {
                let root = realm.create(HistoryNode.self, value: ["id": 0, "group": "b"])
                root.labels.insert(objectsIn: (0..<2_000).map { label($0 * 2) })
            }
            before = try collections(realm)
        }
        let changed = try write { _, root in
            root.labels.insert(objectsIn: (0..<300).map { label($0 * 6 + 1) })
            (0..<100).forEach { root.labels.remove(label($0 * 8)) }
        }
        _ = try write { _, root in root.score = 7 }
        let revert = try strata(["revert", fileURL().path, String(changed)])
        XCTAssertEqual(revert.process.terminationStatus, 0, String(revert.transcript.prefix(2_000)))
        try closingRealms {
            XCTAssertEqual(try collections(try openRealm(types: types)), before)
        }
        assertConsistent()
    }

    func testALaterChangeToTheSameListSetOrMapRefusesTheRevert() throws {
        try closingRealms {
            let realm = try openRealm(types: types)
            try realm.write {
                let one = realm.create(HistoryNode.self, value: ["id": 1, "group": "a"])
                let root = realm.create(HistoryNode.self, value: ["id": 0, "group": "b"])
                root.children.append(objectsIn: Array(repeating: one, count: 600))
            }
        }
        let cases: [(String, (Realm, HistoryNode) -> Void, (Realm, HistoryNode) -> Void)] = [
            ("children", { _, root in root.children.append(root.children[0]) }, { _, root in root.children.remove(at: 0) }),
            ("labels", { _, root in root.labels.insert("s") }, { _, root in root.labels.insert("t") }),
            ("counts", { _, root in root.counts["m"] = 1 }, { _, root in root.counts["m"] = 2 }),
        ]
        for (property, change, later) in cases {
            let changed = try write(change)
            let laterVersion = try write(later)
            let revert = try strata(["revert", fileURL().path, String(changed)])
            XCTAssertEqual(revert.process.terminationStatus, 1, revert.transcript)
            XCTAssertTrue(revert.errorOutput.contains("HistoryNode 0 (\(property)) by version \(laterVersion)"), revert.transcript)
        }
        assertConsistent()
    }
}
