import Foundation
import XCTest
@testable import Strata

final class D128Item: Object {
    @Persisted var name = ""
    @Persisted var price: Decimal128
    @Persisted var discount: Decimal128?
    @Persisted var prices: List<Decimal128>
    @Persisted var maybePrices: List<Decimal128?>
}

// Two versions of one stored class "D128Price": a double price becomes a decimal.
final class D128PriceV0: Object {
    override class func _realmObjectName() -> String? { "D128Price" }
    @Persisted var price = 0.0
}

final class D128PriceV1: Object {
    override class func _realmObjectName() -> String? { "D128Price" }
    @Persisted var price: Decimal128
    @Persisted var tax: Decimal128?
}

final class D128PriceV2: Object {
    override class func _realmObjectName() -> String? { "D128Price" }
    @Persisted var price: Decimal128
    @Persisted var tax: Decimal128?
    @Persisted var fee: Decimal128
}

/// `Decimal128` through the whole stack: stored and read back from a reopened file, queried,
/// sorted, aggregated exactly, exported and imported by the `strata` executable.
final class Decimal128StackTests: StrataTestCase {
    private static let texts = ["0.1", "0.2", "1.50", "-1.5E10", "9.999999999999999999999999999999999E6144",
                                "-0", "NaN", "Inf", "1E-6176"]
    /// The same numbers as Realm writes them (a lone digit before the point takes an exponent).
    private static let stored = ["1E-1", "2E-1"] + texts.dropFirst(2)

    private func fill(_ realm: Realm) throws {
        try realm.write {
            for (i, text) in Self.texts.enumerated() {
                let item = D128Item()
                item.name = "i\(i)"
                item.price = try Decimal128(string: text)
                item.discount = i % 2 == 0 ? nil : Decimal128(number: NSNumber(value: i))
                realm.add(item)
            }
            let first = realm.objects(D128Item.self).filter("name == 'i0'").first!
            first.prices.append(objectsIn: ["0.1", "0.2", "0.3", "1E-30"])
            first.maybePrices.append(objectsIn: [nil, "2.5", nil])
        }
    }

    func testEveryValueReadsBackExactlyFromAReopenedFile() throws {
        try closingRealms { try fill(try openRealm(types: [D128Item.self])) }
        try closingRealms {
            let realm = try openRealm(types: [D128Item.self])
            let items = realm.objects(D128Item.self).sorted(byKeyPath: "name")
            XCTAssertEqual(items.map(\.price.stringValue), Self.stored)
            XCTAssertEqual(items.map { $0.discount?.stringValue ?? "nil" }, ["nil", "1", "nil", "3", "nil", "5", "nil", "7", "nil"])
            XCTAssertEqual(Array(items[0].prices.map(\.stringValue)), ["1E-1", "2E-1", "3E-1", "1E-30"])
            XCTAssertEqual(Array(items[0].maybePrices.map { $0?.stringValue ?? "nil" }), ["nil", "2.5", "nil"])
            XCTAssertEqual(realm.schema["D128Item"]?.properties.first { $0.name == "price" }?.type, .decimal128)
        }
    }

    func testQueriesCompareByValueWithLiteralsArgumentsAndTheTypedForm() throws {
        let realm = try openRealm(types: [D128Item.self])
        try fill(realm)
        let items = realm.objects(D128Item.self)
        func names(_ results: Results<D128Item>) -> [String] { results.map(\.name).sorted() }
        XCTAssertEqual(names(items.filter("price > 1.5")), ["i4", "i7"])
        XCTAssertEqual(names(items.filter("price >= 1.5")), ["i2", "i4", "i7"])
        XCTAssertEqual(names(items.filter("price == 1.5")), ["i2"])
        XCTAssertEqual(names(items.filter("price == %@", Decimal128(value: "0.10"))), ["i0"])
        XCTAssertEqual(names(items.filter("price == '0.2'")), ["i1"])
        XCTAssertEqual(names(items.filter("price < 0")), ["i3"])
        XCTAssertEqual(names(items.filter("price == 0")), ["i5"])
        XCTAssertEqual(names(items.filter("price BETWEEN {0.1, 0.2}")), ["i0", "i1"])
        XCTAssertEqual(names(items.filter("price IN {0.2, 1.50}")), ["i1", "i2"])
        XCTAssertEqual(names(items.filter("discount == nil")), ["i0", "i2", "i4", "i6", "i8"])
        XCTAssertEqual(names(items.filter("discount > 4")), ["i5", "i7"])
        XCTAssertEqual(names(items.filter("price == %@", Decimal128(value: NSNull()))), [], "NaN equals nothing")
        XCTAssertEqual(names(items.filter("ANY prices == 0.3")), ["i0"])
        XCTAssertEqual(names(items.filter("prices.@sum == %@", Decimal128(value: "0.600000000000000000000000000001"))), ["i0"])
        XCTAssertEqual(names(items.filter("prices.@sum > 0.6")), ["i0"])
        // A literal of more than 15 digits keeps every digit.
        XCTAssertEqual(names(items.filter("prices.@sum == 0.600000000000000000000000000001")), ["i0"])
        XCTAssertEqual(names(items.filter("price < 0.1000000000000000000000000000001")), ["i0", "i3", "i5", "i8"])
        XCTAssertEqual(names(items.filter("price < -14999999999.9999999999999999999")), ["i3"])
        XCTAssertEqual(names(items.filter("price >= -15000000000.00000000000000000 AND price < 0")), ["i3"])
        XCTAssertEqual(names(items.where { $0.price > 1.5 && $0.price <= Decimal128.max }), ["i4"])
        XCTAssertEqual(names(items.where { $0.discount == nil || $0.discount <= 1 }), ["i0", "i1", "i2", "i4", "i6", "i8"])
    }

