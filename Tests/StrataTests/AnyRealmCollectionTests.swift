import Foundation
import XCTest
import Strata

final class DogPound: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var dogs: List<Dog>
    @Persisted var favourites: MutableSet<Dog>
    @Persisted var ratings: List<Int>
}

/// Counts the objects of any Realm collection and how many it grew by: generic code over
/// `RealmCollection`, as users write it, observing with the defaulted arguments.
private final class GrowthWatcher<C: RealmCollection> {
    private(set) var counts: [Int] = []
    private var token: NotificationToken?

    init(_ collection: C) {
        token = collection.observe { [weak self] change in
            switch change {
            case .initial(let current), .update(let current, _, _, _): self?.counts.append(current.count)
            case .error(let error): XCTFail("\(error)")
            }
        }
    }

    func stop() { token?.invalidate() }
}

/// `AnyRealmCollection` over results, lists, sets and inverse relationships: reading,
/// queries with arguments, sorting, aggregates, notifications, freezing, equality; and generic
/// code over `RealmCollection` calling `observe` with its defaulted arguments.
final class AnyRealmCollectionTests: StrataTestCase {
    private func populated() throws -> (Realm, DogPound) {
        let realm = try openRealm(types: [Dog.self, DogPound.self])
        let kennel = try realm.write { () -> DogPound in
            let kennel = realm.create(DogPound.self, value: ["id": 1, "ratings": [3, 1, 2]])
            for (id, name, age) in [(1, "Rex", 9), (2, "Ace", 3), (3, "Bo", 5)] {
                let dog = realm.create(Dog.self, value: ["id": id, "name": name, "age": age])
                kennel.dogs.append(dog)
                if age > 4 { kennel.favourites.insert(dog) }
            }
            return kennel
        }
        return (realm, kennel)
    }

    func testReadsAndQueriesEveryKindOfCollection() throws {
        let (realm, kennel) = try populated()
        let collections: [(String, AnyRealmCollection<Dog>)] = [
            ("results", AnyRealmCollection(realm.objects(Dog.self))),
            ("list", AnyRealmCollection(kennel.dogs)),
            ("set", AnyRealmCollection(kennel.favourites)),
            ("filtered", AnyRealmCollection(realm.objects(Dog.self).filter("age > %@", 0))),
        ]
        for (kind, dogs) in collections {
            let expected = kind == "set" ? 2 : 3
            XCTAssertEqual(dogs.count, expected, kind)
            XCTAssertEqual(dogs.map(\.id).count, expected, kind)
            XCTAssertEqual(dogs.filter("age > %@ AND name BEGINSWITH %@", 4, "R").map(\.name), ["Rex"], kind)
            XCTAssertEqual(try dogs.throwingFilter("age == %@", 9).count, 1, kind)
            XCTAssertThrowsError(try dogs.throwingFilter("age >"), kind)
            XCTAssertNotNil(dogs.index(matching: "name == %@", "Rex"), kind)
            XCTAssertNil(dogs.index(matching: "name == %@", "Zed"), kind)
            XCTAssertEqual(dogs.sorted(byKeyPath: "age").first?.name, kind == "set" ? "Bo" : "Ace", kind)
            XCTAssertEqual(dogs.sorted(by: [SortDescriptor(keyPath: "name", ascending: false)]).first?.name, "Rex", kind)
            XCTAssertEqual(dogs.distinct(by: ["name"]).count, expected, kind)
            XCTAssertEqual(dogs.distinct(by: [\Dog.name, \Dog.age]).count, expected, kind)
            XCTAssertEqual(dogs.filter(NSPredicate(value: true)).count, expected, kind)
            XCTAssertEqual(dogs.filter(NSPredicate { dog, _ in (dog as! Dog).age > 4 }).sorted(byKeyPath: "age").map(\.name), ["Bo", "Rex"], kind)
            XCTAssertNil(dogs.index(matching: NSPredicate(value: false)), kind)
            XCTAssertEqual(dogs.index(matching: NSPredicate { dog, _ in (dog as! Dog).name == "Rex" }).map { dogs[$0].name }, "Rex", kind)
            XCTAssertEqual(dogs.max(ofProperty: "age") as Int?, 9, kind)
            XCTAssertEqual(dogs.sum(ofProperty: "age") as Int, kind == "set" ? 14 : 17, kind)
            XCTAssertEqual(dogs.sum(of: \.age), kind == "set" ? 14 : 17, kind)
            XCTAssertEqual(dogs.min(of: \.age), kind == "set" ? 5 : 3, kind)
            XCTAssertEqual(dogs.max(of: \.age), 9, kind)
            XCTAssertEqual(dogs.average(of: \.age), dogs.average(ofProperty: "age") as Int?, kind)
            XCTAssertEqual(dogs.sorted(by: \.name, ascending: false).map(\.name), kind == "set" ? ["Rex", "Bo"] : ["Rex", "Bo", "Ace"], kind)
            XCTAssertEqual(dogs.sorted(by: \.age).first?.name, kind == "set" ? "Bo" : "Ace", kind)
            XCTAssertEqual(dogs.sorted(by: [SortDescriptor(keyPath: \Dog.age, ascending: false)]).first?.name, "Rex", kind)
            let names = dogs.value(forKey: "name")  // a set's as a set, as RealmSwift's
            XCTAssertEqual(kind == "set" ? (names as? Set<String>)?.count : (names as? [String])?.count, expected, kind)
            XCTAssertEqual(dogs.where { $0.age == 9 }.count, 1, kind)
            XCTAssertTrue(dogs.realm != nil, kind)
            XCTAssertFalse(dogs.isInvalidated, kind)
            XCTAssertEqual(dogs.index(of: realm.object(ofType: Dog.self, forPrimaryKey: 1)!).map { dogs[$0].name }, "Rex", kind)
        }
        let ratings = AnyRealmCollection(kennel.ratings)
        XCTAssertEqual(Array(ratings), [3, 1, 2])
        XCTAssertEqual(ratings.max(), 3)
        XCTAssertEqual(ratings.sum(), 6)
        XCTAssertEqual(ratings.index(matching: NSPredicate { rating, _ in (rating as! Int) < 2 }), 1)
    }

