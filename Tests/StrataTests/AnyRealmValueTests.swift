import Foundation
import XCTest
import Strata

/// An object holding a mixed value and a list of them.
final class MixedHolder: Object {
    @Persisted var name = ""
    @Persisted var value: AnyRealmValue
    @Persisted(indexed: true) var key: AnyRealmValue
    @Persisted var values: List<AnyRealmValue>
}

// Two versions of one stored class "MixedSetting": a mixed property and a list of them added.
final class MixedSettingV0: Object {
    override class func _realmObjectName() -> String? { "MixedSetting" }
    @Persisted var count = 0
}

final class MixedSettingV1: Object {
    override class func _realmObjectName() -> String? { "MixedSetting" }
    @Persisted var count = 0
    @Persisted var value: AnyRealmValue
    @Persisted var history: List<AnyRealmValue>
}

/// `AnyRealmValue` through the stack: every kind stored and read back from a reopened file,
/// queries across numeric kinds, `strata export` → `strata import`.
final class AnyRealmValueTests: StrataTestCase {
    private static let kinds: [AnyRealmValue] = [
        .none, .int(-5), .int(Int.max), .bool(true), .float(2.5), .double(1.0), .string("1"), .string(""),
        .data(Data([0, 1, 255])), .date(Date(timeIntervalSinceReferenceDate: 12.5)), .objectId(ObjectId("5f5e10000a0b0c0102000001")),
        .decimal128(Decimal128(number: 7)), .uuid(UUID(uuidString: "3A2B1C4D-0000-4000-8000-0000000000AB")!),
    ]

    private func fill(_ name: String = "test.strata") throws {
        try closingRealms {
            let realm = try openRealm(name, types: [MixedHolder.self])
            try realm.write {
                for (i, kind) in Self.kinds.enumerated() {
                    let holder = MixedHolder()
                    holder.name = "h\(String(format: "%02d", i))"
                    holder.value = kind
                    holder.key = kind
                    realm.add(holder)
                }
                realm.create(MixedHolder.self, value: ["name": "list", "value": 3, "values": [AnyRealmValue.int(1), .none, .string("a"), .double(2)]])
            }
        }
    }

    func testEveryKindReadsBackFromAReopenedFile() throws {
        try fill()
        try closingRealms {
            let realm = try openRealm(types: [MixedHolder.self])
            let holders = realm.objects(MixedHolder.self).filter("name BEGINSWITH 'h'").sorted(byKeyPath: "name")
            XCTAssertEqual(holders.map(\.value), Self.kinds)
            let list = try XCTUnwrap(realm.objects(MixedHolder.self).filter("name == 'list'").first)
            XCTAssertEqual(list.value, .int(3))
            XCTAssertEqual(Array(list.values), [.int(1), .none, .string("a"), .double(2)])
            try realm.write {
                list.value = .string("changed")
                list.values[1] = .bool(false)
            }
            XCTAssertEqual(list.value.stringValue, "changed")
            XCTAssertEqual(list.values[1].boolValue, false)
        }
    }

    func testAccessorsAnswerOnlyForTheirKind() {
        XCTAssertEqual(AnyRealmValue.int(4).intValue, 4)
        XCTAssertNil(AnyRealmValue.int(4).doubleValue)
        XCTAssertNil(AnyRealmValue.none.stringValue)
        XCTAssertEqual(AnyRealmValue.decimal128(Decimal128(number: 2)).decimal128Value, Decimal128(number: 2))
        XCTAssertNotEqual(AnyRealmValue.int(1), .double(1))
        let dog = MixedHolder()
        XCTAssertTrue(AnyRealmValue.object(dog).object(MixedHolder.self) === dog)
        XCTAssertNil(AnyRealmValue.int(1).object(MixedHolder.self))
    }

    func testQueriesCompareNumbersOfEveryKindByValueAndNeverAStringWithANumber() throws {
        try fill()
        try closingRealms {
            let realm = try openRealm(types: [MixedHolder.self])
            func names(_ query: String, _ args: Any...) -> [String] {
                realm.objects(MixedHolder.self).filter(query, args).sorted(byKeyPath: "name").map(\.name)
            }
            // 1.0 (double) and 1 as arguments of any kind; "1" the string is never a number.
            XCTAssertEqual(names("value == 1"), ["h05"])
            XCTAssertEqual(names("value == %@", 1.0), ["h05"])
            XCTAssertEqual(names("value == %@", AnyRealmValue.int(1)), ["h05"])
            XCTAssertEqual(names("value == '1'"), ["h06"])
            XCTAssertEqual(names("value == nil"), ["h00"])
            XCTAssertEqual(names("value > 2 AND value < 8"), ["h04", "h11", "list"])
            XCTAssertEqual(names("value == %@", Decimal128(number: 7)), ["h11"])
            XCTAssertEqual(names("ANY values == 'a'"), ["list"])
            XCTAssertEqual(names("ANY values == 2"), ["list"])
            XCTAssertEqual(names("value == 12.5"), [])
            XCTAssertEqual(realm.objects(MixedHolder.self).where { $0.value == .int(1) }.map(\.name), ["h05"])
            XCTAssertEqual(realm.objects(MixedHolder.self).where { $0.value > .float(2) && $0.value < .double(3) }.map(\.name), ["h04"])
        }
    }

