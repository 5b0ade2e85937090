import Foundation
import Strata
import XCTest

/// An object with two links to counted notes (`CountedNote` counts its accessors).
final class NoteRef: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var note: CountedNote?
    @Persisted var other: CountedNote?
}

/// A node of a chain, counting its live accessors.
final class ChainNode: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var next: ChainNode?
    nonisolated(unsafe) static var live = 0

    required init() {
        Self.live += 1
        super.init()
    }

    deinit { Self.live -= 1 }
}

/// Following a link hands out the accessor the property's last follow made again, moved to
/// the new target, once nothing else holds it; never an accessor someone can still see.
final class LinkAccessorReuseTests: StrataTestCase {
    private var realm: Realm!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [CountedNote.self, NoteRef.self, ChainNode.self])
        try realm.write {
            let notes = (0..<20).map { CountedNote(value: ["rank": $0, "text": "note \($0)"]) }
            for (i, note) in notes.enumerated() {
                realm.add(NoteRef(value: ["id": i, "note": note, "other": notes[19 - i]]))
            }
        }
    }

    func testALoopFollowingALinkReadsEachTargetThroughOneAccessor() {
        let before = CountedNote.made
        var ranks: [Int] = []
        for ref in realm.objects(NoteRef.self) { ranks.append(ref.note!.rank) }
        XCTAssertEqual(ranks, Array(0..<20))
        XCTAssertEqual(CountedNote.made - before, 1)
    }

    func testFollowedObjectsKeptOrWeaklyHeldStayTheObjectsTheyWere() {
        var kept: [CountedNote] = []
        weak var first: CountedNote?
        for ref in realm.objects(NoteRef.self) {
            let note = ref.note!
            if ref.id == 0 { first = note }
            if ref.id % 5 == 0 { kept.append(note) }
            XCTAssertEqual(first?.rank, 0, "after ref \(ref.id)")
        }
        XCTAssertEqual(kept.map(\.rank), [0, 5, 10, 15])
        XCTAssertEqual(kept.map(\.text), ["note 0", "note 5", "note 10", "note 15"])
    }

    func testTwoLinksOfOneObjectFollowedInTurnReadTheirOwnTargets() {
        let ref = realm.object(ofType: NoteRef.self, forPrimaryKey: 3)!
        var ranks: [Int] = []
        for _ in 0..<3 { ranks += [ref.note!.rank, ref.other!.rank] }
        XCTAssertEqual(ranks, [3, 16, 3, 16, 3, 16])
    }

    func testALinkChangedInAWriteIsFollowedToItsNewTarget() throws {
        let ref = realm.object(ofType: NoteRef.self, forPrimaryKey: 2)!
        let old = ref.note!
        try realm.write { ref.note = realm.objects(CountedNote.self).filter("rank == 7").first }
        XCTAssertEqual(ref.note?.rank, 7)
        XCTAssertEqual(old.rank, 2, "the accessor handed out before still reads its own object")
        try realm.write { ref.note = nil }
        XCTAssertNil(ref.note)
        try realm.write { ref.note = old }
        XCTAssertEqual(ref.note?.text, "note 2")
    }

    func testFrozenObjectsFollowTheirLinksOnSeveralThreads() {
        let frozen = realm.objects(NoteRef.self).freeze()
        var ranks = [[Int]](repeating: [], count: 4)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            let seen = frozen.map { $0.note!.rank + $0.other!.rank }
            lock.withLock { ranks[i] = seen }
        }
        XCTAssertEqual(ranks, [[Int]](repeating: Array(repeating: 19, count: 20), count: 4))
    }

    func testWalkingAChainOfLinksKeepsNoChainOfAccessorsAlive() throws {
        try realm.write {
            var next: ChainNode?
            for id in (0..<200).reversed() { next = realm.create(ChainNode.self, value: ["id": id, "next": next as Any]) }
        }
        let head = try XCTUnwrap(realm.object(ofType: ChainNode.self, forPrimaryKey: 0))
        let before = ChainNode.live
        var node = head, walked = 0
        while let next = node.next {
            node = next
            walked += 1
            XCTAssertLessThanOrEqual(ChainNode.live - before, 2, "at node \(walked)")
        }
        XCTAssertEqual(walked, 199)
        XCTAssertEqual(node.id, 199)
    }
}
