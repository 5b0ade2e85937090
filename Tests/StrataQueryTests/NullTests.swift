import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// Realm's rules for nil: `==  nil` finds nulls, `!=` matches nil, ordering never does.
final class NullTests: QueryTestCase {
    func testEqualNilFindsNulls() {
        XCTAssertEqual(names("weight == nil"), ["Bella"])
        XCTAssertEqual(names("nickname = NULL"), ["Bella", ""])
        XCTAssertEqual(names("owner == nil").count, 6)
        XCTAssertEqual(names("nil == score"), ["Bella", ""])
        XCTAssertEqual(names("score == %@", NSNull()), ["Bella", ""])
        XCTAssertEqual(names("score == %@", Optional<Int>.none as Any), ["Bella", ""])
    }

    func testNotEqualMatchesNil() {
        XCTAssertEqual(names("score != 5"), ["Bella", "bob", "Éclair", "Straße", ""])
        XCTAssertEqual(names("nickname != 'Rexy'"), ["Bella", "bob", "Éclair", "Straße", ""])
        XCTAssertEqual(names("weight != nil"), ["Rex", "bob", "Éclair", "Straße", ""])
    }

    func testOrderingAndStringOperatorsNeverMatchNull() {
        XCTAssertEqual(names("score < 1"), ["bob", "Éclair"])
        XCTAssertEqual(names("score BETWEEN {-100, 100}"), ["Rex", "bob", "Éclair", "Straße"])
        XCTAssertEqual(names("nickname BEGINSWITH 'R'"), ["Rex"])
        XCTAssertEqual(names("NOT nickname BEGINSWITH 'R'"), ["Bella", "bob", "Éclair", "Straße", ""])
    }

    func testOptionalArgumentWithAValueIsUnwrapped() {
        let five: Int? = 5
        XCTAssertEqual(names("score == %@", five as Any), ["Rex"])
    }
}