    func testAnIndexedMixedPropertyFindsEveryNumericKindAndNothingElse() throws {
        try fill()
        try closingRealms {
            let realm = try openRealm(types: [MixedHolder.self])
            func names(_ query: String, _ args: Any...) -> [String] {
                realm.objects(MixedHolder.self).filter(query, args).sorted(byKeyPath: "name").map(\.name)
            }
            XCTAssertEqual(names("key == 1"), ["h05"])
            let plan = realm.objects(MixedHolder.self).filter("key == 1").explain()
            XCTAssertTrue(plan.hasPrefix("index lookup on MixedHolder.key"), plan)
            XCTAssertEqual(names("key == %@", Decimal128(number: 1)), ["h05"])
            XCTAssertEqual(names("key == 2.5"), ["h04"])
            XCTAssertEqual(names("key == 7"), ["h11"])
            XCTAssertEqual(names("key IN {1, '1', -5, 'none'}"), ["h01", "h05", "h06"])
            XCTAssertEqual(names("key == %@", Data([0, 1, 255])), ["h08"])
            XCTAssertEqual(names("key == %@", Int.max), ["h02"])
            try realm.write { realm.objects(MixedHolder.self).filter("key == 1").first!.key = .string("one") }
            XCTAssertEqual(names("key == 1"), [])
            XCTAssertEqual(names("key == 'one'"), ["h05"])
        }
    }

    func testSortingOrdersNoneThenBoolsThenNumbersByValueThenOtherKinds() throws {
        try fill()
        try closingRealms {
            let realm = try openRealm(types: [MixedHolder.self])
            let sorted = realm.objects(MixedHolder.self).sorted(byKeyPath: "value").map(\.value)
            XCTAssertEqual(Array(sorted.prefix(8)), [.none, .bool(true), .int(-5), .double(1), .float(2.5), .int(3), .decimal128(Decimal128(number: 7)), .int(Int.max)])
            XCTAssertEqual(sorted[8], .date(Date(timeIntervalSinceReferenceDate: 12.5)))
            XCTAssertEqual(Array(sorted[9...11]), [.string(""), .data(Data([0, 1, 255])), .string("1")],
                           "strings and data by their bytes against each other, as realm-core orders them")
        }
    }

    func testAMigrationAddsMixedPropertiesThatOldRowsReadAsNoneAndTheBlockSets() throws {
        func config(_ version: UInt64, _ type: ObjectBase.Type, block: MigrationBlock? = nil) -> Realm.Configuration {
            Realm.Configuration(fileURL: fileURL(), schemaVersion: version, migrationBlock: block, objectTypes: [type])
        }
        try closingRealms {
            let realm = try Realm(configuration: config(0, MixedSettingV0.self))
            try realm.write { for count in [1, 2] { realm.create(MixedSettingV0.self, value: ["count": count]) } }
        }
        try closingRealms {
            let realm = try Realm(configuration: config(1, MixedSettingV1.self) { migration, _ in
                migration.enumerateObjects(ofType: "MixedSetting") { old, new in
                    if old!["count"] as! Int == 2 { new!["value"] = "two" }
                }
            })
            let settings = realm.objects(MixedSettingV1.self).sorted(byKeyPath: "count")
            XCTAssertEqual(settings.map(\.value), [.none, .string("two")])
            XCTAssertEqual(settings.map(\.history.count), [0, 0])
            XCTAssertEqual(realm.objects(MixedSettingV1.self).filter("value == nil").count, 1)
        }
    }

    func testExportThenImportRoundTripsEveryKindExactly() throws {
        try fill()
        let export = try assertExportImportRoundTrip(fileURL("test.strata").path, into: "copy.strata")
        XCTAssertTrue(export.lines.contains { $0.contains("\"value\":{\"type\":\"string\",\"value\":\"1\"}") }, export.transcript)
        XCTAssertTrue(export.lines.contains { $0.contains("\"values\":[{\"type\":\"int\",\"value\":1},null,") }, export.transcript)

        let broken = export.lines.map { $0.replacingOccurrences(of: "{\"type\":\"string\",", with: "{\"type\":\"text\",") }
        let refused = try strataImport(broken, into: "bad.strata")
        XCTAssertEqual(refused.process.terminationStatus, 1, refused.transcript)
        XCTAssertTrue(refused.errorOutput.contains("MixedHolder.value: 'text' is not a kind of mixed value"), refused.transcript)
    }
}