    func testBadDecimalTextInAQueryOrAValueIsAClearError() throws {
        let realm = try openRealm(types: [D128Item.self])
        XCTAssertThrowsError(try realm.objects(D128Item.self).filtered("price == 'abc'", [])) { error in
            XCTAssertTrue("\(error)".contains("cannot compare 'price' (decimal128)"), "\(error)")
        }
        XCTAssertThrowsError(try realm.write { _ = try realm.throwingCreate(D128Item.self, value: ["price": "1.2.3"]) }) { error in
            XCTAssertTrue("\(error)".contains("Invalid value '1.2.3' (String) for property 'D128Item.price' of type decimal128"), "\(error)")
        }
        XCTAssertEqual(realm.objects(D128Item.self).count, 0)
    }

    func testSortingPutsNaNFirstAndOrdersAcrossExponents() throws {
        let realm = try openRealm(types: [D128Item.self])
        try fill(realm)
        let sorted = realm.objects(D128Item.self).sorted(byKeyPath: "price")
        XCTAssertEqual(sorted.map(\.price.stringValue),
                       ["NaN", "-1.5E10", "-0", "1E-6176", "1E-1", "2E-1", "1.50", "9.999999999999999999999999999999999E6144", "Inf"])
        let descending = realm.objects(D128Item.self).sorted(byKeyPath: "discount", ascending: false)
        XCTAssertEqual(descending.prefix(4).map { $0.discount?.stringValue ?? "nil" }, ["7", "5", "3", "1"])
    }

    func testSumAverageMinAndMaxAreExactDecimals() throws {
        let realm = try openRealm(types: [D128Item.self])
        try realm.write {
            for text in ["0.1", "0.2", "0.3"] { realm.create(D128Item.self, value: ["price": text, "discount": text]) }
            realm.create(D128Item.self, value: ["price": 1, "discount": NSNull()])
        }
        let items = realm.objects(D128Item.self)
        let sum: Decimal128 = items.sum(ofProperty: "price")
        XCTAssertEqual(sum.stringValue, "1.6")
        XCTAssertEqual((items.average(ofProperty: "price") as Decimal128?)?.stringValue, "4E-1")
        XCTAssertEqual((items.average(ofProperty: "discount") as Decimal128?)?.stringValue, "2E-1")
        XCTAssertEqual((items.min(ofProperty: "price") as Decimal128?)?.stringValue, "1E-1")
        XCTAssertEqual((items.max(ofProperty: "price") as Decimal128?)?.stringValue, "1")
        let none = items.filter("price > 100")
        XCTAssertEqual((none.sum(ofProperty: "price") as Decimal128).stringValue, "0")
        XCTAssertNil(none.average(ofProperty: "price") as Decimal128?)
        XCTAssertNil(none.max(ofProperty: "price") as Decimal128?)

        try realm.write { items[0].prices.append(objectsIn: ["0.1", "0.2", "1E+3", "-5"]) }
        let prices = items[0].prices
        XCTAssertEqual(prices.sum().stringValue, "995.3")
        XCTAssertEqual((prices.average() as Decimal128?)?.stringValue, "248.825")
        XCTAssertEqual(prices.average() as Double?, 248.825)
        XCTAssertEqual(items.average(ofProperty: "price") as Double?, 0.4)
        XCTAssertEqual(prices.min()?.stringValue, "-5")
        XCTAssertEqual(prices.max()?.stringValue, "1E3")
    }

