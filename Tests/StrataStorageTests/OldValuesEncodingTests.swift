import XCTest
@testable import StrataStorage

/// The encoding of before-images (`OldValues`, docs/FILE-FORMAT.md "Old values"): lists as
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

    private func oldValues(_ list: OldValues.List) -> OldValues {
        var old = OldValues()
        old.classes["Dog"] = [7: OldValues.Object(row: nil, lists: [2: list])]
        return old
    }

    func testAListImageRoundTripsWithItsCountFromTheDirectory() throws {
        let chunk = ListEncoding.chunk([[1, 2], nil][...])
        let list = OldValues.List(directory: directory, chunks: [0: chunk], mapKeys: [9, 9])
        let decoded = try XCTUnwrap(OldValues(decoding: oldValues(list).encoded()))
        XCTAssertEqual(decoded, oldValues(list))
        XCTAssertEqual(decoded.classes["Dog"]?[7]?.lists[2]?.count, 3)
        let empty = try XCTUnwrap(OldValues(decoding: oldValues(OldValues.List(directory: [])).encoded()))
        XCTAssertEqual(empty.classes["Dog"]?[7]?.lists[2]?.count, 0, "a list that had no directory was empty")
    }

    func testAChunkTheDirectoryDoesNotNameOrADamagedDirectoryDoesNotDecode() {
        let named = oldValues(OldValues.List(directory: directory, chunks: [3: [0]]))
        XCTAssertNotNil(OldValues(decoding: named.encoded()))
        XCTAssertNil(OldValues(decoding: oldValues(OldValues.List(directory: directory, chunks: [1: [0]])).encoded()),
                     "chunk 1 is not in the directory")
        var damaged = directory
        damaged[0] = 5  // a total the chunks' counts do not add up to
        XCTAssertNil(OldValues(decoding: oldValues(OldValues.List(directory: damaged)).encoded()))
        let bytes = named.encoded()
        XCTAssertNil(OldValues(decoding: Array(bytes.dropLast())), "truncated")
    }
}
