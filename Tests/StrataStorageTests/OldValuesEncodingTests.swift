import XCTest
@testable import StrataStorage

/// The encoding of before-images (`ObjectImages`, docs/FILE-FORMAT.md "Old values"): lists as
/// their old directory and the chunks a commit rewrote, and the damage it refuses.
final class OldValuesEncodingTests: XCTestCase {
    /// A directory of a list with chunks 0 (2 elements) and 3 (1 element).
    private var directory: [UInt8] {
        var dir = ListEncoding.Directory()
        dir.total = 3
        dir.nextChunk = 4
        dir.entries = [(0, 2), (3, 1)]
        return dir.encoded()
    }

    private func oldValues(_ list: ObjectImages.List) -> ObjectImages {
        var old = ObjectImages()
        old.record(list: list, of: "Dog", 7, property: 2)
        return old
    }

    func testAListImageRoundTripsWithItsCountFromTheDirectory() throws {
        let chunk = ListEncoding.chunk([[1, 2], nil][...])
        let list = ObjectImages.List(directory: directory, chunks: [0: chunk], mapKeys: [9, 9])
        let decoded = try XCTUnwrap(ObjectImages(decoding: oldValues(list).encoded()))
        XCTAssertEqual(decoded, oldValues(list))
        XCTAssertEqual(decoded.classes["Dog"]?[7]?.lists[2]?.count, 3)
        let empty = try XCTUnwrap(ObjectImages(decoding: oldValues(ObjectImages.List(directory: [])).encoded()))
        XCTAssertEqual(empty.classes["Dog"]?[7]?.lists[2]?.count, 0, "a list that had no directory was empty")
    }

    func testAChunkTheDirectoryDoesNotNameOrADamagedDirectoryDoesNotDecode() {
        let named = oldValues(ObjectImages.List(directory: directory, chunks: [3: [0]]))
        XCTAssertNotNil(ObjectImages(decoding: named.encoded()))
        XCTAssertNil(ObjectImages(decoding: oldValues(ObjectImages.List(directory: directory, chunks: [1: [0]])).encoded()),
                     "chunk 1 is not in the directory")
        var damaged = directory
        damaged[0] = 5  // a total the chunks' counts do not add up to
        XCTAssertNil(ObjectImages(decoding: oldValues(ObjectImages.List(directory: damaged)).encoded()))
        let bytes = named.encoded()
        XCTAssertNil(ObjectImages(decoding: Array(bytes.dropLast())), "truncated")
    }

    func testANestedListsImageHoldsItsNodesAndTheChunksOfTheNodesItHolds() throws {
        // Nodes 5 (chunks 0 and 3) and 6 (chunk 4).
        var dir = ListEncoding.Directory()
        dir.total = 4
        dir.nextChunk = 7
        dir.isNested = true
        dir.entries = [(5, 3), (6, 1)]
        let node5 = ListEncoding.Node([(0, 2), (3, 1)]).encoded()
        let list = ObjectImages.List(directory: dir.encoded(), chunks: [5: node5, 3: [0]])
        XCTAssertEqual(try XCTUnwrap(ObjectImages(decoding: oldValues(list).encoded())), oldValues(list))
        XCTAssertEqual(list.count, 4)
        XCTAssertTrue(list.lacksChunk(0), "a chunk of a node the image holds")
        XCTAssertTrue(list.lacksChunk(6))
        XCTAssertFalse(list.lacksChunk(4), "a chunk of a node the image does not hold: the node stands for it")
        XCTAssertFalse(list.lacksChunk(3), "held")
        XCTAssertNil(ObjectImages(decoding: oldValues(ObjectImages.List(directory: dir.encoded(), chunks: [3: [0]])).encoded()),
                     "chunk 3 without its node")
        XCTAssertNil(ObjectImages(decoding: oldValues(ObjectImages.List(directory: dir.encoded(), chunks: [5: node5, 4: [0]])).encoded()),
                     "chunk 4 is in node 6, which the image does not hold")
    }

    func testTheRowsOfAClearedClassMergeByKeyWithObjectsRecordedBeforeTheClear() throws {
        let list = ObjectImages.List(directory: directory)
        var old = ObjectImages()
        [UInt8(1), 9].withUnsafeBytes { old.record(row: $0, of: "Dog", 9) }
        [UInt8(1), 5].withUnsafeBytes { old.record(row: $0, of: "Dog", 5) }
        old.record(list: list, of: "Dog", 7, property: 2)
        [UInt8(1), 1].withUnsafeBytes { old.record(row: $0, of: "Cat", 1) }
        old.recordClearedRows(of: "Dog", expected: 4) { record in
            for key: ObjectKey in [3, 5, 7, 8] {
                let row: [UInt8] = [1 | RowEncoder.sealedFlag, UInt8(key), 0]
                guard row.withUnsafeBytes({ record(key, $0) }) else { return }
            }
        }
        let decoded = try XCTUnwrap(ObjectImages(decoding: old.encoded()))
        let dogs = try XCTUnwrap(decoded.classes["Dog"])
        XCTAssertEqual(dogs.keys.sorted(), [3, 5, 7, 8, 9])
        XCTAssertEqual(dogs[3]?.row, [1, 3, 0], "a cleared row, its seal flag cleared")
        XCTAssertEqual(dogs[5]?.row, [1, 5], "an object recorded before the clear keeps its row")
        XCTAssertEqual(dogs[7], ObjectImages.Object(row: [1, 7, 0], lists: [2: list]), "lists recorded before, row by the clear")
        XCTAssertEqual(dogs[9]?.row, [1, 9])
        XCTAssertEqual(decoded.classes["Cat"]?.keys.sorted(), [1])
    }

    func testRowsRecordedOutOfKeyOrderEncodeByKeyKeepingEachObjectsFirstRow() throws {
        var old = ObjectImages()
        for (key, byte) in [(9, 1), (2, 2), (9, 3), (5, 4)] as [(ObjectKey, UInt8)] {
            [UInt8(1), byte].withUnsafeBytes { old.record(row: $0, of: "Dog", key) }
        }
        let decoded = try XCTUnwrap(ObjectImages(decoding: old.encoded()))
        XCTAssertEqual(decoded, old)
        XCTAssertEqual(decoded.classes["Dog"]?.mapValues(\.row), [2: [1, 2], 5: [1, 4], 9: [1, 1]])
    }

    func testACommitKeepsTheImagesOfTheObjectsItModifiedOrDeletedOnly() throws {
        var old = ObjectImages()
        for key: ObjectKey in [4, 1, 8, 6] {
            [UInt8(1), UInt8(key)].withUnsafeBytes { old.record(row: $0, of: "Dog", key) }
        }
        old.record(list: ObjectImages.List(directory: directory), of: "Dog", 3, property: 2)
        [UInt8(1), 1].withUnsafeBytes { old.record(row: $0, of: "Cat", 1) }
        var changes = ChangeSet()
        changes.classes["Dog"] = ClassChanges(inserted: [8], deleted: [4], modified: [1: 2, 6: 2], cleared: false)
        let kept = old.kept(for: changes)
        XCTAssertEqual(kept.classes["Dog"]?.keys.sorted(), [1, 4, 6], "8 was inserted, 3's list no longer counts as changed")
        XCTAssertNil(kept.classes["Cat"], "a class the commit did not change")
        changes.classes["Dog"] = ClassChanges(inserted: [], deleted: [4, 8, 3], modified: [1: 2, 6: 2], cleared: false)
        XCTAssertEqual(old.kept(for: changes).classes["Dog"], old.classes["Dog"], "every image kept")
    }
}