    func testAMigrationTurnsADoublePropertyIntoADecimalOne() throws {
        func config(_ version: UInt64, _ type: ObjectBase.Type, block: MigrationBlock? = nil) -> Realm.Configuration {
            Realm.Configuration(fileURL: fileURL(), schemaVersion: version, migrationBlock: block, objectTypes: [type])
        }
        try closingRealms {
            let realm = try Realm(configuration: config(0, D128PriceV0.self))
            try realm.write { for price in [0.1, 2.5, 1e20] { realm.create(D128PriceV0.self, value: ["price": price]) } }
        }
        try closingRealms {
            let realm = try Realm(configuration: config(1, D128PriceV1.self) { migration, _ in
                migration.enumerateObjects(ofType: "D128Price") { old, new in
                    new!["price"] = Decimal128(value: old!["price"] as! Double)
                }
            })
            let prices = realm.objects(D128PriceV1.self).sorted(byKeyPath: "price")
            XCTAssertEqual(prices.map(\.price.stringValue), ["1.00000000000000E-1", "2.5", "1E20"])
            XCTAssertEqual(prices.map(\.tax), [nil, nil, nil])
            XCTAssertEqual(prices[0].price, Decimal128(value: "0.1"))
        }
        // Rows written before `fee` existed read it, and match queries, as 0.
        let realm = try Realm(configuration: config(2, D128PriceV2.self))
        let all = realm.objects(D128PriceV2.self)
        XCTAssertEqual(all.map(\.fee.stringValue), ["0", "0", "0"])
        XCTAssertEqual(all.filter("fee == 0").count, 3)
        XCTAssertEqual(all.filter("fee > -1 AND fee < 1E-6176").count, 3, "1E-6176 is below a double's range")
        XCTAssertEqual(all.filter("fee != 0 OR fee > 0").count, 0)
        XCTAssertEqual(all.filter("tax == nil").count, 3)
    }

    func testStrataQueryFiltersAndPrintsDecimalsAsTheirText() throws {
        try closingRealms { try fill(try openRealm(types: [D128Item.self])) }
        let file = fileURL().path
        let table = try strata(["query", file, "D128Item", "price > %@ AND price < 1E7000", "1.5", "--sort", "price"])
        XCTAssertEqual(table.process.terminationStatus, 0, table.transcript)
        XCTAssertTrue(table.lines.contains { $0.contains("i4") && $0.contains("9.99999999999999999999") },
                      table.transcript)
        XCTAssertEqual(table.lines.last, "(1 object of D128Item)", table.transcript)
        let json = try strata(["query", file, "D128Item", "name == 'i2'", "--json"])
        XCTAssertEqual(json.process.terminationStatus, 0, json.transcript)
        XCTAssertTrue(json.lines.first?.contains(#""price":"1.50""#) ?? false, json.transcript)
    }

    func testExportThenImportRoundTripsEveryDecimalExactly() throws {
        try closingRealms { try fill(try openRealm("source.strata", types: [D128Item.self])) }
        try closingRealms { _ = try openRealm("copy.strata", types: [D128Item.self]) }
        let copy = fileURL("copy.strata").path
        let exported = try assertExportImportRoundTrip(fileURL("source.strata").path, into: "copy.strata")
        XCTAssertTrue(exported.lines.contains { $0.contains(#""price":"9.999999999999999999999999999999999E6144""#) }, exported.transcript)
        XCTAssertTrue(exported.lines.contains { $0.contains(#""prices":["1E-1","2E-1","3E-1","1E-30"]"#) }, exported.transcript)

        let badLine = fileURL("bad.jsonl").path
        let line = try XCTUnwrap(exported.lines.first { $0.contains(#""price":"1E-1""#) })
        try (line.replacingOccurrences(of: #""price":"1E-1""#, with: #""price":"1E-1x""#) + "\n")
            .write(toFile: badLine, atomically: true, encoding: .utf8)
        let refused = try strata(["import", copy, badLine])
        XCTAssertNotEqual(refused.process.terminationStatus, 0)
        XCTAssertTrue(refused.errorOutput.contains("D128Item.price: expected a decimal number"), refused.transcript)
    }
}
