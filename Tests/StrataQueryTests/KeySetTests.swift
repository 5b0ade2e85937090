import StrataStorage
import XCTest
@testable import StrataQuery

/// The key sets a semi-join tests members against: a bitset over dense keys, the sorted keys
/// otherwise, with the same answers.
final class KeySetTests: XCTestCase {
    private func assertSameAnswers(_ keys: [ObjectKey], probing probes: [ObjectKey], file: StaticString = #filePath, line: UInt = #line) {
        let set = KeySet(ascending: keys), model = Set(keys)
        for probe in probes + keys {
            XCTAssertEqual(set.contains(probe), model.contains(probe), "\(probe)", file: file, line: line)
        }
    }

    func testDenseAndSparseKeysAnswerAsASetWould() {
        let edges: [ObjectKey] = [0, 1, 62, 63, 64, 65, 127, 128, 999, 1_000, 1_001, .max - 1, .max]
        assertSameAnswers([], probing: edges)
        assertSameAnswers([5], probing: edges + [4, 6])
        // Dense: every third key of a span (a bit per key of the span).
        let base: ObjectKey = 1 << 63
        let dense = Array(stride(from: base + 100, to: base + 4_000, by: 3))
        assertSameAnswers(dense, probing: edges + dense.map { $0 + 1 } + dense.map { $0 - 1 } + [base + 4_000, base + 99])
        // Sparse: keys far apart (the sorted keys), the extremes included.
        let sparse: [ObjectKey] = [0, 1 << 20, 1 << 40, base + 7, .max]
        assertSameAnswers(sparse, probing: edges + sparse.map { $0 &+ 1 } + sparse.map { $0 &- 1 })
    }
}
