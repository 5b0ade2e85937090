import Foundation
import StrataStorage
import XCTest
@testable import StrataQuery

/// Every kind of error names the problem and where it is.
final class ErrorTests: QueryTestCase {
    func testDescriptionIncludesThePosition() {
        let e = error("age > ")
        XCTAssertEqual(e?.description, "Invalid query at position 6: expected a value after '>', found end of input")
    }

    func testSyntaxErrorsSayWhatWasExpected() {
        assertError("", message: "the query is empty", at: 0)
        assertError("age", message: "expected a comparison operator after 'age', found end of input", at: 3)
        assertError("age == 3 AND", message: "expected a predicate, found end of input", at: 12)
        assertError("(age == 3", message: "expected ')' to close the '(' at position 0, found end of input", at: 9)
        assertError("age == 3)", message: "expected AND, OR, SORT, DISTINCT, LIMIT or the end of the query, found ')'", at: 8)
        assertError("age === 3", message: "expected a value after '==', found '='", at: 6)
        assertError("name == 'abc", message: "unterminated string: no closing '", at: 8)
        assertError("age == 3 # 4", message: "unexpected character '#'", at: 9)
        assertError("age == 99999999999999999999", message: "the number 99999999999999999999 does not fit in a 64-bit integer", at: 7)
        assertError("name ==[x] 'a'", message: "unknown comparison option 'x'; expected c, d or cd", at: 8)
        assertError("age BETWEEN {1}", message: "BETWEEN needs exactly two values, {low, high}, but found 1", at: 12)
        assertError("name == 'a\\q'", message: "unknown escape '\\q' in string", at: 10)
    }

    func testPositionsCountCharactersNotBytes() {
        assertError("name == 'é' AND", message: "expected a predicate, found end of input", at: 15)
    }

    func testUnknownPropertySuggestsTheClosestName() {
        let e = error("nmae == 'Rex'")
        XCTAssertEqual(e?.message, "'Dog' has no property 'nmae'; did you mean 'name'?")
        XCTAssertEqual(e?.position, 0)
        XCTAssertEqual(error("age > 1 AND Age < 3")?.message, "'Dog' has no property 'Age'; did you mean 'age'?")
        XCTAssertEqual(error("colour == 'tan'")?.message, "'Dog' has no property 'colour'")
    }

    func testOperatorNotValidForTheType() {
        assertError("age BEGINSWITH 'x'",
                    message: "BEGINSWITH is not valid for 'age', which is an int; it needs a string or data property", at: 4)
        assertError("isGood > true", message: "'>' is not valid for 'isGood', which is a bool", at: 7)
        assertError("age ==[c] 3", message: "the [c] option applies to strings only, but 'age' is an int", at: 4)
        assertError("name <[c] 'a'", message: "the [c] option cannot be used with '<'", at: 5)
    }

    func testTypeMismatchesNameBothSides() {
        assertError("age == 'nine'", message: "cannot compare 'age' (int) with 'nine'", at: 7)
        assertError("name == 3", message: "cannot compare 'name' (string) with 3", at: 8)
        assertError("age > %@", "8", message: "cannot compare 'age' (int) with argument 0 (8, a String)", at: 6)
        assertError("born > 3", message: "cannot compare 'born' (date) with 3", at: 7)
        assertError("age == weight AND name == age", message: "cannot compare 'name' (string) with 'age' (int)", at: 23)
    }

    func testNilOnlyAgainstOptionalProperties() {
        assertError("age == nil", message: "'age' is not optional, so it cannot be compared with nil", at: 7)
        assertError("age > nil", message: "'>' cannot compare 'age' with nil", at: 6)
    }

    func testArgumentCountAndTypeMismatches() {
        assertError("age > %@ AND age < %@", 1, message: "the query uses argument 1 but only 1 argument was given", at: 19)
        assertError("age > $2", 1, 2, message: "the query uses argument 2 but only 2 arguments were given", at: 6)
        assertError("age IN %@", 5, message: "IN needs a list {…} or an array argument, but found argument 0 (5, an Int)", at: 7)
        assertError("%K == 1", 5, message: "argument 0 is used as a key path (%K) but is not a property name string", at: 0)
        XCTAssertEqual(error("age > %@", NSObject())?.message.hasSuffix("has a type that cannot be used in a query"), true)
    }

    func testRelationshipErrors() {
        assertError("owner.name == 'Jane'", message: "the class 'Person' is not in this Realm's schema", at: 0)
        assertError("ANY name == 'x'", message: "ANY needs a key path through a to-many relationship (a list or linking objects), but 'name' is not one", at: 4)
        assertError("age.@count > 1", message: "the collection operator '@count' needs a to-many relationship (a list or linking objects) before it, but 'age' is an int", at: 4)
        assertError("SUBQUERY(name, $o, $o.age > 1).@count > 0", message: "SUBQUERY needs a to-many relationship (a list or linking objects), but 'name' is not one", at: 9)
        assertError("@links.Person.dogs.@count > 0", message: "the class 'Person' is not in this Realm's schema", at: 0)
        assertError("age.value == 1", message: "'age' is an int, not a link, so '.value' cannot follow it", at: 4)
        assertError("$x.age == 1", message: "the variable '$x' is only valid inside a SUBQUERY that declares it", at: 0)
        assertError("owner == 3", message: "cannot compare the link 'owner' with 3; a link compares with nil or an object argument", at: 9)
    }

    func testNestingBeyondTheCapIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 10_000) + "age == 1" + String(repeating: ")", count: 10_000)
        XCTAssertEqual(error(deep)?.message, "the query nests more than \(Parser.maxDepth) levels deep")
        let nots = String(repeating: "NOT ", count: 10_000) + "age == 1"
        XCTAssertEqual(error(nots)?.position, 4 * Parser.maxDepth)
        let lists = "age IN " + String(repeating: "{", count: 10_000)
        XCTAssertNotNil(error(lists))
        let shallow = String(repeating: "(", count: 50) + "age == 9" + String(repeating: ")", count: 50)
        XCTAssertEqual(names(shallow), ["Rex"])
    }

    func testLongFlatConjunctionsAreFine() {
        let long = Array(repeating: "age >= 0", count: 5_000).joined(separator: " AND ")
        XCTAssertEqual(names(long).count, 6)
    }
}
