import Foundation
import XCTest
@testable import Strata

final class Birthplace: EmbeddedObject {
    @Persisted var town = ""
}

final class Author: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var surname = ""
    @Persisted var born = Date(timeIntervalSince1970: 0)
    @Persisted var birthplace: Birthplace?
    @Persisted var coauthors: List<Author>
    @Persisted var genres: MutableSet<Genre>
    /// Not stored: a projection of it reads no stored property.
    var nickname = "anon"
}

final class Genre: Object {
    @Persisted(primaryKey: true) var title = ""
}

final class AuthorCard: Projection<Author> {
    @Projected(\Author.name) var name
    @Projected(\Author.surname.localizedUppercase) var surnameCaps
    @Projected(\Author.born.timeIntervalSince1970) var bornEpoch
    @Projected(\Author.birthplace?.town) var town
    @Projected(\Author.coauthors.projectTo.name) var coauthorNames: ProjectedCollection<String>
    @Projected(\Author.genres.projectTo.title) var genreTitles: ProjectedCollection<String>
}

/// Two names for one stored property.
final class AuthorAliases: Projection<Author> {
    @Projected(\Author.name) var first
    @Projected(\Author.name) var second
}

final class NicknameCard: Projection<Author> {
    @Projected(\Author.nickname) var nickname
}

/// Of a class without a primary key.
final class NoteCard: Projection<Note> {
    @Projected(\Note.text) var text
}

/// `Projection`, `@Projected` and `ProjectedCollection`: reads and writes go to the root object,
/// `Realm.objects` gives live results of projections, notifications use the projection's names.
final class ProjectionTests: StrataTestCase {
    private func open() throws -> Realm { try openRealm(types: [Author.self, Birthplace.self, Genre.self, Note.self]) }

    /// Ada (id 1, born 1815, London, writing with Charles) and Charles (id 2, born 1791,
    /// no birthplace, writing with nobody).
    @discardableResult
    private func seed(_ realm: Realm) throws -> (ada: Author, charles: Author) {
        try realm.write {
            let charles = realm.create(Author.self, value: ["id": 2, "name": "Charles", "surname": "Babbage",
                                                            "born": Date(timeIntervalSince1970: -5_680_000_000)])
            let ada = realm.create(Author.self, value: ["id": 1, "name": "Ada", "surname": "Lovelace",
                                                        "born": Date(timeIntervalSince1970: -4_828_000_000),
                                                        "birthplace": ["town": "London"],
                                                        "genres": [["title": "poetry"], ["title": "analysis"]]])
            ada.coauthors.append(charles)
            return (ada, charles)
        }
    }

    func testReadsGoThroughTheRootObject() throws {
        let realm = try open()
        let (ada, charles) = try seed(realm)
        let card = AuthorCard(projecting: ada)
        XCTAssertTrue(card.rootObject === ada)
        XCTAssertEqual(card.name, "Ada")
        XCTAssertEqual(card.surnameCaps, "LOVELACE")
        XCTAssertEqual(card.bornEpoch, -4_828_000_000)
        XCTAssertEqual(card.town, "London")
        XCTAssertEqual(Array(card.coauthorNames), ["Charles"])
        XCTAssertEqual(Set(card.genreTitles), ["poetry", "analysis"])
        // An optional chain through a missing link reads nil; an empty list projects to nothing.
        let other = AuthorCard(projecting: charles)
        XCTAssertNil(other.town)
        XCTAssertTrue(other.coauthorNames.isEmpty)
        XCTAssertEqual(card.realm?.configuration.fileURL, realm.configuration.fileURL)
    }

