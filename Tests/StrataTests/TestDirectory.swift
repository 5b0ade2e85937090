import Foundation
import StrataStorage
import XCTest
@testable import Strata

/// A fresh directory per test, removed afterwards, and a configuration for a file in it.
class StrataTestCase: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("strata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Tests that damage a file on purpose turn this off.
    var checksIntegrityAfterTest = true

    override func tearDownWithError() throws {
        guard let directory else { return }  // set-up skipped the test before making it
        if checksIntegrityAfterTest { checkEveryDatabase() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the integrity checker on every Strata file the test left in its directory (files
    /// that do not open as Strata databases, which some tests make on purpose, are skipped).
    private func checkEveryDatabase() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasSuffix(".strata") || name.hasSuffix(".realm") {
            let path = directory.appendingPathComponent(name).path
            // An encrypted file is checked with the key the encryption tests use.
            let testKey = try? EncryptionKey([UInt8](EncryptionTests.key))
            guard let file = (try? StorageFile.open(path: path, options: .init(readOnly: true)))
                    ?? (try? StorageFile.open(path: path, options: .init(readOnly: true, encryptionKey: testKey))),
                  let txn = try? file.beginRead() else { continue }
            defer { txn.abort() }
            do {
                _ = try IntegrityCheck.run(txn)
            } catch {
                XCTFail("integrity check of \(name) after the test: \(error)")
            }
        }
    }

    /// Runs the current run loop until `done()` holds; fails the test after `timeout` seconds
    /// (a hung test; nothing is timed).
    func spin(timeout: TimeInterval = 120, file: StaticString = #filePath, line: UInt = #line, until done: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !done() && Date() < deadline {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
        XCTAssertTrue(done(), "the run loop did not deliver within \(Int(timeout)) s", file: file, line: line)
    }

    /// Turns the run loop a few times so that anything scheduled is delivered.
    func drain() {
        for _ in 0..<5 { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) }
    }

    /// A file URL inside the test's directory.
    func fileURL(_ name: String = "test.strata") -> URL { directory.appendingPathComponent(name) }

    /// A configuration for a file inside the test's directory.
    func configuration(_ name: String = "test.strata", types: [ObjectBase.Type]? = nil) -> Realm.Configuration {
        Realm.Configuration(fileURL: fileURL(name), objectTypes: types)
    }

    /// Fails unless the integrity checker finds the file's structures consistent (indexes,
    /// links, lists, backlinks), on the newest version.
    /// An encrypted file is opened with `encryptionKey`.
    func assertConsistent(_ name: String = "test.strata", encryptionKey: Data? = nil, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let key = try EncryptionKey(encryptionKey)
            let txn = try StorageFile.open(path: fileURL(name).path, options: .init(encryptionKey: key)).beginRead()
            defer { txn.abort() }
            _ = try IntegrityCheck.run(txn)
        } catch {
            XCTFail("integrity check: \(error)", file: file, line: line)
        }
    }

    /// Fails unless opening `configuration` throws a `Realm.Error` of `code` whose message
    /// contains `text`.
    func assertOpenFails(_ configuration: Realm.Configuration, _ code: Realm.Error.Code, mentioning text: String,
                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Realm(configuration: configuration), file: file, line: line) { error in
            guard let error = error as? Realm.Error else { return XCTFail("not a Realm.Error: \(error)", file: file, line: line) }
            XCTAssertEqual(error.code, code, error.localizedDescription, file: file, line: line)
            XCTAssertTrue(error.localizedDescription.contains(text), error.localizedDescription, file: file, line: line)
        }
    }

    /// Runs `body`; the Realms it opens are closed when it returns (nothing else holds them).
    func closingRealms(_ body: () throws -> Void) rethrows { try body() }

    /// Opens a Realm on a file inside the test's directory.
    func openRealm(_ name: String = "test.strata", types: [ObjectBase.Type]? = nil) throws -> Realm {
        try Realm(configuration: configuration(name, types: types))
    }
}
