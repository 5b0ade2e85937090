import Foundation
import XCTest
@testable import Strata

/// A fresh directory per test, removed afterwards, and a configuration for a file in it.
class StrataTestCase: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("strata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file URL inside the test's directory.
    func fileURL(_ name: String = "test.strata") -> URL { directory.appendingPathComponent(name) }

    /// A configuration for a file inside the test's directory.
    func configuration(_ name: String = "test.strata", types: [ObjectBase.Type]? = nil) -> Realm.Configuration {
        Realm.Configuration(fileURL: fileURL(name), objectTypes: types)
    }

    /// Runs `body`; the Realms it opens are closed when it returns (nothing else holds them).
    func closingRealms(_ body: () throws -> Void) rethrows { try body() }

    /// Opens a Realm on a file inside the test's directory.
    func openRealm(_ name: String = "test.strata", types: [ObjectBase.Type]? = nil) throws -> Realm {
        try Realm(configuration: configuration(name, types: types))
    }
}
