import Foundation
import StrataTestSupport
import XCTest
import Strata

final class DFMoment: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var at = Date(timeIntervalSince1970: 0)
    @Persisted var more: List<Date>
}

/// One date format in every JSON `strata` writes (`query --json`, `export`, `log --json`):
/// ISO 8601 in UTC with the fraction digits a date needs to be read back exactly.
final class DateFormatCLITests: StrataTestCase {
    /// Dates at the edges of the format, in `more` of moment 1, each with its text.
    private static let edges: [(Date, String)] = [
        (Date(timeIntervalSinceReferenceDate: 0), "\"2001-01-01T00:00:00.000Z\""),
        (Date(timeIntervalSinceReferenceDate: 1e-10), "\"2001-01-01T00:00:00.0000000001Z\""),
        (Date(timeIntervalSinceReferenceDate: -0.5), "\"2000-12-31T23:59:59.500Z\""),
        (Date(timeIntervalSinceReferenceDate: 621_692_800.000_000_1), "\"2020-09-13T12:26:40.0000001Z\""),
        (Date(timeIntervalSince1970: -1e9 + 0.000_001), "\"1938-04-24T22:13:20.000001Z\""),
        (Date(timeIntervalSinceReferenceDate: -63_113_904_000), "\"0001-01-01T00:00:00.000Z\""),
        (Date(timeIntervalSinceReferenceDate: 252_423_993_599.5), "\"9999-12-31T23:59:59.500Z\""),
        // ISO 8601 cannot hold these exactly: seconds since 2001-01-01, as a number.
        (Date(timeIntervalSinceReferenceDate: .leastNonzeroMagnitude), "5e-324"),
        (Date(timeIntervalSinceReferenceDate: 252_423_993_600), "252423993600.0"),
        (Date(timeIntervalSinceReferenceDate: -63_113_904_001), "-63113904001.0"),
    ]

    private func makeFile() throws -> String {
        try closingRealms {
            let realm = try openRealm(types: [DFMoment.self])
            try realm.write(withDescription: "moments") {
                let moment = realm.create(DFMoment.self, value: ["id": 1, "at": Date(timeIntervalSince1970: 1_796_000_000.25)])
                moment.more.append(objectsIn: Self.edges.map(\.0))
            }
        }
        return fileURL().path
    }

    func testExportWritesEachDateExactlyAndImportReadsItBack() throws {
        let file = try makeFile()
        let export = try assertExportImportRoundTrip(file, into: "copy.strata")
        let line = try XCTUnwrap(export.lines.last)
        XCTAssertTrue(line.contains("\"at\":\"2026-11-30T00:53:20.250Z\""), line)
        XCTAssertTrue(line.contains("\"more\":[" + Self.edges.map(\.1).joined(separator: ",") + "]"), line)
        try closingRealms {
            let copy = try openRealm("copy.strata", types: [DFMoment.self])
            let moment = try XCTUnwrap(copy.object(ofType: DFMoment.self, forPrimaryKey: 1))
            XCTAssertEqual(moment.more.map(\.timeIntervalSinceReferenceDate.bitPattern),
                           Self.edges.map(\.0.timeIntervalSinceReferenceDate.bitPattern), "every date read back exactly")
        }
    }

    func testQueryAndHistoryJSONUseTheSameFormat() throws {
        let file = try makeFile()
        let query = try strata(["query", file, "DFMoment", "id == 1", "--json"])
        XCTAssertEqual(query.process.terminationStatus, 0, query.transcript)
        XCTAssertTrue(query.lines[0].contains("\"at\":\"2026-11-30T00:53:20.250Z\""), query.transcript)
        XCTAssertTrue(query.lines[0].contains("\"more\":[" + Self.edges.map(\.1).joined(separator: ",") + "]"), query.transcript)
        let log = try XCTUnwrap(try strataJSON(["log", file, "--json"]) as? [[String: Any]])
        let time = try XCTUnwrap(log.first?["time"] as? String)
        let timestamp = try XCTUnwrap(log.first?["timestamp"] as? Double)
        XCTAssertTrue(time.hasSuffix("Z") && time.count >= 24, time)
        let parsed = try XCTUnwrap(Self.isoDate(time), time)
        XCTAssertEqual(parsed.timeIntervalSince1970, timestamp, accuracy: 1e-3, "the same time, to the millisecond shown here")
    }

    func testImportTakesISODatesWithOffsetsAndRefusesBadOnes() throws {
        let file = try makeFile()
        let good = try strataImport([#"{"class":"DFMoment","values":{"id":2,"at":"2026-11-30T02:53:20.25+02:00"}}"#], into: "test.strata")
        XCTAssertEqual(good.process.terminationStatus, 0, good.transcript)
        let query = try strata(["query", file, "DFMoment", "id == 2", "--json", "--columns", "at"])
        XCTAssertEqual(query.lines, [#"{"at":"2026-11-30T00:53:20.250Z"}"#], query.transcript)
        let number = try strataImport([#"{"class":"DFMoment","values":{"id":4,"at":817692800.25}}"#], into: "test.strata")
        XCTAssertEqual(number.process.terminationStatus, 0, "seconds since 2001, as older exports wrote dates: \(number.transcript)")
        XCTAssertEqual(try strata(["query", file, "DFMoment", "id == 4", "--json", "--columns", "at"]).lines,
                       [#"{"at":"2026-11-30T00:53:20.250Z"}"#])
        for bad in ["2026-02-30T00:00:00Z", "2026-11-30T01:33:20", "2026-11-30 01:33:20Z", "2026-11-30T01:33:20.Z", "yesterday"] {
            let run = try strataImport(["{\"class\":\"DFMoment\",\"values\":{\"id\":3,\"at\":\"\(bad)\"}}"], into: "test.strata")
            XCTAssertEqual(run.process.terminationStatus, 1, "\(bad): \(run.transcript)")
            XCTAssertTrue(run.errorOutput.contains("DFMoment.at: expected seconds since 2001-01-01 or an ISO-8601 date"), run.transcript)
        }
    }

    private static func isoDate(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }
}
