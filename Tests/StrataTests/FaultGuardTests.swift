import Foundation
import StrataStorage
import XCTest
@testable import Strata

/// LMDB keeps no checksums of its own pages, and a damaged branch or leaf page can make it
/// fault or fail one of its assertions while it reads. Those reads end with an error, not the
/// process (`CStrataFaultGuard`): here every page in use of a file is zeroed, and then garbled,
/// in turn, and each copy is checked whole in this very process, which must live through all
/// of them.
final class FaultGuardTests: StrataTestCase {
    func testEveryDamagedPageIsAnErrorOrReadsWholeInTheReadingProcess() throws {
        checksIntegrityAfterTest = false
        do {
            let realm = try openRealm("original.strata", types: relicTypes)
            try RelicFile.fill(realm, count: 240, seed: 20)
        }
        let file = try Data(contentsOf: fileURL("original.strata"))
        var random = SplitMix64(seed: 0xFA_017)
        var outcomes: [String: Int] = [:]
        for page in FileDamage.pagesInUse(of: file) {
            let garbage = Data((0..<FileDamage.pageSize).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            for (kind, bytes) in [("zeroed", Data(count: FileDamage.pageSize)), ("garbled", garbage)] {
                var copy = file
                copy.replaceSubrange((page * FileDamage.pageSize)..<((page + 1) * FileDamage.pageSize), with: bytes)
                let url = fileURL("copy-\(page)-\(kind).strata")
                try copy.write(to: url)
                outcomes["\(kind): " + (try checkOutcome(url)), default: 0] += 1
                for suffix in ["", "-lock", ".lock"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            }
        }
        print("fault guard: " + outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        XCTAssertEqual(outcomes.keys.filter { $0.hasSuffix("other error") }, [], "\(outcomes)")
        XCTAssertGreaterThan(outcomes["zeroed: damaged", default: 0], 0, "zeroing pages in use must damage some of them: \(outcomes)")
    }

    /// Opens the file read-only and runs the integrity check on it in this process: "passes",
    /// "damaged" for an error saying the file is damaged or a problem the check found, or
    /// "other error".
    private func checkOutcome(_ url: URL) throws -> String {
        do {
            let file = try StorageFile.open(path: url.path, options: .init(readOnly: true))
            let txn = try file.beginRead()
            defer { txn.abort() }
            _ = try IntegrityCheck.run(txn)
            return "passes"
        } catch let error as StorageError where error.code == .invalidDatabase {
            return "damaged"
        } catch is IntegrityCheck.Problem {
            return "damaged"
        } catch {
            print("fault guard: \(url.lastPathComponent): \(error)")
            return "other error"
        }
    }
}