    /// As RealmSwift's: an unmanaged list's or set's aggregates are computed from its objects.
    func testAWrappedCollectionOfValuesSortsAndDistinguishesItsValues() throws {
        let (realm, kennel) = try populated()
        let ratings = AnyRealmCollection(kennel.ratings)
        XCTAssertEqual(Array(ratings.sorted(ascending: true)), [1, 2, 3])
        XCTAssertEqual(Array(ratings.sorted(ascending: false)), [3, 2, 1])
        try realm.write { kennel.ratings.append(2) }
        XCTAssertEqual(Array(ratings.distinct()), [3, 1, 2], "live, as the list's own")
    }

    func testUnmanagedCollectionsAggregateTheirObjects() {
        let kennel = DogPound(value: ["id": 1])
        for (id, age) in [(1, 9), (2, 3), (3, 5)] { kennel.dogs.append(Dog(value: ["id": id, "age": age, "born": Date(timeIntervalSince1970: Double(id))])) }
        kennel.favourites.insert(objectsIn: kennel.dogs)
        for dogs in [AnyRealmCollection(kennel.dogs), AnyRealmCollection(kennel.favourites)] {
            XCTAssertEqual(dogs.min(ofProperty: "age") as Int?, 3)
            XCTAssertEqual(dogs.max(of: \.age), 9)
            XCTAssertEqual(dogs.sum(ofProperty: "age") as Int, 17)
            XCTAssertEqual(dogs.average(ofProperty: "age") as Double?, 17.0 / 3)
            XCTAssertEqual(dogs.max(ofProperty: "born") as Date?, Date(timeIntervalSince1970: 3))
        }
        XCTAssertEqual(kennel.dogs.sum(of: \.age), 17)
        XCTAssertEqual(AnyRealmCollection(kennel.dogs).value(forKeyPath: "@max.age") as? Int, 9)
        XCTAssertEqual(kennel.favourites.value(forKeyPath: "@count") as? Int, 3)
        AnyRealmCollection(kennel.dogs).setValue(1, forKey: "age")
        XCTAssertEqual(kennel.dogs.map(\.age), [1, 1, 1], "key-value coding sets every unmanaged element")
        XCTAssertNil(DogPound().dogs.min(ofProperty: "age") as Int?, "none: nil")
        XCTAssertEqual(DogPound().dogs.sum(ofProperty: "age") as Int, 0)
    }

    func testWrappingIsLiveAndWrapsOnce() throws {
        let (realm, kennel) = try populated()
        let dogs = AnyRealmCollection(kennel.dogs)
        let again = AnyRealmCollection(dogs)
        XCTAssertEqual(dogs, again)
        XCTAssertEqual(dogs, AnyRealmCollection(kennel.dogs), "two wrappers of one list are equal")
        XCTAssertNotEqual(dogs, AnyRealmCollection(realm.objects(Dog.self)), "different collections are not")
        try realm.write { kennel.dogs.removeFirst() }
        XCTAssertEqual(again.map(\.name), ["Ace", "Bo"], "the wrapper reads the live list")
    }

    func testObservesThroughTheWrapperAndGenericCode() throws {
        let (realm, kennel) = try populated()
        var changes: [String] = []
        let token = AnyRealmCollection(realm.objects(Dog.self)).observe { change in
            switch change {
            case .initial(let dogs): changes.append("initial \(dogs.count)")
            case .update(let dogs, let deletions, let insertions, _): changes.append("update \(dogs.count) -\(deletions) +\(insertions)")
            case .error(let error): XCTFail("\(error)")
            }
        }
        let listWatcher = GrowthWatcher(kennel.dogs)
        let wrappedWatcher = GrowthWatcher(AnyRealmCollection(kennel.favourites))
        runScheduledDeliveries()
        try realm.write {
            let dog = realm.create(Dog.self, value: ["id": 4, "name": "Cy", "age": 7])
            kennel.dogs.append(dog)
            kennel.favourites.insert(dog)
        }
        runScheduledDeliveries { changes.count == 2 && listWatcher.counts.count == 2 && wrappedWatcher.counts.count == 2 }
        XCTAssertEqual(changes, ["initial 3", "update 4 -[] +[3]"])
        XCTAssertEqual(listWatcher.counts, [3, 4])
        XCTAssertEqual(wrappedWatcher.counts, [2, 3])
        token.invalidate()
        listWatcher.stop()
        wrappedWatcher.stop()
    }

    func testFreezesAndThaws() throws {
        let (realm, kennel) = try populated()
        let dogs = AnyRealmCollection(kennel.dogs)
        XCTAssertFalse(dogs.isFrozen)
        let frozen = dogs.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { kennel.dogs.removeAll() }
        XCTAssertEqual(frozen.count, 3, "the frozen wrapper keeps its version")
        let names = try onNewThread { frozen.map(\.name) }
        XCTAssertEqual(names, ["Rex", "Ace", "Bo"], "and is readable from any thread")
        XCTAssertEqual(frozen.thaw()?.count, 0, "thawed, it is live again")
    }
}
