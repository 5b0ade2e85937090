/// Object keys put in table order (ascending, each once), as a walk over the rows wants them,
/// or the order that puts them so: a least-significant-digit radix sort of the bytes in which
/// the keys differ, so that the keys an index hands out in value order (or a commit met) cost
/// a few passes over them rather than a comparison sort's `n log n` comparisons through a
/// closure.
package enum KeyOrder {
    /// Below this many keys a comparison sort is as quick.
    static let radixThreshold = 64

    /// `keys` ascending, without repeats.
    package static func ascendingUnique(_ keys: [ObjectKey]) -> [ObjectKey] {
        if keys.count < 2 { return keys }
        var sorted = keys.count < radixThreshold ? keys.sorted() : radixSorted(keys)
        // Repeats lie next to each other now: keep the first of each run.
        var kept = 1
        sorted.withUnsafeMutableBufferPointer { k in
            for i in 1..<k.count where k[i] != k[kept - 1] {
                k[kept] = k[i]
                kept += 1
            }
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }

    /// The positions of `keys` in ascending key order, equal keys in the order they have in
    /// `keys` (a stable sort): `keys[p[0]] <= keys[p[1]] <= ...`. What the history's
    /// records want, which list the objects a commit met in the order it met them.
    package static func ascendingPositions(_ keys: [ObjectKey]) -> [Int] {
        if keys.count < radixThreshold { return keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) } }
        var sorted = keys
        var positions = Array(keys.indices)
        radixSort(&sorted, carrying: &positions)
        return positions
    }

    /// `keys` (at least two) ascending.
    private static func radixSorted(_ keys: [ObjectKey]) -> [ObjectKey] {
        var sorted = keys
        var none: [Int] = []
        radixSort(&sorted, carrying: &none)
        return sorted
    }

    /// Sorts `keys` (at least two) ascending, moving `positions` (one per key, or none) along
    /// with them, equal keys keeping their order: the keys less the least of them are sorted a
    /// byte at a time, from the lowest byte up to the highest byte in which any of them differ.
    private static func radixSort(_ keys: inout [ObjectKey], carrying positions: inout [Int]) {
        var least = keys[0], greatest = keys[0]
        for key in keys {
            least = min(least, key)
            greatest = max(greatest, key)
        }
        let span = greatest - least
        let passes = (UInt64.bitWidth - span.leadingZeroBitCount + 7) / 8
        let carries = !positions.isEmpty
        for i in keys.indices { keys[i] -= least }
        var otherKeys = keys, otherPositions = positions
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { starts in
            for pass in 0..<passes {
                let shift = UInt64(8 * pass)
                keys.withUnsafeBufferPointer { from in
                    otherKeys.withUnsafeMutableBufferPointer { to in
                        positions.withUnsafeBufferPointer { fromPositions in
                            otherPositions.withUnsafeMutableBufferPointer { toPositions in
                                starts.initialize(repeating: 0)
                                for x in from { starts[Int(truncatingIfNeeded: x >> shift) & 0xFF] += 1 }
                                var next = 0
                                for digit in 0..<256 {
                                    let count = starts[digit]
                                    starts[digit] = next
                                    next += count
                                }
                                for i in from.indices {
                                    let x = from[i]
                                    let digit = Int(truncatingIfNeeded: x >> shift) & 0xFF
                                    to[starts[digit]] = x
                                    if carries { toPositions[starts[digit]] = fromPositions[i] }
                                    starts[digit] += 1
                                }
                            }
                        }
                    }
                }
                swap(&keys, &otherKeys)
                swap(&positions, &otherPositions)
            }
        }
        for i in keys.indices { keys[i] += least }
    }
}
