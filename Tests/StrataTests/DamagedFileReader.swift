import Foundation
import Strata
import XCTest

/// The child side of the damaged-file corpus: opens copies of a relic file, one after
/// another, read-only (or, told to change them, for writing, and makes `RelicFile.change`'s
/// write first), reads every object through the public API and prints, per copy, either a
/// digest of what it read or the error it got. A copy that crashes the reader ends the child;
/// the parent (`DamagedFileCorpusTests`) sees which and starts another child for the rest.
/// Skipped in a normal run.
final class DamagedFileReader: XCTestCase {
    /// Set in the child's environment: "DIRECTORY FIRST END [change]", the copies to read
    /// (`copy-<i>.strata` for FIRST ≤ i < END), and whether to change them first.
    static let variable = "STRATA_DAMAGED_COPIES"

    func testReadTheCopies() throws {
        let words = ProcessInfo.processInfo.environment[Self.variable]?.split(separator: " ").map(String.init)
        try XCTSkipUnless(words?.count == 3 || words?.count == 4, "runs only in a child process")
        let directory = URL(fileURLWithPath: words![0])
        let changing = words!.count == 4
        for i in Int(words![1])!..<Int(words![2])! {
            print("BEGIN \(i)")
            fflush(stdout)
            let url = directory.appendingPathComponent(DamagedFileCorpusTests.copyName(i))
            do {
                let realm = try Realm(configuration: Realm.Configuration(fileURL: url, readOnly: !changing, objectTypes: relicTypes))
                if changing { try RelicFile.change(realm) }
                print("READ \(i) \(DamagedFileCorpusTests.digest(RelicFile.dump(realm)))")
            } catch {
                print("ERROR \(i) \("\(error)".replacingOccurrences(of: "\n", with: " "))")
            }
            fflush(stdout)
        }
    }
}
