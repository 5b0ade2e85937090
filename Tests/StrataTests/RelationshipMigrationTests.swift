import Foundation
import StrataStorage
import XCTest
@testable import Strata

// Versions of the stored classes "RmPerson" and "RmDog". Each version's classes link only to
// each other, so a configuration names one consistent set.

// v0: no relationships.
final class RmPerson0: Object {
    override class func _realmObjectName() -> String? { "RmPerson" }
    @Persisted var name = ""
}

final class RmDog0: Object {
    override class func _realmObjectName() -> String? { "RmDog" }
    @Persisted var name = ""
    @Persisted var ownerName = ""
}

// v1: a to-one link, a list of objects, a list of values and an inverse relationship.
final class RmPerson1: Object {
    override class func _realmObjectName() -> String? { "RmPerson" }
    @Persisted var name = ""
    @Persisted var pets: List<RmDog1>
    @Persisted var tags: List<String>
    @Persisted(originProperty: "owner") var dogs: LinkingObjects<RmDog1>
}

final class RmDog1: Object {
    override class func _realmObjectName() -> String? { "RmDog" }
    @Persisted var name = ""
    @Persisted var ownerName = ""
    @Persisted var owner: RmPerson1?
}

// v1 without the inverse relationship (not stored: the same schema).
final class RmPersonNoInverse: Object {
    override class func _realmObjectName() -> String? { "RmPerson" }
    @Persisted var name = ""
    @Persisted var pets: List<RmDogNoInverse>
    @Persisted var tags: List<String>
}

final class RmDogNoInverse: Object {
    override class func _realmObjectName() -> String? { "RmDog" }
    @Persisted var name = ""
    @Persisted var ownerName = ""
    @Persisted var owner: RmPersonNoInverse?
}

// The link retargeted to another class.
final class RmCompany: Object {
    @Persisted var name = ""
}

final class RmDogToCompany: Object {
    override class func _realmObjectName() -> String? { "RmDog" }
    @Persisted var name = ""
    @Persisted var ownerName = ""
    @Persisted var owner: RmCompany?
}

// The link and the list renamed.
final class RmPersonRenamed: Object {
    override class func _realmObjectName() -> String? { "RmPerson" }
    @Persisted var name = ""
    @Persisted var animals: List<RmDogRenamed>
    @Persisted var tags: List<String>
    @Persisted(originProperty: "master") var dogs: LinkingObjects<RmDogRenamed>
}

final class RmDogRenamed: Object {
    override class func _realmObjectName() -> String? { "RmDog" }
    @Persisted var name = ""
    @Persisted var ownerName = ""
    @Persisted var master: RmPersonRenamed?
}

// The dog gains an integer primary key: dogs are re-keyed.
final class RmPersonKeyed: Object {
    override class func _realmObjectName() -> String? { "RmPerson" }
    @Persisted var name = ""
    @Persisted var pets: List<RmDogKeyed>
    @Persisted var tags: List<String>
    @Persisted(originProperty: "owner") var dogs: LinkingObjects<RmDogKeyed>
}

final class RmDogKeyed: Object {
    override class func _realmObjectName() -> String? { "RmDog" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var ownerName = ""
    @Persisted var owner: RmPersonKeyed?
}

// A list whose element type changes.
final class RmScores0: Object {
    override class func _realmObjectName() -> String? { "RmScores" }
    @Persisted var name = ""
    @Persisted var scores: List<Int>
    @Persisted var flags: List<Int?>
}

final class RmScores1: Object {
    override class func _realmObjectName() -> String? { "RmScores" }
    @Persisted var name = ""
    @Persisted var scores: List<String>
    @Persisted var flags: List<Int>
}

// A self-linking class that gains an integer primary key.
final class RmNode0: Object {
    override class func _realmObjectName() -> String? { "RmNode" }
    @Persisted var name = ""
    @Persisted var next: RmNode0?
    @Persisted var children: List<RmNode0>
}

final class RmNode1: Object {
    override class func _realmObjectName() -> String? { "RmNode" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var next: RmNode1?
    @Persisted var children: List<RmNode1>
}

/// Things a `@Sendable` migration block leaves behind.
final class RmLog: @unchecked Sendable {
    var lines: [String] = []
    var objects: [String: DynamicObject] = [:]
    var lists: [String: [DynamicObject]] = [:]
}

/// A class a migration adds, whose to-one link defaults to a new object.
final class RmKennel: Object {
    @Persisted var name = "kennel"
    @Persisted var watchdog: RmDog1? = RmDog1(value: ["name": "Watchdog"])
}

final class RelationshipMigrationTests: StrataTestCase {
    func config(_ version: UInt64, _ types: [ObjectBase.Type], block: MigrationBlock? = nil) -> Realm.Configuration {
        Realm.Configuration(fileURL: fileURL(), schemaVersion: version, migrationBlock: block, objectTypes: types)
    }

