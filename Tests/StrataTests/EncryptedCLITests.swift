import Foundation
import StrataTestSupport
import XCTest
@testable import Strata

/// `strata` on encrypted files: the key from `--key-file` or `STRATA_KEY`, and the
/// `encrypt`, `decrypt` and `rekey` copies.
final class EncryptedCLITests: StrataTestCase {
    private var path: String { fileURL().path }
    private var hexKey: String { EncryptionTests.key.map { String(format: "%02x", $0) }.joined() }

    override func setUpWithError() throws {
        try super.setUpWithError()
        var config = configuration(types: [ZirconLedger.self])
        config.encryptionKey = EncryptionTests.key
        try closingRealms { try EncryptionTests.fill(try Realm(configuration: config)) }
        try (hexKey + "\n").write(to: fileURL("app.key"), atomically: true, encoding: .utf8)
        try EncryptionTests.otherKey.write(to: fileURL("other.key"))
    }

    private func assertSucceeds(_ run: WorkerProcess, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript, file: file, line: line)
    }

    private func exported(_ run: WorkerProcess) -> Bool { run.lines.joined().contains("quartz-harbour-7731") }

    func testCommandsTakeTheKeyFromAKeyFileOrTheEnvironmentAndSayWhenItIsMissing() throws {
        let missing = try strata(["info", path])
        XCTAssertEqual(missing.process.terminationStatus, 1, missing.transcript)
        XCTAssertTrue(missing.errorOutput.contains("is encrypted"), missing.transcript)
        assertSucceeds(try strata(["info", path, "--key-file", fileURL("app.key").path]))
        assertSucceeds(try strata(["check", path, "--key-file", fileURL("app.key").path]))
        let export = try strata(["export", path], environment: ["STRATA_KEY": hexKey])
        assertSucceeds(export)
        XCTAssertTrue(exported(export), export.transcript)
        let wrong = try strata(["export", path, "--key-file", fileURL("other.key").path])
        XCTAssertEqual(wrong.process.terminationStatus, 1, wrong.transcript)
        XCTAssertTrue(wrong.errorOutput.contains("wrong encryption key"), wrong.transcript)
    }

    func testDecryptEncryptAndRekeyWriteCopiesThatOpenWithTheirKeys() throws {
        let plain = fileURL("plain.strata").path, encrypted = fileURL("encrypted.strata").path, rekeyed = fileURL("rekeyed.strata").path
        assertSucceeds(try strata(["decrypt", path, plain, "--key-file", fileURL("app.key").path]))
        XCTAssertTrue(exported(try strata(["export", plain])))
        assertSucceeds(try strata(["encrypt", plain, encrypted, "--key-file", fileURL("other.key").path]))
        XCTAssertNil(try Data(contentsOf: URL(fileURLWithPath: encrypted)).firstRange(of: Data("quartz-harbour-7731".utf8)))
        XCTAssertTrue(exported(try strata(["export", encrypted, "--key-file", fileURL("other.key").path])))
        assertSucceeds(try strata(["rekey", encrypted, rekeyed, "--key-file", fileURL("other.key").path,
                                   "--new-key-file", fileURL("app.key").path]))
        XCTAssertTrue(exported(try strata(["export", rekeyed, "--key-file", fileURL("app.key").path])))
        assertSucceeds(try strata(["check", rekeyed, "--key-file", fileURL("app.key").path]))
        let exists = try strata(["decrypt", path, plain, "--key-file", fileURL("app.key").path])
        XCTAssertEqual(exists.process.terminationStatus, 1, exists.transcript)
        let noKey = try strata(["encrypt", plain, fileURL("none.strata").path])
        XCTAssertEqual(noKey.process.terminationStatus, 2, noKey.transcript)
    }
}
