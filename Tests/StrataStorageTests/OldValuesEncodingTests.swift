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
        dir.chunks = [(0, 2), (3, 1)]
        return dir.encoded()
    }

    private func oldValues(_ list: ObjectImages.List) -> ObjectImages {
        var old = ObjectImages()
        old.classes["Dog"] = [7: ObjectImages.Object(row: nil, lists: [2: list])]
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
}
