import Foundation
import LMDB
import Synchronization
import XCTest

/// A read transaction keeps its cursors for the next `withCursor` on the same database; a
/// cursor lent again is as a new one: unpositioned, on the transaction's current snapshot, and
/// never the one a caller still holds.
final class CursorReuseTests: StrataTestCase {
    private func makeFile(keys: ClosedRange<UInt8>) throws -> (Environment, Database) {
        let env = try Environment(path: directory.appendingPathComponent("cursors.mdb").path, options: .init())
        let txn = try Transaction(env, readOnly: false)
        let db = try XCTUnwrap(txn.openDatabase("keys", flags: .create))
        try put(keys, in: db, txn)
        try txn.commit()
        return (env, db)
    }

    private func put(_ keys: ClosedRange<UInt8>, in db: Database, _ txn: Transaction) throws {
        for key in keys { try [key].withUnsafeBytes { try txn.put(db, key: $0, value: $0) } }
    }

    private func keys(_ reader: Transaction, _ db: Database) throws -> [UInt8] {
        var keys: [UInt8] = []
        try reader.withCursor(db) { cursor in try cursor.forEach { key, _ in keys.append(key[0]); return true } }
        return keys
    }

    func testACursorLentAgainStartsUnpositioned() throws {
        let (env, db) = try makeFile(keys: 1...5)
        let reader = try Transaction(env, readOnly: true)
        let last = try reader.withCursor(db) { cursor in try cursor.last().map { $0.key[0] } }
        XCTAssertEqual(last, 5)
        // `next` on an unpositioned cursor is the first entry, not the one after the last.
        let next = try reader.withCursor(db) { cursor in try cursor.next().map { $0.key[0] } }
        XCTAssertEqual(next, 1)
        XCTAssertEqual(try keys(reader, db), [1, 2, 3, 4, 5])
    }

    func testACursorKeptOverARenewReadsTheNewSnapshot() throws {
        let (env, db) = try makeFile(keys: 1...3)
        let reader = try Transaction(env, readOnly: true)
        XCTAssertEqual(try keys(reader, db), [1, 2, 3])
        let writer = try Transaction(env, readOnly: false)
        try put(4...6, in: db, writer)
        try writer.commit()
        XCTAssertEqual(try keys(reader, db), [1, 2, 3], "the snapshot is unchanged until renewed")
        try reader.renew()
        XCTAssertEqual(try keys(reader, db), [1, 2, 3, 4, 5, 6])
        reader.reset()
        try reader.renew()
        XCTAssertEqual(try keys(reader, db), [1, 2, 3, 4, 5, 6])
    }

    func testASharedTransactionKeepsNoCursorForThreadsToTakeAtOnce() throws {
        let (env, db) = try makeFile(keys: 1...5)
        let reader = try Transaction(env, readOnly: true)
        XCTAssertEqual(try keys(reader, db), [1, 2, 3, 4, 5])  // leaves a cursor idle
        reader.share()
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 where (try? keys(reader, db)) != [1, 2, 3, 4, 5] {
                wrong.withLock { $0 += 1 }
            }
        }
        XCTAssertEqual(wrong.withLock { $0 }, 0)
    }

    func testNestedCursorsOverOneDatabaseMoveApart() throws {
        let (env, db) = try makeFile(keys: 1...4)
        let reader = try Transaction(env, readOnly: true)
        var pairs: [[UInt8]] = []
        try reader.withCursor(db) { outer in
            var entry = try outer.first()
            while let e = entry {
                let inner = try reader.withCursor(db) { cursor in try cursor.last().map { $0.key[0] } }
                pairs.append([e.key[0], inner ?? 0])
                entry = try outer.next()
            }
        }
        XCTAssertEqual(pairs, [[1, 4], [2, 4], [3, 4], [4, 4]])
        XCTAssertEqual(try keys(reader, db), [1, 2, 3, 4])
    }
}
