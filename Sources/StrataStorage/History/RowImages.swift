/// Rows of one class's objects as `ObjectImages` records them: appended to one buffer, so that
/// recording a row costs three appends rather than an array and a dictionary entry of its own.
/// The rows keep the order they were appended in; `ascendingOrder()` gives them by key.
struct RowImages: Sendable {
    /// The objects' keys, in the order their rows were appended.
    private(set) var keys: [ObjectKey] = []
    /// Where each row ends in `bytes`.
    private var ends: [Int] = []
    /// The rows one after another, unsealed.
    private var bytes: [UInt8] = []
    /// Whether `keys` ascend.
    private(set) var ascends = true

    /// How many rows there are.
    var count: Int { keys.count }

    /// Makes room for `count` more rows.
    mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(keys.count + count)
        ends.reserveCapacity(ends.count + count)
    }

    /// Appends the row of object `key`, its seal flag cleared.
    mutating func append(_ key: ObjectKey, _ row: UnsafeRawBufferPointer) {
        if let last = keys.last, key <= last { ascends = false }
        let start = bytes.count
        bytes.append(bytes: row)
        if !row.isEmpty { bytes[start] &= ~RowEncoder.sealedFlag }
        keys.append(key)
        ends.append(bytes.count)
    }

    /// The row at position `i` (of `keys`).
    func row(at i: Int) -> ArraySlice<UInt8> {
        bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]]
    }

    /// The keys in ascending order, each with the position of its row.
    func ascendingKeys() -> [(key: ObjectKey, position: Int)] {
        if ascends { return keys.enumerated().map { (key: $0.element, position: $0.offset) } }
        return KeyOrder.ascendingPositions(keys).map { (key: keys[$0], position: $0) }
    }

    /// The position of `key` in `keys`, if it has a row (a binary search while keys ascend).
    func index(of key: ObjectKey) -> Int? {
        guard ascends else { return keys.firstIndex(of: key) }
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }
}

extension RowImages: Equatable {
    /// Equal when they hold the same rows under the same keys, in whatever order appended.
    static func == (a: RowImages, b: RowImages) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a.ascendingKeys(), b.ascendingKeys()).allSatisfy { x, y in
            x.key == y.key && a.row(at: x.position) == b.row(at: y.position)
        }
    }
}
