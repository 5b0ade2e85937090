import Foundation
import StrataTestSupport
import XCTest

/// `strata-bench --rounds K`: the whole workload K times, each engine in new processes,
/// reported as one measurement per engine and op.
final class BenchRoundsTests: StrataTestCase {
    private func bench(_ arguments: [String]) throws -> WorkerProcess {
        let process = try WorkerProcess(try BuiltProducts.executable("strata-bench"), arguments)
        try process.waitForExit()
        return process
    }

    func testRoundsReportOneMeasurementPerEngineAndOp() throws {
        let run = try bench(["--n", "300", "--nosync", "--rounds", "3", "--only", "W7", "--engines", "strata,lmdb",
                             "--dir", directory.path, "--json"])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.lines.joined().utf8)) as? [[String: Any]])
        let measured = rows.compactMap { row in (row["engine"] as? String).map { ($0, row["op"] as? String ?? "") } }
        XCTAssertEqual(measured.map { "\($0.0) \($0.1)" }.sorted(), ["lmdb W1", "lmdb W7", "strata W1", "strata W7"])
        let hashes = rows.filter { $0["op"] as? String == "W7" }.compactMap { ($0["checks"] as? [String: Any])?["hash"] as? Int }
        XCTAssertEqual(hashes.count, 2)
        XCTAssertEqual(Set(hashes).count, 1, "both engines read the same first 100")
    }

    func testRoundsMustBePositive() throws {
        let run = try bench(["--rounds", "0"])
        XCTAssertNotEqual(run.process.terminationStatus, 0)
        XCTAssertTrue(run.transcript.contains("--rounds needs a positive integer"), run.transcript)
    }
}
