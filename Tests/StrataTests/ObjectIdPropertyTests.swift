import Foundation
import XCTest
@testable import Strata

/// A class keyed by an `ObjectId`, with an indexed, an optional and list `ObjectId` properties.
final class OIDTicket: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted(indexed: true) var ref: ObjectId
    @Persisted var parent: ObjectId?
    @Persisted var seen: List<ObjectId>
    @Persisted var maybe: List<ObjectId?>
    @Persisted var title = ""
}

/// `ObjectId` properties through the whole stack: defaults, primary keys, indexes,
/// optionals, lists, both query forms, sorting and a reopened file.
final class ObjectIdPropertyTests: StrataTestCase {
    private let a = ObjectId("000000010000000000000001")
    private let b = ObjectId("000000020000000000000002")
    private let c = ObjectId("6f0000000000000000ffffff")

    private func ticket(_ id: ObjectId, ref: ObjectId, parent: ObjectId? = nil, title: String) -> OIDTicket {
        let t = OIDTicket()
        t._id = id
        t.ref = ref
        t.parent = parent
        t.title = title
        return t
    }

    private func fill(_ realm: Realm) throws {
        try realm.write {
            realm.add(ticket(a, ref: c, title: "a"))
            let second = ticket(b, ref: a, parent: a, title: "b")
            second.seen.append(objectsIn: [a, c])
            second.maybe.append(objectsIn: [nil, b])
            realm.add(second)
            realm.add(ticket(c, ref: b, parent: b, title: "c"))
        }
    }

    func testAnUndeclaredObjectIdStartsAsANewIdentifierForEachObject() {
        let before = Date().timeIntervalSince1970.rounded(.down)
        let x = OIDTicket(), y = OIDTicket()
        XCTAssertNotEqual(x._id, y._id)
        XCTAssertNotEqual(x._id, ObjectId())
        XCTAssertGreaterThanOrEqual(x._id.timestamp.timeIntervalSince1970, before)
        XCTAssertNil(x.parent)
    }

    func testValuesReadBackAfterTheFileIsReopened() throws {
        try closingRealms { try fill(try openRealm(types: [OIDTicket.self])) }
        try closingRealms {
            let realm = try openRealm(types: [OIDTicket.self])
            let second = try XCTUnwrap(realm.object(ofType: OIDTicket.self, forPrimaryKey: b))
            XCTAssertEqual(second.ref, a)
            XCTAssertEqual(second.parent, a)
            XCTAssertEqual(Array(second.seen), [a, c])
            XCTAssertEqual(Array(second.maybe), [nil, b])
            XCTAssertNil(realm.object(ofType: OIDTicket.self, forPrimaryKey: ObjectId())?.title)
            XCTAssertEqual(realm.object(ofType: OIDTicket.self, forPrimaryKey: a)?.parent, nil)
            XCTAssertEqual(realm.schema["OIDTicket"]?.properties.first?.type, .objectId)
        }
    }

    func testADuplicatePrimaryKeyIsRefusedAndNothingIsAdded() throws {
        let realm = try openRealm(types: [OIDTicket.self])
        try fill(realm)
        realm.beginWrite()
        XCTAssertThrowsError(try realm.throwingAdd(ticket(b, ref: b, title: "again"))) { error in
            let error = error as! Realm.Error
            XCTAssertEqual(error.code, .invalidInput)
            XCTAssertTrue(error.localizedDescription.contains(b.stringValue), error.localizedDescription)
        }
        realm.cancelWrite()
        XCTAssertEqual(realm.objects(OIDTicket.self).count, 3)
        XCTAssertEqual(realm.object(ofType: OIDTicket.self, forPrimaryKey: b)?.title, "b")
    }