    func testProjectedValuesAreLive() throws {
        let realm = try open()
        let (ada, charles) = try seed(realm)
        let card = AuthorCard(projecting: ada)
        let names = card.coauthorNames
        try realm.write {
            ada.surname = "King"
            ada.coauthors.append(realm.create(Author.self, value: ["id": 3, "name": "Mary"]))
            charles.name = "Chas"
        }
        XCTAssertEqual(card.surnameCaps, "KING")
        XCTAssertEqual(Array(names), ["Chas", "Mary"])
        XCTAssertEqual(names[1], "Mary")
        XCTAssertEqual(names.index(of: "Mary"), 1)
        XCTAssertNil(names.index(of: "Ada"))
        // A predicate is evaluated on the objects, not on the projected values.
        XCTAssertEqual(names.index(matching: NSPredicate { object, _ in (object as? Author)?.id == 3 }), 1)
        XCTAssertNil(names.index(matching: NSPredicate(value: false)))
        // Assigning an element writes the object's property.
        try realm.write { names[0] = "Charles" }
        XCTAssertEqual(charles.name, "Charles")
        XCTAssertEqual(names.description, "ProjectedCollection<String> {\n\t[0] Charles\n\t[1] Mary\n}")
    }

    func testWritesGoToTheRootObject() throws {
        let realm = try open()
        let (ada, _) = try seed(realm)
        let card = AuthorCard(projecting: ada)
        try realm.write { card.name = "Augusta" }
        XCTAssertEqual(ada.name, "Augusta")
        XCTAssertEqual(realm.object(ofType: Author.self, forPrimaryKey: 1)?.name, "Augusta")
    }

    func testAnUnmanagedObjectCanBeProjected() {
        let author = Author()
        author.name = "Anne"
        let card = AuthorCard(projecting: author)
        XCTAssertNil(card.realm)
        XCTAssertEqual(card.name, "Anne")
        card.name = "Emily"
        XCTAssertEqual(author.name, "Emily")
    }

    func testResultsOfProjections() throws {
        let realm = try open()
        let (ada, _) = try seed(realm)
        let cards = realm.objects(AuthorCard.self)
        XCTAssertEqual(cards.count, 2)
        XCTAssertEqual(Set(cards.map(\.name)), ["Ada", "Charles"])
        XCTAssertEqual(cards.sorted(byKeyPath: "born").map(\.name), ["Charles", "Ada"])
        XCTAssertEqual(cards.filter("surname BEGINSWITH 'Lo'").map(\.surnameCaps), ["LOVELACE"])
        XCTAssertEqual(cards.sorted(byKeyPath: "name", ascending: false).first?.name, "Charles")
        XCTAssertEqual(cards.sorted(byKeyPath: "name").index(of: AuthorCard(projecting: ada)), 0)
        XCTAssertNil(cards.filter("id == 2").index(of: AuthorCard(projecting: ada)))
        // Live, as results of objects are.
        try realm.write { realm.create(Author.self, value: ["id": 3, "name": "Mary"]) }
        XCTAssertEqual(cards.count, 3)
        XCTAssertEqual(cards.filter("name == 'Mary'").first?.rootObject.id, 3)
    }

