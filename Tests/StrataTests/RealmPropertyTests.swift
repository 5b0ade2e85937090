import Foundation
import XCTest
@testable import Strata

/// A model in the older style: optional values in `RealmProperty` and `RealmOptional` boxes.
final class RPPerson: Object {
    @Persisted(primaryKey: true) var name = ""
    let age = RealmProperty<Int?>()
    let height = RealmProperty<Double?>()
    let size = RealmProperty<MVKind?>()
    let note = RealmProperty<AnyRealmValue>()
    @available(*, deprecated)
    let legacyFlag = RealmOptional<Bool>()
    @available(*, deprecated)
    let legacyCount = RealmOptional<Int16>(7)
}

/// An enum in RealmSwift's older form (`RealmEnum`, no `CaseIterable` declared).
enum RPLegacyKind: Int, RealmEnum, Codable { case one = 1, three = 3 }

final class RPLegacyHolder: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var kind = RPLegacyKind.three
    let optionalKind = RealmProperty<RPLegacyKind?>()
    @available(*, deprecated)
    let legacyKind = RealmOptional<RPLegacyKind>()
}

/// `RealmProperty<T?>` and `RealmOptional<T>`: discovered without `@Persisted`, nil by
/// default, stored once the object is managed, and queried by name. (`RealmOptional` is
/// deprecated, so it is reached here through subscripts, which share its box's paths.)
final class RealmPropertyTests: StrataTestCase {
    func testBoxedPropertiesAreStoredOptionalsOfTheirType() throws {
        let realm = try openRealm(types: [RPPerson.self])
        let properties = try XCTUnwrap(realm.schema["RPPerson"]).properties
        XCTAssertEqual(properties.map(\.name), ["name", "age", "height", "size", "note", "legacyFlag", "legacyCount"])
        XCTAssertEqual(properties.map(\.type), [.string, .int, .double, .int, .any, .bool, .int])
    }

    func testUnmanagedValuesAreKeptAndAddedWithTheObject() throws {
        let person = RPPerson()
        XCTAssertNil(person.age.value)
        XCTAssertEqual(person["legacyCount"] as? Int16, 7)
        person.name = "Ann"
        person.age.value = 41
        person.size.value = .large
        XCTAssertEqual(person.note.value, .none)
        person.note.value = .string("tall")
        person["legacyFlag"] = true
        try closingRealms {
            let realm = try openRealm(types: [RPPerson.self])
            try realm.write { realm.add(person) }
            XCTAssertEqual(person.age.value, 41)
            try realm.write {
                person.age.value = nil
                person.height.value = 1.75
            }
        }
        try closingRealms {
            let realm = try openRealm(types: [RPPerson.self])
            let ann = try XCTUnwrap(realm.object(ofType: RPPerson.self, forPrimaryKey: "Ann"))
            XCTAssertNil(ann.age.value)
            XCTAssertEqual(ann.height.value, 1.75)
            XCTAssertEqual(ann.size.value, .large)
            XCTAssertEqual(ann.note.value, .string("tall"))
            try realm.write { ann.note.value = .int(5) }
            XCTAssertEqual(ann.note.value, .int(5))
            XCTAssertEqual(ann["legacyFlag"] as? Bool, true)
            XCTAssertEqual(ann["legacyCount"] as? Int16, 7)
            try realm.write { ann["legacyCount"] = nil }
            XCTAssertNil(ann["legacyCount"] as? Int16)
        }
    }

    func testManagedBoxesReadTheirOwnObjectsAndAreQueriedByName() throws {
        let realm = try openRealm(types: [RPPerson.self])
        try realm.write {
            realm.create(RPPerson.self, value: ["name": "Ann", "age": 41, "size": MVKind.small])
            realm.create(RPPerson.self, value: ["name": "Bob", "age": 7])
            realm.create(RPPerson.self, value: ["name": "Cy"])
        }
        let people = realm.objects(RPPerson.self)
        XCTAssertEqual(people.sorted(byKeyPath: "name").map { $0.age.value }, [41, 7, nil])
        let owners = Array(people.sorted(byKeyPath: "name"))
        XCTAssertEqual(owners.map(\.age).map(\.value), [41, 7, nil], "each box reads its own object")
        XCTAssertEqual(people.filter("age > 10").map(\.name), ["Ann"])
        XCTAssertEqual(people.filter("age == nil").map(\.name), ["Cy"])
        XCTAssertEqual(people.filter("size == %@", MVKind.small).map(\.name), ["Ann"])
        XCTAssertEqual(people.sorted(byKeyPath: "age", ascending: false).map(\.name), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(people.max(ofProperty: "age") as Int?, 41)
        let bob = try XCTUnwrap(realm.object(ofType: RPPerson.self, forPrimaryKey: "Bob"))
        XCTAssertEqual(bob["age"] as? Int, 7)
        realm.beginWrite()
        XCTAssertThrowsError(try realm.throwingCreate(RPPerson.self, value: ["name": "Dee", "age": "old"])) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
        }
        realm.cancelWrite()
    }

    func testAKeyPathToABoxNamesItsProperty() {
        XCTAssertEqual(_name(for: \RPPerson.age), "age")
        XCTAssertEqual(_name(for: \RPPerson.note), "note")
    }

    func testRealmEnumsAreStoredAsTheirRawValues() throws {
        let realm = try openRealm(types: [RPLegacyHolder.self])
        let properties = try XCTUnwrap(realm.schema["RPLegacyHolder"]).properties
        XCTAssertEqual(properties.map(\.type), [.int, .int, .int, .int])
        XCTAssertEqual(properties.map(\.isOptional), [false, false, true, true])
        try realm.write {
            realm.create(RPLegacyHolder.self, value: ["id": 1])
            let second = realm.create(RPLegacyHolder.self, value: ["id": 2, "kind": RPLegacyKind.one])
            second.optionalKind.value = .three
            second["legacyKind"] = RPLegacyKind.one
        }
        let first = try XCTUnwrap(realm.object(ofType: RPLegacyHolder.self, forPrimaryKey: 1))
        XCTAssertEqual(first.kind, .three)
        XCTAssertNil(first.optionalKind.value)
        let second = try XCTUnwrap(realm.object(ofType: RPLegacyHolder.self, forPrimaryKey: 2))
        XCTAssertEqual(second.kind, .one)
        XCTAssertEqual(second.optionalKind.value, .three)
        XCTAssertEqual(second["legacyKind"] as? Int, 1, "key-value coding reads the raw value")
        XCTAssertEqual(realm.objects(RPLegacyHolder.self).filter("kind == %@", RPLegacyKind.one).map(\.id), [2])
        XCTAssertEqual(realm.objects(RPLegacyHolder.self).filter("optionalKind == 3").map(\.id), [2])
        XCTAssertEqual(realm.objects(RPLegacyHolder.self).where { $0.kind == .three }.map(\.id), [1])
    }

    func testABoxOutlivingItsAccessorReadsAndWritesItsObject() throws {
        let realm = try openRealm(types: [RPPerson.self])
        try realm.write { realm.create(RPPerson.self, value: ["name": "Ann", "age": 41]) }
        let age = try XCTUnwrap(realm.object(ofType: RPPerson.self, forPrimaryKey: "Ann")).age
        XCTAssertEqual(age.value, 41)
        try realm.write { realm.objects(RPPerson.self).first!.age.value = 42 }
        XCTAssertEqual(age.value, 42)
        XCTAssertEqual(realm.objects(RPPerson.self).first!.age.value, 42)
    }
}
