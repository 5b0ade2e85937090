import Foundation
import StrataReplication
import StrataTestSupport
import XCTest

/// A test case against a real PostgreSQL server: one throwaway cluster per test class, and a
/// database of its own per test (`conninfo`). Skipped where PostgreSQL is not installed.
class PostgresTestCase: StrataTestCase {
    nonisolated(unsafe) static var cluster: PostgresCluster?
    nonisolated(unsafe) private static var clusterFailure: Error?
    /// The connection string of this test's database.
    var conninfo = ""

    override class func setUp() {
        super.setUp()
        guard PostgresCluster.unavailableReason == nil else { return }
        do { cluster = try PostgresCluster() } catch { clusterFailure = error }
    }

    override class func tearDown() {
        cluster?.stop()
        cluster = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        if let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        if let failure = Self.clusterFailure { throw failure }
        try super.setUpWithError()
        let cluster = try XCTUnwrap(Self.cluster)
        let name = "t_" + UUID().uuidString.prefix(8).lowercased()
        try PostgresConnection(cluster.conninfo).execute("CREATE DATABASE \(name)")
        conninfo = cluster.conninfo.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)")
    }
}
