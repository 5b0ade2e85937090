import Foundation
import XCTest
@testable import StrataStorage

/// Long lists (docs/FILE-FORMAT.md, "Lists"): past `ListEncoding.nodeCapacity` chunks the
/// directory nests, listing nodes that list chunks; every edit keeps the elements in order,
/// and a file of an older format keeps flat directories.
final class NestedListTests: StorageFileTestCase {
    private let holder = ClassSchema(name: "Holder", properties: [
        PropertySchema(name: "texts", type: .string, isOptional: true, id: 0, isList: true),
    ])
    private var texts: PropertySchema { holder.properties[0] }

    /// A text of about 300 bytes: six fill a chunk, so a few thousand fill hundreds of chunks.
    private func text(_ i: Int) -> Value { .string("\(i)-" + String(repeating: "x", count: 300)) }

    private func holderTable(_ txn: StorageTransaction) throws -> Table { try XCTUnwrap(try txn.table("Holder")) }

    private func assertReads(_ model: [Value], _ txn: StorageTransaction, _ owner: ObjectKey,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let table = try holderTable(txn)
        XCTAssertEqual(try txn.lists.count(table, texts, owner: owner), model.count, file: file, line: line)
        XCTAssertEqual(try txn.lists.values(table, texts, owner: owner), model, file: file, line: line)
        for i in Set([0, model.count / 3, model.count / 2, model.count - 1]) where i >= 0 && i < model.count {
            XCTAssertEqual(try txn.lists.value(table, texts, owner: owner, at: i), model[i], "at \(i)", file: file, line: line)
        }
    }

    func testALongListNestsItsDirectoryAndKeepsItsOrderThroughEveryEdit() throws {
        let txn = try StorageFile.open(path: path, options: .init()).beginWrite()
        try txn.store(classes: [holder])
        let table = try holderTable(txn)
        let owner = try txn.objects.insert(table, values: [.null])
        var model = (0..<1_200).map(text)
        try txn.lists.insert(table, texts, owner: owner, model, at: 0)
        XCTAssertFalse(try txn.lists.directory(table, texts, owner).isNested, "200 chunks: flat")
        try assertReads(model, txn, owner)

        // Grow one at a time, at the end and in the middle, past one node and past several.
        var rng = SplitMix64(seed: 7)
        for i in 1_200..<5_000 {
            let at = i % 3 == 0 ? model.count : Int(rng.next() % UInt64(model.count + 1))
            try txn.lists.insert(table, texts, owner: owner, [i % 11 == 0 ? .null : text(i)], at: at)
            model.insert(i % 11 == 0 ? .null : text(i), at: at)
        }
        let nested = try txn.lists.directory(table, texts, owner)
        XCTAssertTrue(nested.isNested)
        XCTAssertGreaterThan(nested.entries.count, 2, "nodes split as they fill")
        XCTAssertEqual(nested.total, model.count)
        try assertReads(model, txn, owner)

        // Replace, move and remove anywhere; a bulk insert in the middle.
        for i in 0..<600 {
            let r = Int(rng.next() % UInt64(model.count))
            switch i % 3 {
            case 0:
                try txn.lists.replace(table, texts, owner: owner, at: r, with: text(-i))
                model[r] = text(-i)
            case 1:
                let to = Int(rng.next() % UInt64(model.count))
                try txn.lists.move(table, texts, owner: owner, from: r, to: to)
                model.insert(model.remove(at: r), at: to)
            default:
                XCTAssertEqual(try txn.lists.remove(table, texts, owner: owner, at: r), model.remove(at: r))
            }
        }
        let bulk = (0..<2_000).map { text(100_000 + $0) }
        try txn.lists.insert(table, texts, owner: owner, bulk, at: 1_000)
        model.insert(contentsOf: bulk, at: 1_000)
        try assertReads(model, txn, owner)
        XCTAssertThrowsError(try txn.lists.value(table, texts, owner: owner, at: model.count))
        XCTAssertThrowsError(try txn.lists.insert(table, texts, owner: owner, [text(0)], at: model.count + 1))

        // Removing from the front empties nodes one by one, down to nothing.
        while model.count > 100 {
            XCTAssertEqual(try txn.lists.remove(table, texts, owner: owner, at: 0), model.removeFirst())
        }
        try assertReads(model, txn, owner)
        while !model.isEmpty {
            XCTAssertEqual(try txn.lists.remove(table, texts, owner: owner, at: model.count - 1), model.removeLast())
        }
        try assertReads(model, txn, owner)
        XCTAssertEqual(try txn.lists.layout(table, texts, owner).chunks.count, 0)
        try txn.commit(processName: "test", pid: 1)
        XCTAssertEqual(try IntegrityCheck.run(StorageFile.open(path: path, options: .init()).beginRead()).objects, 1)
    }

