import XCTest
@testable import StrataStorage

final class KeyOrderTests: XCTestCase {
    /// `ascendingUnique` against a comparison sort, for keys whose spread needs one to eight
    /// bytes, with repeats, on both sides of the size where the radix sort takes over.
    func testKeysComeOutAscendingEachOnceWhateverTheirSpread() {
        var generator = SystemRandomNumberGenerator()
        for bytes in 1...8 {
            let spread: UInt64 = bytes == 8 ? .max : (1 << UInt64(8 * bytes)) - 1
            let base: UInt64 = bytes == 8 ? 0 : UInt64.random(in: 0 ... (.max - spread), using: &generator)
            for count in [2, KeyOrder.radixThreshold - 1, KeyOrder.radixThreshold, 1_000] {
                var keys = (0..<count).map { _ in base + UInt64.random(in: 0...spread, using: &generator) }
                keys += keys.prefix(count / 3)  // repeats
                keys.shuffle(using: &generator)
                XCTAssertEqual(KeyOrder.ascendingUnique(keys), Array(Set(keys)).sorted(), "\(bytes) bytes of spread, \(count) keys")
            }
        }
    }

    func testTheExtremesAndTrivialInputsSortToo() {
        XCTAssertEqual(KeyOrder.ascendingUnique([]), [])
        XCTAssertEqual(KeyOrder.ascendingUnique([7]), [7])
        let extremes: [ObjectKey] = Array(repeating: [UInt64.max, 0, 1 << 63, UInt64.max - 1], count: 40).flatMap { $0 }
        XCTAssertEqual(KeyOrder.ascendingUnique(extremes), [0, 1 << 63, UInt64.max - 1, UInt64.max])
        XCTAssertEqual(KeyOrder.ascendingUnique(Array(repeating: 5, count: 100)), [5])
    }

    /// `ascendingPositions` against a stable comparison sort of the positions, for the same
    /// spreads and sizes, repeats keeping the order they had.
    func testPositionsPutTheKeysInOrderKeepingTheOrderOfEqualKeys() {
        var generator = SystemRandomNumberGenerator()
        for bytes in 1...8 {
            let spread: UInt64 = bytes == 8 ? .max : (1 << UInt64(8 * bytes)) - 1
            let base: UInt64 = bytes == 8 ? 0 : UInt64.random(in: 0 ... (.max - spread), using: &generator)
            for count in [0, 1, 2, KeyOrder.radixThreshold - 1, KeyOrder.radixThreshold, 1_000] {
                var keys = (0..<count).map { _ in base + UInt64.random(in: 0...spread, using: &generator) }
                keys += keys.prefix(count / 3)
                keys.shuffle(using: &generator)
                let expected = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
                XCTAssertEqual(KeyOrder.ascendingPositions(keys), expected, "\(bytes) bytes of spread, \(count) keys")
            }
        }
        XCTAssertEqual(KeyOrder.ascendingPositions(Array(repeating: 9, count: 100)), Array(0..<100))
    }
}
