import Foundation
import XCTest
@testable import Strata

final class Fruit: Object {
    @Persisted var name = ""
    @Persisted var weight = 0
    @Persisted var words: List<String>
    @Persisted var letters: MutableSet<String>

    /// The first letter of the name, the section key.
    var initial: String? { name.first.map { String($0) } }
}

final class FruitCard: Projection<Fruit> {
    @Projected(\Fruit.name) var title: String

    /// The first letter of the title, the section key.
    var initial: String? { title.first.map { String($0) } }
}

/// `sectioned(by:)`: sections of results, lists and sets, their change notifications (of the
/// whole and of one section), and freezing, as RealmSwift's `SectionedResults`.
final class SectionedResultsTests: StrataTestCase {
    private func openWithFruit() throws -> Realm {
        let realm = try openRealm(types: [Fruit.self])
        try realm.write {
            realm.create(Fruit.self, value: ["name": "banana", "weight": 3, "words": ["banana", "box", "apple", "chalk"],
                                             "letters": ["b", "a", "c", "bb"]])
            for name in ["box", "apple", "chalk"] { realm.create(Fruit.self, value: ["name": name]) }
        }
        return realm
    }

    private func names<C: Collection>(_ section: C) -> [String] where C.Element == Fruit { section.map(\.name) }

    func testSectionsOfResultsFollowTheSortAndTheKey() throws {
        let realm = try openWithFruit()
        let fruit = realm.objects(Fruit.self)
        let up = fruit.sectioned(by: \.initial, ascending: true)
        XCTAssertEqual(up.allKeys, ["a", "b", "c"])
        XCTAssertEqual(up.map { names($0) }, [["apple"], ["banana", "box"], ["chalk"]])
        XCTAssertEqual(up[IndexPath(item: 1, section: 1)].name, "box")
        let down = fruit.sectioned(by: \.initial, ascending: false)
        XCTAssertEqual(down.map(\.key), ["c", "b", "a"])
        XCTAssertEqual(names(down[1]), ["box", "banana"])
        let byWeight = fruit.sectioned(by: { $0.weight > 0 ? "heavy" : "light" },
                                       sortDescriptors: [SortDescriptor(keyPath: "name")])
        XCTAssertEqual(byWeight.allKeys, ["light", "heavy"], "sections in the order of their first elements")
        XCTAssertEqual(names(byWeight[0]), ["apple", "box", "chalk"])
        XCTAssertEqual(byWeight[1].count, 1)
    }

    func testSectionsOfProjectionsSortByTheRootProperty() throws {
        let realm = try openWithFruit()
        let cards = realm.objects(FruitCard.self).sectioned(by: \.initial, ascending: false)
        XCTAssertEqual(cards.allKeys, ["c", "b", "a"])
        XCTAssertEqual(cards[1].map(\.title), ["box", "banana"])
        XCTAssertEqual(cards[IndexPath(item: 0, section: 2)].title, "apple")
    }

    func testSectionsOfValuesOfListsAndSets() throws {
        let realm = try openWithFruit()
        let banana = try XCTUnwrap(realm.objects(Fruit.self).filter("name == 'banana'").first)
        let words = banana.words.sectioned(by: { String($0.first!) }, ascending: true)
        XCTAssertEqual(words.allKeys, ["a", "b", "c"])
        XCTAssertEqual(Array(words[1]), ["banana", "box"])
        let letters = banana.letters.sectioned(by: { $0.count }, ascending: false)
        XCTAssertEqual(letters.allKeys, [1, 2])
        XCTAssertEqual(Array(letters[0]), ["c", "b", "a"])
        XCTAssertEqual(sectionCount(AnyRealmCollection(banana.words)) { String($0.first!) }, 3, "generic code over RealmCollection too")
    }

    /// Generic code, as RealmSwift's declaration allows it: no constraint on the element.
    private func sectionCount<C: RealmCollection, K: _Persistable & Hashable>(_ collection: C, by key: @escaping (C.Element) -> K) -> Int {
        collection.sectioned(by: key, ascending: true).count
    }

    func testSectionsAreLive() throws {
        let realm = try openWithFruit()
        let sections = realm.objects(Fruit.self).sectioned(by: \.initial)
        let b = sections[1]
        try realm.write { realm.create(Fruit.self, value: ["name": "berry"]) }
        XCTAssertEqual(names(b), ["banana", "berry", "box"])
        try realm.write { realm.delete(realm.objects(Fruit.self).filter("name BEGINSWITH 'b'")) }
        XCTAssertEqual(sections.allKeys, ["a", "c"])
        XCTAssertEqual(b.count, 0, "a section whose key went is empty")
    }

    func testEqualityIsIdentity() throws {
        let realm = try openWithFruit()
        let fruit = realm.objects(Fruit.self)
        let one = fruit.sectioned(by: \.initial), other = fruit.sectioned(by: \.initial)
        XCTAssertEqual(one, one)
        XCTAssertNotEqual(one, other)
        XCTAssertEqual(one[0], one[0])
    }