    func testANestedListIsReadAfterCommitAndEmptiedAtOnce() throws {
        let file = try StorageFile.open(path: path, options: .init())
        var owner: ObjectKey = 0
        let model = (0..<3_000).map(text)
        do {
            let txn = try file.beginWrite()
            try txn.store(classes: [holder])
            owner = try txn.objects.insert(try holderTable(txn), values: [.null])
            try txn.lists.insert(try holderTable(txn), texts, owner: owner, model, at: 0)
            try txn.commit(processName: "test", pid: 1)
        }
        let read = try file.beginRead()
        XCTAssertTrue(try read.lists.directory(try holderTable(read), texts, owner).isNested)
        try assertReads(model, read, owner)
        read.abort()
        let txn = try file.beginWrite()
        try txn.lists.removeAll(try holderTable(txn), texts, owner: owner)
        XCTAssertEqual(try txn.lists.count(try holderTable(txn), texts, owner: owner), 0)
        try txn.commit(processName: "test", pid: 1)
        XCTAssertEqual(try IntegrityCheck.run(file.beginRead()).listElements, 0)
    }

    func testEveryVersionOfANestedListReadsBackFromItsBeforeImages() throws {
        let file = try StorageFile.open(path: path, options: .init())
        var owner: ObjectKey = 0
        var versions: [(UInt64, [Value])] = []
        var model: [Value] = []
        func commit(_ body: (StorageTransaction, Table) throws -> Void) throws {
            let txn = try file.beginWrite()
            if try txn.table("Holder") == nil {
                try txn.store(classes: [holder])
                owner = try txn.objects.insert(try holderTable(txn), values: [.null])
            }
            try body(txn, try holderTable(txn))
            versions.append((try txn.commit(processName: "test", pid: 1), model))
        }
        try commit { txn, table in
            model = (0..<2_000).map { text($0 * 2) }
            try txn.lists.insert(table, texts, owner: owner, model, at: 0)
        }
        try commit { txn, table in
            try txn.lists.insert(table, texts, owner: owner, [text(1)], at: 700)
            model.insert(text(1), at: 700)
        }
        var rng = SplitMix64(seed: 3)
        try commit { txn, table in
            for i in 0..<400 {
                let at = Int(rng.next() % UInt64(model.count + 1))
                try txn.lists.insert(table, texts, owner: owner, [text(-i)], at: at)
                model.insert(text(-i), at: at)
            }
        }
        try commit { txn, table in
            for _ in 0..<300 {
                let at = Int(rng.next() % UInt64(model.count))
                try txn.lists.remove(table, texts, owner: owner, at: at)
                model.remove(at: at)
            }
        }
        try commit { txn, table in
            try txn.lists.removeAll(table, texts, owner: owner)
            model = []
        }
        for (version, expected) in versions {
            let copy = path + ".v\(version)"
            defer { removeStorageFile(copy) }
            _ = try file.writeCopy(atVersion: version, to: copy)
            let read = try StorageFile.open(path: copy, options: .init()).beginRead()
            try assertReads(expected, read, owner)
            XCTAssertEqual(try IntegrityCheck.run(read).listElements, expected.count, "version \(version)")
        }
    }

    func testAFollowerReplayingTheNewValuesOfANestedListReadsWhatTheOriginReads() throws {
        let origin = try StorageFile.open(path: path, options: .init())
        let follower = try StorageFile.open(path: path + ".follower", options: .init())
        defer { removeStorageFile(path + ".follower") }
        var owner: ObjectKey = 0
        var model: [Value] = []
        var rng = SplitMix64(seed: 11)
        // The commit that makes the file an origin records the whole file, as a snapshot.
        let edits: [(StorageTransaction, Table) throws -> Void] = [
            { txn, table in
                try txn.meta.setReplicationOrigin("o")
                try txn.meta.startRecordingNewValues()
                model = (0..<2_000).map { self.text($0) }
                try txn.lists.insert(table, self.texts, owner: owner, model, at: 0)
            },
            { txn, table in
                try txn.lists.insert(table, self.texts, owner: owner, [self.text(-1)], at: 900)
                model.insert(self.text(-1), at: 900)
            },
            { txn, table in
                for i in 0..<500 {
                    let at = Int(rng.next() % UInt64(model.count + 1))
                    try txn.lists.insert(table, self.texts, owner: owner, [self.text(5_000 + i)], at: at)
                    model.insert(self.text(5_000 + i), at: at)
                }
                for _ in 0..<200 {
                    let at = Int(rng.next() % UInt64(model.count))
                    try txn.lists.replace(table, self.texts, owner: owner, at: at, with: self.text(-at))
                    model[at] = self.text(-at)
                    let gone = Int(rng.next() % UInt64(model.count))
                    try txn.lists.remove(table, self.texts, owner: owner, at: gone)
                    model.remove(at: gone)
                }
            },
            { txn, table in
                try txn.lists.removeAll(table, self.texts, owner: owner)
                try txn.lists.insert(table, self.texts, owner: owner, [self.text(7)], at: 0)
                model = [self.text(7)]
            },
        ]
        do {
            let txn = try origin.beginWrite()
            try txn.store(classes: [holder])
            owner = try txn.objects.insert(try holderTable(txn), values: [.null])
            try txn.commit(processName: "test", pid: 1)
        }
        for edit in edits {
            let txn = try origin.beginWrite()
            try edit(txn, try holderTable(txn))
            let version = try txn.commit(processName: "test", pid: 1)
            let read = try origin.beginRead()
            let entry = try XCTUnwrap(try read.history.entry(version))
            read.abort()
            let replay = try follower.beginWrite()
            try replay.replay(entry, of: "o")
            try replay.commit(processName: "test", pid: 1)
            let copy = try follower.beginRead()
            try assertReads(model, copy, owner)
            XCTAssertEqual(try IntegrityCheck.run(copy).listElements, model.count, "version \(version)")
        }
    }

