import XCTest
@testable import Strata
import StrataStorage

/// The storage layer's error codes are RealmSwift's public ones: a public error is made from
/// a storage error's raw value, so each code must exist on both sides under the same name.
final class ErrorCodeTests: XCTestCase {
    func testEveryStorageErrorCodeIsThePublicCodeOfTheSameNameAndRawValue() {
        for code in StorageError.Code.allCases {
            let publicCode = Realm.Error.Code(rawValue: code.rawValue)
            XCTAssertNotNil(publicCode, "no public code for \(code)")
            XCTAssertEqual(publicCode.map { "\($0)" }, "\(code)")
        }
    }

    func testAStorageErrorBecomesThePublicErrorWithItsCodeAndMessage() {
        let error = Realm.Error(StorageError(.schemaMismatch, "Migration is required"))
        XCTAssertEqual(error.code, .schemaMismatch)
        XCTAssertTrue(error.localizedDescription.contains("Migration is required"))
    }
}
