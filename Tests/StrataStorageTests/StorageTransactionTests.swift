import Foundation
import XCTest
@testable import StrataStorage

final class StorageTransactionTests: StorageFileTestCase {
    private let dog = ClassSchema(name: "Dog", properties: [
        PropertySchema(name: "name", type: .string, isIndexed: true, id: 0),
        PropertySchema(name: "age", type: .int, id: 1),
    ])

    func testIndexesFollowUpdatesAndDeletesInTheSameTransaction() throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [dog])
        let table = try XCTUnwrap(try txn.table("Dog"))
        let a = try txn.objects.insert(table, values: [.string("rex"), .int(3)])
        let b = try txn.objects.insert(table, values: [.string("rex"), .int(4)])
        XCTAssertEqual(try txn.indexes.lookup(table, dog.properties[0], equalTo: .string("rex")), [a, b])
        try txn.objects.update(table, a, [(dog.properties[0], .string("max"))])
        XCTAssertEqual(try txn.indexes.lookup(table, dog.properties[0], equalTo: .string("rex")), [b])
        XCTAssertEqual(try txn.indexes.lookup(table, dog.properties[0], equalTo: .string("max")), [a])
        try txn.objects.delete(table, b)
        XCTAssertEqual(try txn.indexes.lookup(table, dog.properties[0], equalTo: .string("rex")), [])
        let version = try txn.commit(processName: "test", pid: 1)
        XCTAssertEqual(version, 1)

        let read = try file.beginRead()
        XCTAssertEqual(read.version, 1)
        XCTAssertEqual(try read.rows.count(try XCTUnwrap(try read.table("Dog"))), 1)
    }

    /// Commits `count` inserts of a dog, one transaction each, with `retention`.
    private func commitDogs(_ file: StorageFile, _ count: Int, retention: HistoryRetentionPolicy = .all) throws {
        for i in 0..<count {
            let txn = try file.beginWrite()
            if try txn.table("Dog") == nil { try txn.store(classes: [dog]) }
            txn.historyRetention = retention
            _ = try txn.objects.insert(try XCTUnwrap(try txn.table("Dog")), values: [.string("dog \(i)"), .int(Int64(i))])
            try txn.commit(processName: "test", pid: 1)
        }
    }

    func testANewFileKeepsItsVersionInTheHistoryAlone() throws {
        do {
            let file = try StorageFile.open(path: path, options: .init())
            // Retention that keeps only the newest entry still leaves the version to count on.
            try commitDogs(file, 5, retention: HistoryRetentionPolicy(keepCount: 1, keepAge: nil, maximumCount: nil))
            let read = try file.beginRead()
            XCTAssertEqual(read.version, 5)
            XCTAssertEqual(try read.history.bounds().count, 1)
            let meta = try XCTUnwrap(read.database(MetaKeys.database))
            XCTAssertNil(try MetaKeys.readInteger(read.lmdb, meta, MetaKeys.version) as UInt64?, "no version key in a new file")
            XCTAssertEqual(try MetaKeys.readInteger(read.lmdb, meta, MetaKeys.format) as UInt32?, StorageFile.formatVersion)
        }
        let reopened = try StorageFile.open(path: path, options: .init())
        XCTAssertEqual(try reopened.beginRead().version, 5)
    }

    func testAFormatOneFileKeepsItsVersionKeyCurrent() throws {
        do {
            let file = try StorageFile.open(path: path, options: .init())
            try commitDogs(file, 2)
            // Make it a file older Strata wrote: format 1, with the version key.
            let txn = try file.beginWrite()
            let meta = try XCTUnwrap(txn.database(MetaKeys.database))
            try MetaKeys.writeInteger(txn.lmdb, meta, MetaKeys.format, UInt32(1))
            try MetaKeys.writeInteger(txn.lmdb, meta, MetaKeys.version, UInt64(2))
            try txn.lmdb.commit()
        }
        let file = try StorageFile.open(path: path, options: .init())
        XCTAssertEqual(try file.beginRead().version, 2)
        try commitDogs(file, 3)
        let read = try file.beginRead()
        XCTAssertEqual(read.version, 5)
        let meta = try XCTUnwrap(read.database(MetaKeys.database))
        XCTAssertEqual(try MetaKeys.readInteger(read.lmdb, meta, MetaKeys.version) as UInt64?, 5)
        XCTAssertEqual(try MetaKeys.readInteger(read.lmdb, meta, MetaKeys.format) as UInt32?, 1, "not upgraded: older Strata may still open it")
    }

    func testAScanThatMeetsADamagedRowThrowsNamingTheObject() throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [dog])
        let table = try XCTUnwrap(try txn.table("Dog"))
        let keys = try (0..<3).map { try txn.objects.insert(table, values: [.string("dog \($0)"), .int(Int64($0))]) }
        // The second row's slot ends run backwards: its bytes cannot be told apart.
        var key = ObjectKeyCoding.encode(keys[1])
        try withUnsafeBytes(of: &key) { k in
            try [UInt8]([0, 2, 3, 1, 7, 7, 7]).withUnsafeBytes { try txn.lmdb.put(table.rows, key: k, value: $0) }
        }
        var visited: [ObjectKey] = []
        XCTAssertThrowsError(try txn.rows.forEach(table) { key, _ in visited.append(key); return true }) { error in
            let error = error as? StorageError
            XCTAssertEqual(error?.code, .invalidDatabase)
            XCTAssertTrue(error?.message.contains("'Dog' object \(keys[1])") ?? false, "\(String(describing: error))")
        }
        XCTAssertEqual(visited, [keys[0]])
    }

    /// Random inserts (integer primary keys, so a deleted key can come back), updates and
    /// deletes, some runs of them inside `atomically` blocks (a few of which fail), record the
    /// same change set as the same operations done flat, without the failed blocks.
    func testChangesRecordedInNestedBlocksEqualTheSameChangesRecordedFlat() throws {
        let pet = ClassSchema(name: "Pet", properties: [
            PropertySchema(name: "id", type: .int, isPrimaryKey: true, id: 0),
            PropertySchema(name: "age", type: .int, id: 1),
            PropertySchema(name: "name", type: .string, id: 2),
        ])
        enum Step { case insert(Int64), update(Int64, Int), delete(Int64) }
        for seed in 1...40 {
            // A seeded linear congruential generator: below(n) is in 0..<n.
            var state = UInt64(seed)
            func below(_ n: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(n))
            }
            // Objects 0..<10 exist before the write; the steps insert, update and delete at
            // random among 0..<20, each valid when it runs.
            var live = Set<Int64>(0..<10)
            var blocks: [(steps: [Step], nested: Bool, fails: Bool)] = []
            for _ in 0..<12 {
                var steps: [Step] = []
                var blockLive = live
                for _ in 0...below(6) {
                    let k = Int64(below(20))
                    if !blockLive.contains(k) { steps.append(.insert(k)); blockLive.insert(k) }
                    else if below(2) == 0 { steps.append(.update(k, 1 + below(2))) }
                    else { steps.append(.delete(k)); blockLive.remove(k) }
                }
                let nested = below(2) == 0, fails = nested && below(4) == 0
                if !fails { live = blockLive }
                blocks.append((steps, nested, fails))
            }
            func run(flat: Bool) throws -> ChangeSet {
                removeStorageFile(path)
                let file = try StorageFile.open(path: path, options: .init())
                let setup = try file.beginWrite()
                try setup.store(classes: [pet])
                let t0 = try XCTUnwrap(try setup.table("Pet"))
                for k in 0..<Int64(10) { _ = try setup.objects.insert(t0, values: [.int(k), .int(0), .string("p")]) }
                _ = try setup.commit(processName: "test", pid: 1)
                let txn = try file.beginWrite()
                let table = try XCTUnwrap(try txn.table("Pet"))
                func apply(_ steps: [Step]) throws {
                    for step in steps {
                        let key = { (k: Int64) in ObjectKeyCoding.key(forIntegerPrimaryKey: k) }
                        switch step {
                        case .insert(let k): _ = try txn.objects.insert(table, values: [.int(k), .int(0), .string("p")])
                        case .update(let k, let slot): try txn.objects.update(table, key(k), [(pet.properties[slot], slot == 1 ? .int(7) : .string("q"))])
                        case .delete(let k): try txn.objects.delete(table, key(k))
                        }
                    }
                }
                struct Failure: Error {}
                for block in blocks {
                    if flat {
                        if !block.fails { try apply(block.steps) }
                    } else if block.nested {
                        _ = try? txn.atomically {
                            try apply(block.steps)
                            if block.fails { throw Failure() }
                        }
                    } else {
                        try apply(block.steps)
                    }
                }
                let changes = txn.changes
                txn.abort()
                return changes
            }
            let flat = try run(flat: true)
            let nested = try run(flat: false)
            XCTAssertEqual(nested, flat, "seed \(seed)")
        }
    }

    func testEveryCommitLeavesAHistoryEntryWithItsChanges() throws {
        let file = try StorageFile.open(path: path, options: .init())
        var txn = try file.beginWrite()
        try txn.store(classes: [dog])
        var table = try XCTUnwrap(try txn.table("Dog"))
        let key = try txn.objects.insert(table, values: [.string("a"), .int(1)])
        try txn.commit(processName: "test", pid: 7)
        txn = try file.beginWrite()
        table = try XCTUnwrap(try txn.table("Dog"))
        try txn.objects.update(table, key, [(dog.properties[1], .int(2))])
        txn.commitDescription = "birthday"
        try txn.commit(processName: "test", pid: 7)

        let read = try file.beginRead()
        let entry = try read.history.entry(2)
        XCTAssertEqual(entry?.version, 2)
        XCTAssertEqual(entry?.description, "birthday")
        XCTAssertEqual(entry?.pid, 7)
        XCTAssertEqual(entry?.changes.classes["Dog"]?.modified[key], ClassChanges.bit(1))
    }

    func testAnEmptyWriteCommitsNothing() throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        XCTAssertEqual(try txn.commit(processName: "test", pid: 1), 0)
        XCTAssertEqual(try file.beginRead().version, 0)
    }

    func testAnAbortedWriteLeavesNoTrace() throws {
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        try txn.store(classes: [dog])
        _ = try txn.objects.insert(try XCTUnwrap(try txn.table("Dog")), values: [.string("x"), .int(0)])
        txn.abort()
        let read = try file.beginRead()
        XCTAssertNil(try read.table("Dog"))
        XCTAssertEqual(read.version, 0)
    }
}