    func testAMissingOrDamagedNodeReadsAsDamagedNotShorter() throws {
        let txn = try StorageFile.open(path: path, options: .init()).beginWrite()
        defer { txn.abort() }
        try txn.store(classes: [holder])
        let table = try holderTable(txn)
        let owner = try txn.objects.insert(table, values: [.null])
        try txn.lists.insert(table, texts, owner: owner, (0..<3_000).map(text), at: 0)
        let dir = try txn.lists.directory(table, texts, owner)
        XCTAssertTrue(dir.isNested)
        let node = dir.entries[1]
        func assertDamaged(_ read: () throws -> Void, line: UInt = #line) {
            XCTAssertThrowsError(try read(), line: line) { error in
                XCTAssertEqual((error as? StorageError)?.code, .invalidDatabase, "\(error)", line: line)
                XCTAssertTrue("\(error)".contains("is damaged: the list 'Holder.texts' of object \(owner)"), "\(error)", line: line)
            }
        }
        // A node whose chunks hold fewer elements than the directory says.
        var short = try txn.lists.node(table, texts, owner, node)
        short.chunks[0].count -= 1
        try txn.lists.put(table, texts, key: ListStore.key(owner, chunk: node.id), short.encoded())
        assertDamaged { _ = try txn.lists.values(table, texts, owner: owner) }
        assertDamaged { _ = try txn.lists.insert(table, texts, owner: owner, [text(0)], at: dir.entries[0].count + 1) }
        // A chunk holding fewer elements than its node says.
        let first = try txn.lists.node(table, texts, owner, dir.entries[0]).chunks[0]
        try txn.lists.put(table, texts, key: ListStore.key(owner, chunk: first.id), ListEncoding.chunk([nil][...]))
        assertDamaged { _ = try txn.lists.insert(table, texts, owner: owner, [text(0)], at: 0) }
        assertDamaged { _ = try txn.lists.remove(table, texts, owner: owner, at: 0) }
        // A node that is gone.
        try txn.lists.deleteEntry(table, texts, key: ListStore.key(owner, chunk: node.id))
        assertDamaged { _ = try txn.lists.values(table, texts, owner: owner) }
        assertDamaged { _ = try txn.lists.value(table, texts, owner: owner, at: dir.entries[0].count) }
        assertDamaged { _ = try txn.lists.remove(table, texts, owner: owner, at: dir.entries[0].count + 5) }
        XCTAssertEqual(try txn.lists.value(table, texts, owner: owner, at: first.count), text(first.count), "the other nodes still read")
        XCTAssertThrowsError(try IntegrityCheck.run(txn)) { error in
            XCTAssertTrue("\(error)".contains("its list 'texts' cannot be read"), "\(error)")
        }
    }

    func testAFileOfAnOlderFormatKeepsFlatDirectories() throws {
        do {
            let file = try StorageFile.open(path: path, options: .init())
            let txn = try file.beginWrite()
            try txn.store(classes: [holder])
            _ = try txn.objects.insert(try holderTable(txn), values: [.null])
            try txn.commit(processName: "test", pid: 1)
            // Make it a format 3 file, as the Strata before nested directories wrote.
            let old = try file.beginWrite()
            let meta = try XCTUnwrap(old.database(MetaKeys.database))
            try MetaKeys.writeInteger(old.lmdb, meta, MetaKeys.format, UInt32(3))
            try old.lmdb.commit()
        }
        let file = try StorageFile.open(path: path, options: .init())
        let txn = try file.beginWrite()
        let table = try holderTable(txn)
        let owner = try XCTUnwrap(try txn.rows.scan(table).next()?.0)
        let model = (0..<3_000).map(text)
        try txn.lists.insert(table, texts, owner: owner, model, at: 0)
        let dir = try txn.lists.directory(table, texts, owner)
        XCTAssertFalse(dir.isNested)
        XCTAssertGreaterThan(dir.entries.count, ListEncoding.nodeCapacity)
        try assertReads(model, txn, owner)
    }
}
