import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// Shared fixtures: a `Dog` class with a property of every kind, a few encoded dogs, and
/// helpers that run a query over them and report which matched.
class QueryTestCase: XCTestCase {
    /// Dog: id (int, primary key), name (string, indexed), age (int), weight (double?),
    /// height (float), born (date), photo (data?), nickname (string?), isGood (bool),
    /// tag (uuid?), owner (link?), score (int?).
    static let dog = ClassSchema(name: "Dog", properties: [
        PropertySchema(name: "id", type: .int, isPrimaryKey: true, id: 0),
        PropertySchema(name: "name", type: .string, isIndexed: true, id: 1),
        PropertySchema(name: "age", type: .int, id: 2),
        PropertySchema(name: "weight", type: .double, isOptional: true, id: 3),
        PropertySchema(name: "height", type: .float, id: 4),
        PropertySchema(name: "born", type: .date, id: 5),
        PropertySchema(name: "photo", type: .data, isOptional: true, id: 6),
        PropertySchema(name: "nickname", type: .string, isOptional: true, id: 7),
        PropertySchema(name: "isGood", type: .bool, id: 8),
        PropertySchema(name: "tag", type: .uuid, isOptional: true, id: 9),
        PropertySchema(name: "owner", type: .link, isOptional: true, id: 10, linkTarget: "Person"),
        PropertySchema(name: "score", type: .int, isOptional: true, id: 11),
    ])

    /// A fixed UUID used by some dogs.
    static let tagA = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!

    /// Dogs as values indexed by property id.
    static let dogs: [[Value]] = [
        dogRow(1, "Rex", 9, weight: 30.5, height: 0.6, born: 1000, photo: Data([1, 2, 3]), nickname: "Rexy", good: true, tag: tagA, score: 5),
        dogRow(2, "Bella", 3, weight: nil, height: 0.4, born: 2000, photo: nil, nickname: nil, good: false, tag: nil, score: nil),
        dogRow(3, "bob", 12, weight: 12, height: 0.5, born: 3000, photo: Data(), nickname: "", good: true, tag: nil, score: -7),
        dogRow(4, "Éclair", 1, weight: 4.25, height: 0.25, born: -500, photo: nil, nickname: "Ecl", good: false, tag: tagA, score: 0),
        dogRow(5, "Straße", 7, weight: 20, height: 0.55, born: 1500, photo: Data([9]), nickname: "STRASSE", good: true, tag: nil, score: 100),
        dogRow(6, "", 0, weight: 0, height: 0, born: 0, photo: nil, nickname: nil, good: false, tag: nil, score: nil),
    ]

    /// One dog's row values.
    static func dogRow(_ id: Int64, _ name: String, _ age: Int64, weight: Double?, height: Float, born: Double,
                       photo: Data?, nickname: String?, good: Bool, tag: UUID?, score: Int64?) -> [Value] {
        [.int(id), .string(name), .int(age), weight.map(Value.double) ?? .null, .float(height),
         .date(Date(timeIntervalSinceReferenceDate: born)), photo.map(Value.data) ?? .null,
         nickname.map(Value.string) ?? .null, .bool(good), tag.map(Value.uuid) ?? .null, .null,
         score.map(Value.int) ?? .null]
    }

    /// Runs `query` over `rows` and returns the names (slot 1) of the dogs that match, in order.
    func names(_ query: String, _ arguments: Any..., rows: [[Value]] = QueryTestCase.dogs,
               file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            let compiled = try compileQuery(query, arguments: arguments, schema: Self.dog)
            return rows.filter { values in
                let bytes = RowEncoder.encode(values)
                return bytes.withUnsafeBytes { compiled.matches(RowView($0)!) }
            }.map { values in
                if case .string(let s) = values[1] { return s }
                return "?"
            }
        } catch {
            XCTFail("\(query): \(error)", file: file, line: line)
            return []
        }
    }

    /// The error `query` fails with, or nil (and a test failure) when it compiles.
    func error(_ query: String, _ arguments: Any..., file: StaticString = #filePath, line: UInt = #line) -> QueryError? {
        do {
            _ = try compileQuery(query, arguments: arguments, schema: Self.dog)
            XCTFail("expected an error for \(query)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// Asserts that `query` fails with exactly `message` at `position`.
    func assertError(_ query: String, _ arguments: Any..., message: String, at position: Int?,
                     file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try compileQuery(query, arguments: arguments, schema: Self.dog)
            XCTFail("expected an error for \(query)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.message, message, query, file: file, line: line)
            XCTAssertEqual(error.position, position, query, file: file, line: line)
        }
    }
}
