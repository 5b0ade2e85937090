import Foundation
import Strata
import XCTest

/// A model whose accessors count themselves: every stored field is `@Persisted`, so a loop
/// over the whole class may reuse one accessor (`RowScan`).
final class CountedNote: Object {
    @Persisted var rank = 0
    @Persisted var text = ""
    nonisolated(unsafe) static var made = 0

    required init() {
        Self.made += 1
        super.init()
    }
}

/// A counted model with an inverse relationship: its `LinkingObjects` field is `@Persisted`
/// too, so its accessors are as interchangeable as `CountedNote`'s.
final class CountedKeeper: Object {
    @Persisted var rank = 0
    @Persisted var tag: CountedTag?
    @Persisted(originProperty: "keeper") var tags: LinkingObjects<CountedTag>
    nonisolated(unsafe) static var made = 0

    required init() {
        Self.made += 1
        super.init()
    }
}

/// The origin of `CountedKeeper.tags`.
final class CountedTag: Object {
    @Persisted var label = ""
    @Persisted var keeper: CountedKeeper?
}

/// A loop over a whole class hands one accessor out again for the next object once the loop
/// has let go of it, and never when anything can still see the object it was.
final class AccessorReuseTests: StrataTestCase {
    private var realm: Realm!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [CountedNote.self, Dog.self, CountedKeeper.self, CountedTag.self])
        try realm.write {
            for i in 0..<50 {
                realm.add(CountedNote(value: ["rank": i, "text": "note \(i)"]))
                realm.add(Dog(value: ["id": i, "name": "dog \(i)"]))
            }
        }
    }

    func testALoopThatKeepsNothingReadsEveryObjectThroughOneAccessor() {
        let before = CountedNote.made
        var ranks: [Int] = [], texts: [String] = []
        for note in realm.objects(CountedNote.self) {
            ranks.append(note.rank)
            texts.append(note.text)
        }
        XCTAssertEqual(ranks, Array(0..<50))
        XCTAssertEqual(texts, (0..<50).map { "note \($0)" })
        XCTAssertEqual(CountedNote.made - before, 1)
    }

    func testALoopOverAClassWithLinkingObjectsReadsEachObjectsOwnThroughOneAccessor() throws {
        try realm.write {
            for i in 0..<20 {
                let keeper = realm.create(CountedKeeper.self, value: ["rank": i])
                for j in 0..<(i % 3) { realm.add(CountedTag(value: ["label": "\(i).\(j)", "keeper": keeper])) }
            }
        }
        let before = CountedKeeper.made
        var counts: [Int] = [], labels: [[String]] = []
        for keeper in realm.objects(CountedKeeper.self) {
            counts.append(keeper.tags.count)
            labels.append(keeper.tags.map(\.label).sorted())
        }
        XCTAssertEqual(counts, (0..<20).map { $0 % 3 })
        XCTAssertEqual(labels, (0..<20).map { i in (0..<(i % 3)).map { "\(i).\($0)" } })
        XCTAssertEqual(CountedKeeper.made - before, 1)
        let kept = Array(realm.objects(CountedKeeper.self))
        XCTAssertEqual(kept.map(\.tags.count), counts, "kept accessors read their own backlinks")
    }

    func testObjectsTheLoopKeepsStayTheObjectsTheyWere() {
        var kept: [CountedNote] = []
        for note in realm.objects(CountedNote.self) where note.rank % 2 == 0 { kept.append(note) }
        XCTAssertEqual(kept.map(\.rank), Array(stride(from: 0, to: 50, by: 2)))
        XCTAssertEqual(Array(realm.objects(CountedNote.self)).map(\.rank), Array(0..<50))
        XCTAssertEqual(realm.objects(CountedNote.self).map(\.text), (0..<50).map { "note \($0)" })
    }

    func testAWeaklyHeldObjectIsNeverGivenAnotherObjectsData() {
        weak var first: CountedNote?
        var seen = 0
        for note in realm.objects(CountedNote.self) {
            if seen == 0 { first = note }
            seen += 1
            if let first { XCTAssertEqual(first.rank, 0, "after \(seen) objects") }
        }
        XCTAssertEqual(seen, 50)
    }

    func testAClassWithAPlainStoredPropertyGetsAnAccessorPerObject() {
        var scratches: [Int] = [], ids: [Int] = []
        for dog in realm.objects(Dog.self) {
            scratches.append(dog.scratch)
            ids.append(dog.id)
            dog.scratch = 7
        }
        XCTAssertEqual(ids, Array(0..<50))
        XCTAssertEqual(scratches, Array(repeating: 0, count: 50))
    }

    func testALoopOverFilteredAndSortedResultsReusesItsAccessorToo() {
        let before = CountedNote.made
        let odd = realm.objects(CountedNote.self).filter("rank < 3 OR rank > 40")
        var ranks: [Int] = []
        for note in realm.objects(CountedNote.self).filter("rank >= 10").sorted(byKeyPath: "rank", ascending: false) {
            ranks.append(note.rank)
        }
        XCTAssertEqual(ranks, Array((10..<50).reversed()))
        XCTAssertEqual(CountedNote.made - before, 1)
        XCTAssertEqual(Array(odd).map(\.text), odd.map(\.text), "kept and reused accessors read the same objects")
    }

    func testALoopOverMoreSortedResultsThanTheFirstOrderedBatchReadsThemAllInOrder() throws {
        try realm.write {
            for i in 50..<400 { realm.add(CountedNote(value: ["rank": (i * 7919) % 1000, "text": "note \(i)"])) }
        }
        let sorted = realm.objects(CountedNote.self).filter("rank >= 3").sorted(byKeyPath: "rank", ascending: false)
        let expected = realm.objects(CountedNote.self).map(\.rank).filter { $0 >= 3 }.sorted(by: >)
        XCTAssertGreaterThan(expected.count, 300)
        XCTAssertEqual(sorted.map(\.rank), expected)
        var early: [Int] = []
        for note in sorted {
            early.append(note.rank)
            if early.count == 5 { break }
        }
        XCTAssertEqual(early, Array(expected.prefix(5)))
    }

    func testALoopOverAPrimaryKeyRangeReadsTheRowsItsQueryMet() throws {
        let dogs = realm.objects(Dog.self).filter("id BETWEEN {10, 19}")
        XCTAssertEqual(dogs.count, 10)
        XCTAssertEqual(dogs.map(\.name), (10...19).map { "dog \($0)" })
        XCTAssertEqual(Array(dogs.filter("id > 17")).map(\.id), [18, 19])
    }

    func testALoopWhoseRealmMovesOnReadsTheNewestObjects() throws {
        let notes = realm.objects(CountedNote.self).filter("rank < 10")
        var texts: [String] = []
        for note in notes {
            texts.append(note.text)
            if note.rank == 4 {
                let other = try Realm(configuration: realm.configuration)
                try other.write { other.objects(CountedNote.self).filter("rank == 5")[0].text = "changed" }
                realm.refresh()
            }
        }
        XCTAssertEqual(texts, (0..<10).map { $0 == 5 ? "changed" : "note \($0)" })
    }

    func testAWriteLoopThroughOneAccessorChangesEachObject() throws {
        try realm.write {
            for note in realm.objects(CountedNote.self).filter("rank >= 10") { note.rank += 100 }
        }
        XCTAssertEqual(realm.objects(CountedNote.self).map(\.rank).sorted(), Array(0..<10) + Array(110..<150))
        XCTAssertEqual(realm.objects(CountedNote.self).filter("rank >= 100").map(\.text), (10..<50).map { "note \($0)" })
    }

    func testAWeaklyHeldObjectOfAFilteredLoopKeepsItsData() {
        weak var first: CountedNote?
        var seen = 0
        for note in realm.objects(CountedNote.self).filter("rank >= 5") {
            if seen == 0 { first = note }
            seen += 1
            if let first { XCTAssertEqual(first.rank, 5, "after \(seen) objects") }
        }
        XCTAssertEqual(seen, 45)
    }

    func testLoopsOverFrozenResultsOnSeveralThreadsReadTheirOwnObjects() {
        let frozen = realm.objects(CountedNote.self).filter("rank >= 10").freeze()
        let expected = (10..<50).map { "note \($0)" }
        var texts = [[String]](repeating: [], count: 4)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            var seen: [String] = []
            for note in frozen { seen.append(note.text) }
            lock.withLock { texts[i] = seen }
        }
        XCTAssertEqual(texts, [[String]](repeating: expected, count: 4))
    }

    func testALoopLeftEarlyAndAFreshLoopStartOver() {
        var firstRanks: [Int] = []
        for note in realm.objects(CountedNote.self) {
            firstRanks.append(note.rank)
            if firstRanks.count == 3 { break }
        }
        XCTAssertEqual(firstRanks, [0, 1, 2])
        XCTAssertEqual(realm.objects(CountedNote.self).reduce(0) { $0 + $1.rank }, (0..<50).reduce(0, +))
    }
}