    func testResultsOfProjectionsNotifyAndFreeze() throws {
        let realm = try open()
        try seed(realm)
        let cards = realm.objects(AuthorCard.self).sorted(byKeyPath: "id")
        var seen: [[String]] = []
        var insertions: [Int]?
        let token = cards.observe { change in
            switch change {
            case .initial(let cards): seen.append(cards.map(\.name))
            case .update(let cards, _, let inserted, _):
                seen.append(cards.map(\.name))
                insertions = inserted
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { token.invalidate() }
        runRunLoop { !seen.isEmpty }
        let frozen = cards.freeze()
        try realm.write { realm.create(Author.self, value: ["id": 3, "name": "Mary"]) }
        runRunLoop { insertions != nil }
        XCTAssertEqual(seen, [["Ada", "Charles"], ["Ada", "Charles", "Mary"]])
        XCTAssertEqual(insertions, [2])
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertEqual(frozen.map(\.name), ["Ada", "Charles"])
        XCTAssertTrue(frozen.first!.isFrozen)
    }

    func testEqualityIsTheRootObjects() throws {
        let realm = try open()
        let (ada, charles) = try seed(realm)
        let fromResults = realm.objects(AuthorCard.self).filter("id == 1").first!
        XCTAssertEqual(fromResults, AuthorCard(projecting: ada))
        XCTAssertNotEqual(fromResults, AuthorCard(projecting: charles))
        XCTAssertEqual(Set([fromResults, AuthorCard(projecting: ada), AuthorCard(projecting: charles)]).count, 2)
        let note = Note(value: ["text": "n"])
        XCTAssertNotEqual(NoteCard(projecting: note), NoteCard(projecting: Note(value: ["text": "n"])), "unmanaged: the same instance only")
        try realm.write { realm.add(note) }
        XCTAssertEqual(NoteCard(projecting: note), realm.objects(NoteCard.self).first, "without a primary key: the same stored object")
    }

    func testDescriptionNamesEachProjectedProperty() throws {
        let realm = try open()
        let (ada, _) = try seed(realm)
        let text = AuthorCard(projecting: ada).description
        XCTAssertTrue(text.hasPrefix("AuthorCard<Author> <0x"), text)
        XCTAssertTrue(text.contains("> {\n\t\tname(\\.name) = Ada;\n\tsurnameCaps"), text)
        XCTAssertTrue(text.contains("\tsurnameCaps(\\.surname) = LOVELACE;"), text)
        XCTAssertTrue(text.contains("\ttown(\\.birthplace.town) = Optional(\"London\");"), text)
        XCTAssertTrue(text.contains("\tcoauthorNames(\\.coauthors) = ProjectedCollection<String> {\n\t[0] Charles\n};"), text)
    }

    func testObserveReportsProjectedNamesAndValues() throws {
        let realm = try open()
        let (ada, _) = try seed(realm)
        let card = AuthorCard(projecting: ada)
        var changes: [[PropertyChange]] = []
        var deleted = false
        let token = card.observe(keyPaths: ["surnameCaps", "name"]) { change in
            switch change {
            case .change(let projection, let properties):
                XCTAssertEqual(projection, card)
                changes.append(properties)
            case .deleted: deleted = true
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { token.invalidate() }
        try realm.write { ada.surname = "King" }
        runRunLoop { changes.count == 1 }
        XCTAssertEqual(changes.first?.map(\.name), ["surnameCaps"])
        XCTAssertEqual(changes.first?.first?.oldValue as? String, "LOVELACE")
        XCTAssertEqual(changes.first?.first?.newValue as? String, "KING")

        // A stored property no observed projected property reads does not notify.
        try realm.write { ada.born = Date(timeIntervalSince1970: 1) }
        try realm.write { ada.name = "Augusta" }
        runRunLoop { changes.count == 2 }
        XCTAssertEqual(changes.last?.map(\.name), ["name"])
        XCTAssertEqual(changes.last?.first?.oldValue as? String, "Ada")

        try realm.write { realm.delete(ada) }
        runRunLoop { deleted }
        XCTAssertEqual(changes.count, 2)
    }

    func testOneStoredPropertyReportsEveryNameProjectingIt() throws {
        let realm = try open()
        let (ada, _) = try seed(realm)
        var names: [String]?
        let token = AuthorAliases(projecting: ada).observe { change in
            if case .change(_, let properties) = change { names = properties.map(\.name) }
        }
        defer { token.invalidate() }
        try realm.write { ada.name = "Augusta" }
        runRunLoop { names != nil }
        XCTAssertEqual(names, ["first", "second"])
    }

    func testObserveWithSwiftKeyPaths() throws {
        let realm = try open()
        let (ada, _) = try seed(realm)
        var names: [[String]] = []
        let token = AuthorCard(projecting: ada).observe(keyPaths: [\AuthorCard.bornEpoch]) { change in
            if case .change(_, let properties) = change { names.append(properties.map(\.name)) }
        }
        defer { token.invalidate() }
        try realm.write { ada.name = "Augusta" }
        try realm.write { ada.born = Date(timeIntervalSince1970: 7) }
        runRunLoop { !names.isEmpty }
        XCTAssertEqual(names, [["bornEpoch"]])
    }

    func testProjectedCollectionNotifications() throws {
        let realm = try open()
        let (ada, _) = try seed(realm)
        let names = AuthorCard(projecting: ada).coauthorNames
        var updates: [[Int]] = []
        var initial: [String]?
        let token = names.observe { change in
            switch change {
            case .initial(let collection): initial = Array(collection)
            case .update(let collection, _, let insertions, _):
                updates.append(insertions)
                XCTAssertEqual(Array(collection), ["Charles", "Mary"])
            case .error(let error): XCTFail("\(error)")
            }
        }
        defer { token.invalidate() }
        runRunLoop { initial != nil }
        XCTAssertEqual(initial, ["Charles"])
        try realm.write { ada.coauthors.append(realm.create(Author.self, value: ["id": 3, "name": "Mary"])) }
        runRunLoop { !updates.isEmpty }
        XCTAssertEqual(updates, [[1]])
    }

    func testFreezeAndThaw() throws {
        let realm = try open()
        let (ada, _) = try seed(realm)
        let frozen = AuthorCard(projecting: ada).freeze()
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertNotEqual(frozen, AuthorCard(projecting: ada))
        XCTAssertEqual(frozen, frozen.freeze())
        XCTAssertEqual(frozen.coauthorNames.freeze().isFrozen, true)
        try realm.write { ada.name = "Augusta" }
        XCTAssertEqual(frozen.name, "Ada")
        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(thawed.name, "Augusta")
        try realm.write { realm.delete(ada) }
        XCTAssertNil(frozen.thaw())
        XCTAssertTrue(thawed.isInvalidated)
    }

    func testThreadSafeReferenceResolvesToAProjectionOfTheSameObject() throws {
        let realm = try open()
        let (ada, charles) = try seed(realm)
        let reference = ThreadSafeReference(to: AuthorCard(projecting: ada))
        let gone = ThreadSafeReference(to: AuthorCard(projecting: charles))
        try realm.write { realm.delete(charles) }
        let configuration = realm.configuration
        let (name, town, goneIsNil) = try onNewThread {
            let other = try Realm(configuration: configuration)
            let card = try XCTUnwrap(other.resolve(reference))
            other.refresh()
            _ = other.objects(Author.self).count  // reading the version without Charles
            return (card.name, card.town, other.resolve(gone) == nil)
        }
        XCTAssertEqual(name, "Ada")
        XCTAssertEqual(town, "London")
        XCTAssertTrue(goneIsNil)
    }

    func testMisusesTrap() throws {
        try assertProbeTraps("testAssignAReadOnlyProjectedProperty", saying: "Cannot assign to a projected property")
        try assertProbeTraps("testProjectAPropertyThatIsNotStored", saying: "must read a stored property of 'Author'")
        try assertProbeTraps("testObserveAnUnknownProjectedName", saying: "Property 'nope' is not a projected property of AuthorCard")
    }
}

/// A settable projected property whose key path the compiler cannot check as writable.
final class WritableLookingCard: Projection<Author> {
    @Projected(\Author.surname.localizedUppercase) var surnameCaps: String
}

extension TrapProbes {
    func testAssignAReadOnlyProjectedProperty() {
        let card = WritableLookingCard(projecting: Author())
        card.surnameCaps = "X"
        XCTFail("not reached: a derived key path cannot be assigned")
    }

    func testProjectAPropertyThatIsNotStored() {
        _ = NicknameCard(projecting: Author()).description
        XCTFail("not reached: a projection of a property that is not stored traps")
    }

    func testObserveAnUnknownProjectedName() throws {
        let realm = try openRealm(types: [Author.self, Birthplace.self, Genre.self])
        let ada = try realm.write { realm.create(Author.self, value: ["id": 1]) }
        _ = AuthorCard(projecting: ada).observe(keyPaths: ["nope"]) { _ in }
        XCTFail("not reached: observing a name the projection does not have traps")
    }
}
