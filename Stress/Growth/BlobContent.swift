import Foundation
import StrataStorage

/// The bytes of blob `id`: 64-bit words that follow from the id and their position, so a
/// reader checks a blob by sampling words, with no stored checksum. The size follows from
/// the id too (one to four quarters of the largest size), so freed runs of pages come in
/// several lengths.
enum BlobContent {
    /// The size of blob `id` when the largest is `maximum` bytes (a multiple of 32).
    static func size(id: Int, maximum: Int) -> Int {
        maximum / 4 * (1 + Int(SplitMix64.mix(UInt64(id)) % 4))
    }

    /// The bytes of blob `id`.
    static func make(id: Int, maximum: Int) -> Data {
        let count = size(id: id, maximum: maximum) / 8
        var data = Data(count: count * 8)
        data.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in 0..<count { words[index] = word(id: id, index: index) }
        }
        return data
    }

    /// Whether `data` is blob `id`: its size, and its first, last and 62 evenly spread words.
    static func isIntact(_ data: Data, id: Int, maximum: Int) -> Bool {
        let count = size(id: id, maximum: maximum) / 8
        guard data.count == count * 8 else { return false }
        return data.withUnsafeBytes { raw in
            let positions = [0, count - 1] + (1...62).map { $0 * count / 63 }
            return positions.allSatisfy { raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self) == word(id: id, index: $0) }
        }
    }

    /// Word `index` of blob `id`.
    private static func word(id: Int, index: Int) -> UInt64 {
        SplitMix64.mix(UInt64(id)) &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
    }
}