    func testStringQueriesTakeOidLiteralsArgumentsAndStrings() throws {
        let realm = try openRealm(types: [OIDTicket.self])
        try fill(realm)
        let tickets = realm.objects(OIDTicket.self)
        func titles(_ query: String, _ args: Any...) throws -> [String] {
            try tickets.throwingFilter(query, args).sorted(byKeyPath: "title").map(\.title)
        }
        XCTAssertEqual(try titles("_id == oid(\(b.stringValue))"), ["b"])
        XCTAssertEqual(try titles("ref == %@", a), ["b"])
        XCTAssertEqual(try titles("ref == %@", a.stringValue), ["b"], "a string argument reads as an ObjectId")
        XCTAssertEqual(try titles("ref IN %@", [a, b]), ["b", "c"])
        XCTAssertEqual(try titles("_id > %@", a), ["b", "c"])
        XCTAssertEqual(try titles("ref BETWEEN {%@, %@}", a, b), ["b", "c"])
        XCTAssertEqual(try titles("parent == nil"), ["a"])
        XCTAssertEqual(try titles("parent != nil AND parent < oid(000000020000000000000002)"), ["b"])
        XCTAssertEqual(try titles("ANY seen == %@", c), ["b"])
        XCTAssertEqual(try titles("maybe.@count == 2"), ["b"])
        XCTAssertEqual(tickets.sorted(byKeyPath: "ref").map(\.title), ["b", "c", "a"])
        XCTAssertEqual(tickets.sorted(byKeyPath: "parent", ascending: false).map(\.title), ["c", "b", "a"])
    }

    func testEqualityOnTheIndexAndThePrimaryKeyUsesThem() throws {
        let realm = try openRealm(types: [OIDTicket.self])
        try fill(realm)
        let tickets = realm.objects(OIDTicket.self)
        XCTAssertTrue(tickets.filter("ref == %@", a).explain().hasPrefix("index lookup on OIDTicket.ref"),
                      tickets.filter("ref == %@", a).explain())
        XCTAssertTrue(tickets.filter("ref > %@", a).explain().hasPrefix("index range on OIDTicket.ref"),
                      tickets.filter("ref > %@", a).explain())
        XCTAssertFalse(tickets.filter("_id == %@", c).explain().hasPrefix("scan"), tickets.filter("_id == %@", c).explain())
        XCTAssertEqual(tickets.filter("ref == %@", a).map(\.title), ["b"])
    }

    func testBadObjectIdTextInAQueryIsAClearError() throws {
        let realm = try openRealm(types: [OIDTicket.self])
        let tickets = realm.objects(OIDTicket.self)
        XCTAssertThrowsError(try tickets.throwingFilter("_id == oid(12345)")) { error in
            XCTAssertTrue("\(error)".contains("'12345' is not a valid ObjectId"), "\(error)")
        }
        XCTAssertThrowsError(try tickets.throwingFilter("_id == oid(000000010000000000000001")) { error in
            XCTAssertTrue("\(error)".contains("expected ')' to close oid("), "\(error)")
        }
        XCTAssertThrowsError(try tickets.throwingFilter("ref == %@", "not an id")) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
        }
        XCTAssertThrowsError(try tickets.throwingFilter("title == %@", a)) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidInput)
        }
    }

    func testTypeSafeQueriesCompareObjectIds() throws {
        let realm = try openRealm(types: [OIDTicket.self])
        try fill(realm)
        let tickets = realm.objects(OIDTicket.self)
        let b = self.b, c = self.c
        XCTAssertEqual(tickets.where { $0._id == b }.map(\.title), ["b"])
        XCTAssertEqual(tickets.where { $0.parent == nil }.map(\.title), ["a"])
        XCTAssertEqual(tickets.where { $0.parent != b && $0.parent != nil }.map(\.title), ["b"])
        XCTAssertEqual(tickets.where { $0.seen.contains(c) }.map(\.title), ["b"])
        XCTAssertEqual(tickets.where { $0.ref.in([b, c]) }.sorted(byKeyPath: "title").map(\.title), ["a", "c"])
    }

    func testCreateAndDynamicValuesTakeObjectIdsOrTheirStrings() throws {
        let realm = try openRealm(types: [OIDTicket.self])
        try realm.write {
            realm.create(OIDTicket.self, value: ["_id": a, "ref": b.stringValue, "parent": NSNull(), "seen": [c.stringValue]])
        }
        let made = try XCTUnwrap(realm.object(ofType: OIDTicket.self, forPrimaryKey: a))
        XCTAssertEqual(made.ref, b)
        XCTAssertEqual(Array(made.seen), [c])
        XCTAssertEqual(made.value(forKey: "ref") as? ObjectId, b)
        realm.beginWrite()
        XCTAssertThrowsError(try realm.throwingCreate(OIDTicket.self, value: ["_id": "xyz"])) { error in
            let text = (error as? Realm.Error)?.localizedDescription ?? "\(error)"
            XCTAssertTrue(text.contains("'OIDTicket._id' of type objectId"), text)
        }
        realm.cancelWrite()
    }
}