    func testFrozenSectionsKeepTheirVersionAndThaw() throws {
        let realm = try openWithFruit()
        let sections = realm.objects(Fruit.self).sectioned(by: \.initial)
        let frozen = sections.freeze()
        let frozenSection = sections[0].freeze()
        try realm.write { realm.create(Fruit.self, value: ["name": "zest"]) ; realm.create(Fruit.self, value: ["name": "apricot"]) }
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertFalse(sections.isFrozen)
        XCTAssertEqual(frozen.allKeys, ["a", "b", "c"])
        XCTAssertEqual(frozenSection.count, 1)
        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertEqual(thawed.allKeys, ["a", "b", "c", "z"])
        XCTAssertEqual(try XCTUnwrap(frozenSection.thaw()).count, 2)
    }

    func testObservingTheSectionsReportsRowsAndSections() throws {
        let realm = try openWithFruit()
        let fruit = realm.objects(Fruit.self)
        var changes: [RealmSectionedResultsChange<SectionedResults<String?, Fruit>>] = []
        let token = fruit.sectioned(by: \.initial).observe(keyPaths: [\Fruit.name]) { changes.append($0) }
        defer { token.invalidate() }
        spin { changes.count == 1 }
        guard case .initial(let initial) = changes.first else { return XCTFail("no initial delivery") }
        XCTAssertEqual(initial.count, 3)

        // a[apple] b[banana, box] c[chalk] -> b[bog] c[chalk] z[zebra]
        try realm.write {
            realm.delete(fruit.filter("name IN {'apple', 'banana'}"))
            fruit.filter("name == 'box'").first!.name = "bog"
            realm.create(Fruit.self, value: ["name": "zebra"])
        }
        spin { changes.count == 2 }
        guard case let .update(sections, deletions, insertions, modifications, sectionsToInsert, sectionsToDelete) = changes[1] else {
            return XCTFail("expected an update, got \(changes[1])")
        }
        XCTAssertEqual(sections.allKeys, ["b", "c", "z"])
        XCTAssertEqual(sectionsToDelete, [0])
        XCTAssertEqual(sectionsToInsert, [2])
        XCTAssertEqual(deletions, [IndexPath(item: 0, section: 1), IndexPath(item: 1, section: 1)],
                       "banana went; bog moved within its section; apple's section went as a whole")
        XCTAssertEqual(insertions, [IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 2)])
        XCTAssertEqual(modifications, [])

        try realm.write {
            fruit.filter("name == 'bog'").first!.name = "bogg"
            fruit.filter("name == 'chalk'").first!.weight = 9  // not observed
        }
        spin { changes.count == 3 }
        guard case let .update(_, deletions, insertions, modifications, sectionsToInsert, sectionsToDelete) = changes[2] else {
            return XCTFail("expected an update, got \(changes[2])")
        }
        XCTAssertEqual(modifications, [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(deletions + insertions, [])
        XCTAssertTrue(sectionsToInsert.isEmpty && sectionsToDelete.isEmpty)
    }

    func testObservingOneSectionReportsOnlyItsChanges() throws {
        let realm = try openWithFruit()
        let fruit = realm.objects(Fruit.self)
        let sections = fruit.sectioned(by: \.initial)
        var a: [RealmSectionedResultsChange<ResultsSection<String?, Fruit>>] = []
        var b: [RealmSectionedResultsChange<ResultsSection<String?, Fruit>>] = []
        let tokens = [sections[0].observe { a.append($0) }, sections[1].observe { b.append($0) }]
        defer { tokens.forEach { $0.invalidate() } }
        spin { a.count == 1 && b.count == 1 }

        try realm.write { realm.delete(fruit.filter("name IN {'apple', 'banana'}")) }
        spin { a.count == 2 && b.count == 2 }
        guard case let .update(_, _, _, _, _, deletedSections) = a[1], case let .update(section, deletions, _, _, _, _) = b[1] else {
            return XCTFail("expected updates, got \(a[1]) and \(b[1])")
        }
        XCTAssertEqual(deletedSections, [0])
        XCTAssertEqual(section.count, 1)
        XCTAssertEqual(deletions, [IndexPath(item: 0, section: 1)])

        try realm.write { realm.create(Fruit.self, value: ["name": "bag"]) }
        spin { b.count == 3 }
        drain()
        XCTAssertEqual(a.count, 2, "a change of another section is not reported")
        try realm.write { realm.create(Fruit.self, value: ["name": "avocado"]) }
        spin { a.count == 3 }
        guard case let .update(section, _, insertions, _, insertedSections, _) = a[2] else { return XCTFail("expected an update") }
        XCTAssertEqual(section.map(\.name), ["avocado"])
        XCTAssertEqual(insertions, [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(insertedSections, [0])
    }

    func testObservingOnAQueueDeliversThere() throws {
        let realm = try openWithFruit()
        let queue = DispatchQueue(label: "sections")
        let delivered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var counts: [Int] = []
        let token = realm.objects(Fruit.self).sectioned(by: \.initial).observe(on: queue) { change in
            if case .initial(let sections) = change { counts.append(sections.count) }
            if case .update(let sections, _, _, _, _, _) = change { counts.append(sections.count) }
            delivered.signal()
        }
        defer { token.invalidate() }
        delivered.wait()
        try realm.write { realm.create(Fruit.self, value: ["name": "kiwi"]) }
        delivered.wait()
        XCTAssertEqual(queue.sync { counts }, [3, 4])
    }
}
