import Foundation
import Strata
import XCTest

/// The child side of the damaged-file corpus: opens copies of a relic file read-only, one
/// after another, reads every object through the public API and prints, per copy, either a
/// digest of what it read or the error it got. A copy that crashes the reader ends the child;
/// the parent (`DamagedFileCorpusTests`) sees which and starts another child for the rest.
/// Skipped in a normal run.
final class DamagedFileReader: XCTestCase {
    /// Set in the child's environment: "DIRECTORY FIRST END", the copies to read
    /// (`copy-<i>.strata` for FIRST ≤ i < END).
    static let variable = "STRATA_DAMAGED_COPIES"

    func testReadTheCopies() throws {
        let words = ProcessInfo.processInfo.environment[Self.variable]?.split(separator: " ").map(String.init)
        try XCTSkipUnless(words?.count == 3, "runs only in a child process")
        let directory = URL(fileURLWithPath: words![0])
        for i in Int(words![1])!..<Int(words![2])! {
            print("BEGIN \(i)")
            fflush(stdout)
            let url = directory.appendingPathComponent(DamagedFileCorpusTests.copyName(i))
            do {
                let realm = try Realm(configuration: Realm.Configuration(fileURL: url, readOnly: true, objectTypes: relicTypes))
                print("READ \(i) \(DamagedFileCorpusTests.digest(RelicFile.dump(realm)))")
            } catch {
                print("ERROR \(i) \("\(error)".replacingOccurrences(of: "\n", with: " "))")
            }
            fflush(stdout)
        }
    }
}