    static let v1Types: [ObjectBase.Type] = [RmPerson1.self, RmDog1.self]

    /// A v1 file: Jane owns Rex and Fido and lists [Rex, Fido, Rex]; Joe owns and lists Spot;
    /// Stray has no owner.
    func seedV1() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(1, Self.v1Types))
            try realm.write {
                let jane = realm.create(RmPerson1.self, value: ["name": "Jane", "tags": ["a", "b"]])
                let joe = realm.create(RmPerson1.self, value: ["name": "Joe"])
                let rex = realm.create(RmDog1.self, value: ["name": "Rex", "ownerName": "Jane", "owner": jane])
                let fido = realm.create(RmDog1.self, value: ["name": "Fido", "ownerName": "Jane", "owner": jane])
                let spot = realm.create(RmDog1.self, value: ["name": "Spot", "ownerName": "Joe", "owner": joe])
                realm.create(RmDog1.self, value: ["name": "Stray"])
                jane.pets.append(objectsIn: [rex, fido, rex])
                joe.pets.append(spot)
            }
        }
        assertConsistent()
    }

    func assertFailsLeavingVersion(_ version: UInt64, _ configuration: Realm.Configuration, contains text: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Realm(configuration: configuration), file: file, line: line) { error in
            let message = (error as? Realm.Error)?.localizedDescription ?? "\(error)"
            XCTAssertTrue(message.contains("the file is unchanged"), message, file: file, line: line)
            XCTAssertTrue(message.contains(text), message, file: file, line: line)
        }
        XCTAssertEqual(try schemaVersionAtURL(fileURL()), version, file: file, line: line)
        assertConsistent(file: file, line: line)
    }

    func person(_ realm: Realm, _ name: String) -> RmPerson1 {
        realm.objects(RmPerson1.self).filter("name == %@", name).first!
    }

    // MARK: Adding and removing

    func testAddingALinkAndListsWithoutABlockGivesNilAndEmptyLists() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [RmPerson0.self, RmDog0.self]))
            try realm.write {
                realm.create(RmPerson0.self, value: ["name": "Jane"])
                realm.create(RmDog0.self, value: ["name": "Rex", "ownerName": "Jane"])
            }
        }
        let realm = try Realm(configuration: config(1, Self.v1Types))
        XCTAssertNil(realm.objects(RmDog1.self).first!.owner)
        XCTAssertEqual(person(realm, "Jane").pets.count, 0)
        XCTAssertEqual(person(realm, "Jane").tags.count, 0)
        XCTAssertEqual(person(realm, "Jane").dogs.count, 0)
        try realm.write { person(realm, "Jane").pets.append(realm.objects(RmDog1.self).first!) }
        XCTAssertEqual(person(realm, "Jane").pets.first?.name, "Rex")
        assertConsistent()
    }

    func testAddingALinkAndListsFilledInTheBlock() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [RmPerson0.self, RmDog0.self]))
            try realm.write {
                for name in ["Jane", "Joe"] { realm.create(RmPerson0.self, value: ["name": name]) }
                for (dog, owner) in [("Rex", "Jane"), ("Fido", "Jane"), ("Spot", "Joe"), ("Stray", "")] {
                    realm.create(RmDog0.self, value: ["name": dog, "ownerName": owner])
                }
            }
        }
        let realm = try Realm(configuration: config(1, Self.v1Types) { migration, _ in
            var people: [String: DynamicObject] = [:]
            migration.enumerateObjects(ofType: "RmPerson") { _, new in people[new!["name"] as! String] = new! }
            var pets: [String: [DynamicObject]] = [:]
            migration.enumerateObjects(ofType: "RmDog") { old, new in
                let ownerName = old!["ownerName"] as! String
                new!["owner"] = people[ownerName]
                if people[ownerName] != nil { pets[ownerName, default: []].append(new!) }
            }
            for (name, person) in people {
                person["pets"] = pets[name] ?? []
                person["tags"] = [name.lowercased(), "pet-owner"]
            }
        })
        let jane = person(realm, "Jane")
        XCTAssertEqual(jane.pets.map(\.name), ["Rex", "Fido"])
        XCTAssertEqual(Array(jane.tags), ["jane", "pet-owner"])
        XCTAssertEqual(jane.dogs.count, 2)
        XCTAssertEqual(Set(jane.dogs.map(\.name)), ["Rex", "Fido"])
        XCTAssertEqual(person(realm, "Joe").pets.map(\.name), ["Spot"])
        XCTAssertNil(realm.objects(RmDog1.self).filter("name == 'Stray'").first!.owner)
        XCTAssertEqual(realm.objects(RmDog1.self).filter("owner.name == 'Jane'").count, 2)
        assertConsistent()
    }

    func testRemovingLinksAndListsAndAddingThemBackStartsEmpty() throws {
        try seedV1()
        try closingRealms {
            let realm = try Realm(configuration: config(2, [RmPerson0.self, RmDog0.self]) { migration, _ in
                migration.enumerateObjects(ofType: "RmDog") { old, _ in
                    let owner = old!["owner"] as? DynamicObject
                    XCTAssertEqual(owner?["name"] as? String, old!["name"] as! String == "Stray" ? nil : old!["ownerName"] as? String,
                                   "removed links stay readable on the old object")
                }
                migration.enumerateObjects(ofType: "RmPerson") { old, _ in
                    XCTAssertEqual((old!["pets"] as! List<MigrationObject>).isEmpty, false)
                }
            })
            XCTAssertEqual(Set(realm.objects(RmDog0.self).map(\.name)), ["Rex", "Fido", "Spot", "Stray"])
            XCTAssertEqual(realm.schema["RmDog"]?.properties.map(\.name), ["name", "ownerName"])
        }
        assertConsistent()
        // The removed properties' data is gone: adding them back gives new, empty ones.
        let realm = try Realm(configuration: config(3, Self.v1Types))
        XCTAssertTrue(realm.objects(RmDog1.self).allSatisfy { $0.owner == nil })
        XCTAssertTrue(realm.objects(RmPerson1.self).allSatisfy { $0.pets.isEmpty && $0.tags.isEmpty && $0.dogs.isEmpty })
        assertConsistent()
    }

    func testLinkingObjectsAreNotStoredSoAddingOrRemovingThemNeedsNoMigration() throws {
        try seedV1()
        let calls = Counter()
        try closingRealms {
            let realm = try Realm(configuration: config(1, [RmPersonNoInverse.self, RmDogNoInverse.self]) { _, _ in calls.add() })
            XCTAssertEqual(realm.objects(RmPersonNoInverse.self).count, 2)
        }
        let realm = try Realm(configuration: config(1, Self.v1Types) { _, _ in calls.add() })
        XCTAssertEqual(calls.value, 0)
        XCTAssertEqual(person(realm, "Jane").dogs.count, 2)
        XCTAssertEqual(try schemaVersionAtURL(fileURL()), 1)
        assertConsistent()
    }

    // MARK: Changing types

    func testChangingALinkTargetIsADifferenceAndGoesThroughTheBlock() throws {
        try seedV1()
        XCTAssertThrowsError(try Realm(configuration: config(1, [RmDogToCompany.self, RmCompany.self]))) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("Property 'RmDog.owner' has been changed from '<RmPerson>' to '<RmCompany>'."), "\(error)")
        }
        let realm = try Realm(configuration: config(2, [RmDogToCompany.self, RmCompany.self]) { migration, _ in
            var companies: [String: DynamicObject] = [:]
            migration.enumerateObjects(ofType: "RmDog") { old, new in
                guard let owner = old!["owner"] as? DynamicObject else { return }
                XCTAssertEqual(owner.dynamicClassName, "RmPerson")
                let name = owner["name"] as! String
                let company = companies[name] ?? migration.create("RmCompany", value: ["name": name + " Ltd"])
                companies[name] = company
                new!["owner"] = company
                XCTAssertTrue((new!["owner"] as? DynamicObject)?.isSameObject(as: company) ?? false, "the link reads back the object set")
                XCTAssertEqual(new!["owner"] as? DynamicObject, company)
            }
        })
        let dogs = realm.objects(RmDogToCompany.self)
        XCTAssertEqual(dogs.filter("name == 'Rex'").first?.owner?.name, "Jane Ltd")
        XCTAssertEqual(dogs.filter("name == 'Spot'").first?.owner?.name, "Joe Ltd")
        XCTAssertNil(dogs.filter("name == 'Stray'").first?.owner)
        XCTAssertEqual(realm.objects(RmCompany.self).count, 2)
        XCTAssertTrue(dogs.filter("name == 'Rex'").first!.owner!.isSameObject(as: dogs.filter("name == 'Fido'").first!.owner!))
        assertConsistent()
    }

    func testChangingAListElementTypeGoesThroughTheBlockAndMakingItRequiredReplacesNil() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [RmScores0.self]))
            try realm.write {
                let s = realm.create(RmScores0.self, value: ["name": "a"])
                s.scores.append(objectsIn: [3, 1, 2])
                s.flags.append(objectsIn: [1, nil, 2])
            }
        }
        XCTAssertThrowsError(try Realm(configuration: config(0, [RmScores1.self]))) { error in
            XCTAssertTrue("\(error)".contains("Property 'RmScores.scores' has been changed from 'array<int>' to 'array<string>'."), "\(error)")
            XCTAssertTrue("\(error)".contains("Property 'RmScores.flags' has been made required."), "\(error)")
        }
        let realm = try Realm(configuration: config(1, [RmScores1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "RmScores") { old, new in
                XCTAssertEqual((new!["scores"] as? List<String>)?.count, 0, "a retyped list starts empty")
                new!["scores"] = (old!["scores"] as! List<Int>).map { String($0 * 10) }
            }
        })
        let s = realm.objects(RmScores1.self).first!
        XCTAssertEqual(Array(s.scores), ["30", "10", "20"])
        XCTAssertEqual(Array(s.flags), [1, 0, 2])
        assertConsistent()
    }

    func testRenamingALinkAndAListKeepsTheirValuesAndBacklinks() throws {
        try seedV1()
        let realm = try Realm(configuration: config(2, [RmPersonRenamed.self, RmDogRenamed.self]) { migration, _ in
            migration.renameProperty(onType: "RmDog", from: "owner", to: "master")
            migration.renameProperty(onType: "RmPerson", from: "pets", to: "animals")
        })
        let jane = realm.objects(RmPersonRenamed.self).filter("name == 'Jane'").first!
        XCTAssertEqual(jane.animals.map(\.name), ["Rex", "Fido", "Rex"])
        XCTAssertEqual(Array(jane.tags), ["a", "b"])
        XCTAssertEqual(Set(jane.dogs.map(\.name)), ["Rex", "Fido"])
        XCTAssertEqual(realm.objects(RmDogRenamed.self).filter("master.name == 'Joe'").first?.name, "Spot")
        try realm.write { jane.animals.remove(at: 0) }
        XCTAssertEqual(jane.animals.map(\.name), ["Fido", "Rex"])
        assertConsistent()
    }

    // MARK: Deleting

    func testDeleteDataOfAListedClassEmptiesTheLists() throws {
        try seedV1()
        let realm = try Realm(configuration: config(2, Self.v1Types) { migration, _ in
            XCTAssertTrue(migration.deleteData(forType: "RmDog"))
        })
        XCTAssertEqual(realm.objects(RmDog1.self).count, 0)
        XCTAssertTrue(realm.objects(RmPerson1.self).allSatisfy { $0.pets.isEmpty && $0.dogs.isEmpty })
        XCTAssertEqual(Array(person(realm, "Jane").tags), ["a", "b"], "lists of values stay")
        assertConsistent()
    }

    func testDeleteDataOfALinkedClassNullifiesTheLinks() throws {
        try seedV1()
        let realm = try Realm(configuration: config(2, Self.v1Types) { migration, _ in
            migration.deleteData(forType: "RmPerson")
        })
        XCTAssertEqual(realm.objects(RmPerson1.self).count, 0)
        XCTAssertEqual(realm.objects(RmDog1.self).count, 4)
        XCTAssertTrue(realm.objects(RmDog1.self).allSatisfy { $0.owner == nil })
        try realm.write { realm.create(RmPerson1.self, value: ["name": "New", "pets": [realm.objects(RmDog1.self).first!]]) }
        assertConsistent()
    }

    func testDeletingAnObjectInTheBlockRemovesItFromEveryListAndLink() throws {
        try seedV1()
        let realm = try Realm(configuration: config(2, Self.v1Types) { migration, _ in
            migration.enumerateObjects(ofType: "RmDog") { old, _ in
                if old!["name"] as! String == "Rex" { migration.delete(old!) }
            }
            migration.enumerateObjects(ofType: "RmPerson") { old, _ in
                if old!["name"] as! String == "Joe" { migration.delete(old!) }
            }
        })
        XCTAssertEqual(person(realm, "Jane").pets.map(\.name), ["Fido"])
        XCTAssertEqual(person(realm, "Jane").dogs.map(\.name), ["Fido"])
        XCTAssertNil(realm.objects(RmDog1.self).filter("name == 'Spot'").first!.owner)
        assertConsistent()
    }

    func testRemovingAClassThatIsStillLinkedToFailsUntilItsLinksGoToo() throws {
        try seedV1()
        // RmDog stays in the file (not in these models) and still links to RmPerson.
        assertFailsLeavingVersion(1, config(2, [RmCompany.self]) { migration, _ in
            migration.deleteData(forType: "RmPerson")
        }, contains: "Cannot remove class 'RmPerson' from the file with deleteData(forType:): 'RmDog.owner' still links to its objects")
        assertFailsLeavingVersion(1, config(2, [RmCompany.self]) { migration, _ in
            migration.deleteData(forType: "RmDog")
        }, contains: "'RmPerson.pets' still lists its objects")
        try closingRealms {
            let realm = try Realm(configuration: config(1, Self.v1Types))
            XCTAssertEqual(person(realm, "Jane").pets.count, 3, "the failed migrations changed nothing")
        }
        // Removing both classes (in either order) works.
        let realm = try Realm(configuration: config(2, [RmCompany.self]) { migration, _ in
            migration.deleteData(forType: "RmPerson")
            migration.deleteData(forType: "RmDog")
        })
        XCTAssertEqual(try schemaVersionAtURL(fileURL()), 2)
        _ = realm
        try closingRealms {
            let txn = try StorageFile.open(path: fileURL().path, options: .init()).beginRead()
            defer { txn.abort() }
            XCTAssertNil(txn.schema.classes["RmPerson"])
            XCTAssertNil(txn.schema.classes["RmDog"])
        }
        assertConsistent()
    }

    func testRemovingALinkedClassWhoseLinksAreRemovedInTheSameMigration() throws {
        try seedV1()
        // The dogs lose their owner; the people are deleted from the file.
        let realm = try Realm(configuration: config(2, [RmDog0.self]) { migration, _ in
            migration.deleteData(forType: "RmPerson")
        })
        XCTAssertEqual(realm.objects(RmDog0.self).count, 4)
        XCTAssertNil(realm.schema["RmPerson"])
        assertConsistent()
    }

    // MARK: Re-keying

    func testAddingAnIntegerPrimaryKeyToALinkedClassMovesItsLinksAndLists() throws {
        try seedV1()
        let realm = try Realm(configuration: config(2, [RmPersonKeyed.self, RmDogKeyed.self]) { migration, _ in
            var next = 100
            migration.enumerateObjects(ofType: "RmDog") { _, new in
                new!["id"] = next   // descending keys: the dogs are re-keyed in reverse order
                next -= 10
            }
        })
        let jane = realm.objects(RmPersonKeyed.self).filter("name == 'Jane'").first!
        XCTAssertEqual(jane.pets.map(\.name), ["Rex", "Fido", "Rex"])
        XCTAssertEqual(Set(jane.dogs.map(\.name)), ["Rex", "Fido"])
        XCTAssertEqual(realm.object(ofType: RmDogKeyed.self, forPrimaryKey: 100)?.owner?.name, realm.objects(RmDogKeyed.self).filter("name == %@", "Rex").first?.owner?.name)
        XCTAssertEqual(realm.objects(RmDogKeyed.self).filter("name == 'Spot'").first?.owner?.name, "Joe")
        XCTAssertEqual(realm.objects(RmDogKeyed.self).sorted(byKeyPath: "id").map(\.name), ["Stray", "Spot", "Fido", "Rex"])
        assertConsistent()
    }

    func testReKeyingASelfLinkingClassMovesItsOwnLinksAndLists() throws {
        try closingRealms {
            let realm = try Realm(configuration: config(0, [RmNode0.self]))
            try realm.write {
                let a = realm.create(RmNode0.self, value: ["name": "a"])
                let b = realm.create(RmNode0.self, value: ["name": "b", "next": a])
                let c = realm.create(RmNode0.self, value: ["name": "c", "next": c0(b)])
                a.next = c
                a.children.append(objectsIn: [b, c, a])
                c.children.append(a)
            }
        }
        let realm = try Realm(configuration: config(1, [RmNode1.self]) { migration, _ in
            migration.enumerateObjects(ofType: "RmNode") { old, new in
                new!["id"] = ["a": 30, "b": -5, "c": 7][old!["name"] as! String]!
            }
        })
        let node = { (id: Int) in realm.object(ofType: RmNode1.self, forPrimaryKey: id)! }
        XCTAssertEqual(node(30).next?.name, "c")
        XCTAssertEqual(node(-5).next?.name, "a")
        XCTAssertEqual(node(7).next?.name, "b")
        XCTAssertEqual(node(30).children.map(\.name), ["b", "c", "a"])
        XCTAssertEqual(node(7).children.map(\.name), ["a"])
        assertConsistent()
    }

    private func c0(_ node: RmNode0) -> RmNode0 { node }

    // MARK: Reading and writing through the block

    func testOldAndNewObjectsReadAndWriteLinksAndLists() throws {
        try seedV1()
        let log = RmLog()
        let realm = try Realm(configuration: config(2, Self.v1Types) { migration, _ in
            var dogs: [String: DynamicObject] = [:]
            migration.enumerateObjects(ofType: "RmDog") { old, new in
                let name = old!["name"] as! String
                let owner = old!["owner"] as? DynamicObject
                log.lines.append("\(name):\(owner?["name"] as? String ?? "nil")")
                dogs[name] = new!
                if name == "Rex" { new!["owner"] = nil }
            }
            migration.enumerateObjects(ofType: "RmPerson") { old, new in
                let pets = old!["pets"] as! List<MigrationObject>
                let tags = old!["tags"] as! List<String>
                log.lines.append("\(old!["name"] as! String):\(pets.map { $0["name"] as! String })\(Array(tags))")
                if old!["name"] as! String == "Joe" {
                    new!["pets"] = [dogs["Stray"]!, dogs["Spot"]!, dogs["Stray"]!]
                    new!["tags"] = ["x"]
                    new!["name"] = "Joseph"
                    dogs["Stray"]!["owner"] = new!
                }
            }
            XCTAssertEqual(log.lines.count, 6)
            _ = (dogs["Rex"]!.description, dogs["Rex"]!["owner"] == nil)
        })
        XCTAssertEqual(log.lines.sorted(), ["Fido:Jane", "Jane:[\"Rex\", \"Fido\", \"Rex\"][\"a\", \"b\"]", "Joe:[\"Spot\"][]",
                                            "Rex:Jane", "Spot:Joe", "Stray:nil"])
        let joe = person(realm, "Joseph")
        XCTAssertEqual(joe.pets.map(\.name), ["Stray", "Spot", "Stray"])
        XCTAssertEqual(Array(joe.tags), ["x"])
        XCTAssertEqual(Set(joe.dogs.map(\.name)), ["Stray", "Spot"])
        XCTAssertNil(realm.objects(RmDog1.self).filter("name == 'Rex'").first!.owner)
        XCTAssertEqual(person(realm, "Jane").dogs.map(\.name), ["Fido"])
        assertConsistent()
    }

    /// As RealmSwift: a list reads as a live `List` of the stored element type, the same one
    /// on every read of the new object, its changes written when the block returns.
    func testListsInTheBlockAreListsTheBlockChanges() throws {
        try seedV1()
        let realm = try Realm(configuration: config(2, Self.v1Types) { migration, _ in
            var stray: MigrationObject?
            migration.enumerateObjects(ofType: "RmDog") { _, new in
                if new!["name"] as! String == "Stray" { stray = new }
            }
            migration.enumerateObjects(ofType: "RmPerson") { old, new in
                let pets = new!["pets"] as! List<MigrationObject>
                XCTAssertTrue(pets === new!["pets"] as AnyObject, "one collection per property of a new object")
                XCTAssertTrue(pets === new!.dynamicList("pets"))
                let tags = new!["tags"] as! List<String>
                tags.append("seen")
                XCTAssertEqual(Array(new!["tags"] as! List<String>), Array(old!["tags"] as! List<String>) + ["seen"],
                               "the old object's copy is as stored")
                guard new!["name"] as! String == "Jane" else { return }
                pets.append(stray!)
                pets.move(from: 0, to: 3)
                migration.delete(pets[0])            // Fido: left out of the list when it is written
                new!["tags"] = ["replaced"]          // the tags handed out before now hold it
                XCTAssertEqual(Array(tags), ["replaced"], "a handle sees the whole property assigned")
                tags.append("kept")
                new!["pets"] = [pets[1], pets[2]]    // Rex and Stray (pets[0] is Fido, deleted)
                XCTAssertEqual(pets.map { $0["name"] as! String }, ["Rex", "Stray"])
                pets.append(pets[0])
            }
        })
        let jane = person(realm, "Jane"), joe = person(realm, "Joe")
        XCTAssertEqual(jane.pets.map(\.name), ["Rex", "Stray", "Rex"])
        XCTAssertEqual(Array(jane.tags), ["replaced", "kept"])
        XCTAssertEqual(joe.pets.map(\.name), ["Spot"], "an unchanged list stays as it was")
        XCTAssertEqual(Array(joe.tags), ["seen"])
        XCTAssertEqual(realm.objects(RmDog1.self).filter("name == 'Fido'").count, 0)
        assertConsistent()
    }

    func testAnUnmanagedObjectSetInTheBlockIsCopiedIn() throws {
        try seedV1()
        let finder = RmPerson1(value: ["name": "Finder", "tags": ["new"]])
        let realm = try Realm(configuration: config(2, Self.v1Types) { migration, _ in
            migration.enumerateObjects(ofType: "RmDog") { _, new in
                let name = new!["name"] as! String
                if name == "Stray" || name == "Spot" { new!["owner"] = finder }
            }
            migration.enumerateObjects(ofType: "RmPerson") { _, new in
                if new!["name"] as! String == "Joe" { new!["pets"] = [RmDog1(value: ["name": "Pup", "ownerName": "Joe"])] }
            }
        })
        XCTAssertEqual(realm.objects(RmDog1.self).filter("name == 'Stray'").first?.owner?.name, "Finder")
        XCTAssertEqual(person(realm, "Finder").dogs.count, 2, "an object set twice is copied in once")
        XCTAssertEqual(Array(person(realm, "Finder").tags), ["new"])
        XCTAssertEqual(person(realm, "Joe").pets.map(\.name), ["Pup"])
        XCTAssertEqual(realm.objects(RmDog1.self).count, 5)
        assertConsistent()
    }

    /// As RealmSwift: `migration.create` gives a link the model's default object (a new one),
    /// and migration objects print as objects do, links and collections nested.
    func testCreateInTheBlockGivesALinkItsDefaultObjectAndObjectsPrintAsObjectsDo() throws {
        try seedV1()
        let printed = RmLog()
        let realm = try Realm(configuration: config(2, Self.v1Types + [RmKennel.self]) { migration, _ in
            printed.lines.append(migration.create("RmKennel").description)
            migration.enumerateObjects(ofType: "RmPerson") { _, new in
                if new!["name"] as! String == "Joe" { printed.lines.append(new!.description) }
            }
        })
        XCTAssertEqual(realm.objects(RmKennel.self).first?.watchdog?.name, "Watchdog")
        XCTAssertEqual(realm.objects(RmDog1.self).count, 5)
        let (kennel, joe) = (printed.lines[0], printed.lines[1])
        XCTAssertEqual(kennel, "RmKennel {\n\tname = kennel;\n\twatchdog = RmDog {\n\t\tname = Watchdog;\n\t\townerName = ;\n\t\towner = (null);\n\t};\n}")
        XCTAssertTrue(joe.hasPrefix("RmPerson {\n\tname = Joe;\n\tpets = List<RmDog> <0x"), joe)
        XCTAssertTrue(joe.contains("(\n\t\t[0] RmDog {\n\t\t\tname = Spot;\n\t\t\townerName = Joe;\n\t\t\towner = RmPerson {"), joe)
        XCTAssertTrue(joe.contains("\ttags = List<string> <0x"), joe)
        assertConsistent()
    }

    func testCreateInTheBlockTakesLinksAndLists() throws {
        try seedV1()
        let realm = try Realm(configuration: config(2, Self.v1Types) { migration, _ in
            var spot: DynamicObject?
            migration.enumerateObjects(ofType: "RmDog") { _, new in
                if new!["name"] as! String == "Spot" { spot = new }
            }
            let ann = migration.create("RmPerson", value: ["name": "Ann", "pets": [spot!, spot!], "tags": ["new"]])
            migration.create("RmDog", value: ["name": "Pup", "ownerName": "Ann", "owner": ann])
            (ann["pets"] as! List<MigrationObject>).append(migration.create("RmDog", value: ["Kit", "Ann", ann]))
        })
        let ann = person(realm, "Ann")
        XCTAssertEqual(ann.pets.map(\.name), ["Spot", "Spot", "Kit"])
        XCTAssertEqual(Array(ann.tags), ["new"])
        XCTAssertEqual(Set(ann.dogs.map(\.name)), ["Pup", "Kit"])
        assertConsistent()
    }

    func testBadLinkAndListValuesFailTheMigrationAndLeaveTheFile() throws {
        try seedV1()
        assertFailsLeavingVersion(1, config(2, Self.v1Types) { migration, _ in
            migration.enumerateObjects(ofType: "RmDog") { _, new in new!["owner"] = "Jane" }
        }, contains: "Invalid value 'Jane' (String) for property 'RmDog.owner' of type '<RmPerson>'")
        assertFailsLeavingVersion(1, config(2, Self.v1Types) { migration, _ in
            migration.enumerateObjects(ofType: "RmDog") { _, new in new!["owner"] = new }
        }, contains: "it links to 'RmPerson' objects, not 'RmDog' objects")
        assertFailsLeavingVersion(1, config(2, Self.v1Types) { migration, _ in
            migration.enumerateObjects(ofType: "RmPerson") { _, new in new!["pets"] = [1, 2] }
        }, contains: "Invalid value '1' (Int) for property 'RmPerson.pets'")
        assertFailsLeavingVersion(1, config(2, Self.v1Types) { migration, _ in
            migration.enumerateObjects(ofType: "RmPerson") { _, new in new!["tags"] = "a" }
        }, contains: "for list 'RmPerson.tags': give an array")
        assertFailsLeavingVersion(1, config(2, Self.v1Types) { migration, _ in
            migration.enumerateObjects(ofType: "RmPerson") { _, new in new!["tags"] = ["a", nil] }
        }, contains: "RmPerson.tags")
        assertFailsLeavingVersion(1, config(2, Self.v1Types) { migration, _ in
            migration.enumerateObjects(ofType: "RmDog") { old, _ in
                if let owner = old!["owner"] as? DynamicObject { owner["name"] = "x" }
            }
        }, contains: "on the old object of a migration")
        let realm = try Realm(configuration: config(1, Self.v1Types))
        XCTAssertEqual(person(realm, "Jane").pets.count, 3)
    }
}
