import CStrataKeyOrder
import LMDB
import StrataStorage
import XCTest

/// Strata's comparison of keys and duplicate values (`strata_key_compare`) is LMDB's own
/// byte order, so that files sort the same for programs that do not set it.
final class KeyOrderTests: StrataTestCase {
    /// Byte strings of 1 to 12 bytes, a third of them 8 bytes long, bytes over 0x7f included.
    private func randomValues(_ count: Int, seed: UInt64) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let length = i % 3 == 0 ? 8 : Int.random(in: 1...12, using: &rng)
            // Few distinct bytes, so that values share prefixes and differ late.
            return (0..<length).map { _ in [0, 1, 0x7f, 0x80, 0xfe, 0xff].randomElement(using: &rng)! }
        }
    }

    func testItOrdersAsLMDBsBytewiseComparison() {
        let values = randomValues(400, seed: 7)
        for a in values {
            for b in values {
                let expected = a.lexicographicallyPrecedes(b) ? -1 : (b.lexicographicallyPrecedes(a) ? 1 : 0)
                let order = a.withUnsafeBytes { pa in
                    b.withUnsafeBytes { pb in
                        var va = MDB_val(mv_size: pa.count, mv_data: UnsafeMutableRawPointer(mutating: pa.baseAddress))
                        var vb = MDB_val(mv_size: pb.count, mv_data: UnsafeMutableRawPointer(mutating: pb.baseAddress))
                        return strata_key_compare(&va, &vb).signum()
                    }
                }
                XCTAssertEqual(Int(order), expected, "\(a) against \(b)")
            }
        }
    }

    func testKeysAndDuplicatesComeBackInByteOrder() throws {
        let path = directory.appendingPathComponent("order.mdb").path
        let env = try Environment(path: path, options: .init())
        let keys = randomValues(2_000, seed: 11), duplicates = randomValues(500, seed: 12)
        let txn = try Transaction(env, readOnly: false)
        let plain = try XCTUnwrap(txn.openDatabase("plain", flags: .create))
        let sorted = try XCTUnwrap(txn.openDatabase("sorted", flags: [.create, .duplicateSort]))
        for key in keys {
            try key.withUnsafeBytes { try txn.put(plain, key: $0, value: $0) }
        }
        let one: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        for value in duplicates {
            try one.withUnsafeBytes { k in try value.withUnsafeBytes { try txn.put(sorted, key: k, value: $0) } }
        }
        try txn.commit()

        let reader = try Transaction(env, readOnly: true)
        var walked: [[UInt8]] = []
        try reader.withCursor(try XCTUnwrap(reader.openDatabase("plain"))) { cursor in
            try cursor.forEach { key, _ in walked.append(Array(key)); return true }
        }
        XCTAssertEqual(walked, Array(Set(keys)).sorted { $0.lexicographicallyPrecedes($1) })
        var walkedDuplicates: [[UInt8]] = []
        try one.withUnsafeBytes { k in
            try reader.withCursor(try XCTUnwrap(reader.openDatabase("sorted"))) { cursor in
                try cursor.forEachDuplicate(of: k) { walkedDuplicates.append(Array($0)) }
            }
        }
        XCTAssertEqual(walkedDuplicates, Array(Set(duplicates)).sorted { $0.lexicographicallyPrecedes($1) })
    }
}
