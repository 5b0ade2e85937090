/// Object keys put in table order (ascending, each once), as a walk over the rows wants them:
/// a least-significant-digit radix sort of the bytes in which the keys differ, so that the
/// keys an index hands out in value order cost a few passes over them rather than a
/// comparison sort's `n log n` comparisons through a closure.
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

    /// `keys` (at least two) ascending: the keys less the least of them are sorted a byte at a
    /// time, from the lowest byte up to the highest byte in which any of them differ.
    private static func radixSorted(_ keys: [ObjectKey]) -> [ObjectKey] {
        var least = keys[0], greatest = keys[0]
        for key in keys {
            least = min(least, key)
            greatest = max(greatest, key)
        }
        let span = greatest - least
        let passes = (UInt64.bitWidth - span.leadingZeroBitCount + 7) / 8
        var a = keys.map { $0 - least }
        var b = a
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { starts in
            for pass in 0..<passes {
                let shift = UInt64(8 * pass)
                a.withUnsafeBufferPointer { from in
                    b.withUnsafeMutableBufferPointer { to in
                        starts.initialize(repeating: 0)
                        for x in from { starts[Int(truncatingIfNeeded: x >> shift) & 0xFF] += 1 }
                        var next = 0
                        for digit in 0..<256 {
                            let count = starts[digit]
                            starts[digit] = next
                            next += count
                        }
                        for x in from {
                            let digit = Int(truncatingIfNeeded: x >> shift) & 0xFF
                            to[starts[digit]] = x
                            starts[digit] += 1
                        }
                    }
                }
                swap(&a, &b)
            }
        }
        a.withUnsafeMutableBufferPointer { k in
            for i in k.indices { k[i] += least }
        }
        return a
    }
}
