/// The rows a class had when a commit cleared it, as `ObjectImages` records them: one walk of
/// the table in ascending key order appends each row to one buffer, so a clear of n objects
/// costs three appends per object rather than an array and a dictionary entry each.
struct ClearedRows: Equatable, Sendable {
    /// The objects' keys, ascending.
    private(set) var keys: [ObjectKey] = []
    /// Where each row ends in `bytes`.
    private var ends: [Int] = []
    /// The rows one after another, unsealed.
    private var bytes: [UInt8] = []

    /// Makes room for `count` more rows.
    mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(keys.count + count)
        ends.reserveCapacity(ends.count + count)
    }

    /// Appends the row of object `key`, which must be greater than every key so far; its seal
    /// flag is cleared.
    mutating func append(_ key: ObjectKey, _ row: UnsafeRawBufferPointer) {
        precondition(keys.last.map { key > $0 } ?? true, "cleared rows are recorded in ascending key order")
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

    /// The position of `key` in `keys`, if recorded (a binary search).
    func index(of key: ObjectKey) -> Int? {
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }
}
