import Foundation
import LMDB
import Synchronization
import XCTest

/// A read transaction reads the snapshot its id names, however many commits land while it
/// begins (`Transaction.init`, LMDB 0.9's reader race).
final class SnapshotBeginTests: StorageFileTestCase {
    /// Two writer threads commit as fast as they can, each commit storing its own transaction
    /// id; reader threads begin snapshots over and over and read the id stored in each. LMDB
    /// 0.9 alone hands a reader paused between reading the newest id and copying that id's
    /// meta page, while two commits land, the second commit's data under the first one's id.
    func testEveryReadSnapshotHoldsTheCommitItsIDNames() throws {
        var options = Environment.Options()
        options.noSync = true
        let environment = try Environment(path: path, options: options)
        let setup = try Transaction(environment, readOnly: false)
        let database = try XCTUnwrap(try setup.openDatabase(nil))
        try setup.commit()
        let key = Array("id".utf8)
        let end = Date(timeIntervalSinceNow: 4)
        let findings = Mutex<(snapshots: Int, wrong: [String])>((0, []))
        let threads = DispatchGroup()
        func run(_ body: @escaping @Sendable () throws -> Void) {
            threads.enter()
            Thread {
                defer { threads.leave() }
                do { try body() } catch { findings.withLock { $0.wrong.append("\(error)") } }
            }.start()
        }
        for _ in 0..<2 {
            run {
                while Date() < end {
                    let txn = try Transaction(environment, readOnly: false)
                    var id = txn.id
                    try key.withUnsafeBytes { k in try withUnsafeBytes(of: &id) { v in try txn.put(database, key: k, value: v) } }
                    try txn.commit()
                }
            }
        }
        for _ in 0..<4 {
            run {
                var snapshots = 0, wrong: [String] = []
                while Date() < end {
                    let txn = try Transaction(environment, readOnly: true)
                    let stored = try key.withUnsafeBytes { k in try txn.get(database, key: k) }
                    if let stored {
                        let id = stored.loadUnaligned(as: Int.self)
                        if id != txn.id { wrong.append("snapshot \(txn.id) holds the data of commit \(id)") }
                    }
                    snapshots += 1
                }
                findings.withLock { $0.snapshots += snapshots; $0.wrong += wrong }
            }
        }
        threads.wait()
        let (snapshots, wrong) = findings.withLock { $0 }
        XCTAssertGreaterThan(snapshots, 0)
        XCTAssertEqual(wrong, [], "\(wrong.count) of \(snapshots) snapshots")
    }
}
