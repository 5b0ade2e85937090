import StrataQuery
import StrataStorage

/// Orders rows by sort keys straight from their bytes (no decoding of strings or data), with
/// the same order as `Value.compare`: null first, numbers numerically, strings and data by
/// their bytes (UTF-8 order).
enum RowOrdering {
    /// Negative, zero or positive as row `a` sorts before, with or after row `b`.
    static func compare(_ a: RowView, _ b: RowView, by keys: [SortKey]) -> Int {
        for key in keys {
            let c = compare(a, b, key.property)
            if c != 0 { return key.ascending ? c : -c }
        }
        return 0
    }

    /// The same for one key whose rows may be missing: a nil link on a key path sorts after
    /// every object (so last ascending, first descending), as in realm-core.
    static func compare(_ a: RowView?, _ b: RowView?, _ p: PropertySchema) -> Int {
        guard let a, let b else { return a == nil ? (b == nil ? 0 : 1) : -1 }
        return compare(a, b, p)
    }

    private static func compare(_ a: RowView, _ b: RowView, _ p: PropertySchema) -> Int {
        let slot = p.id
        let aNull = a.isNull(slot) || (p.isOptional && !a.hasSlot(slot))
        let bNull = b.isNull(slot) || (p.isOptional && !b.hasSlot(slot))
        if aNull || bNull { return aNull == bNull ? 0 : (aNull ? -1 : 1) }
        switch p.type {
        case .int:
            let x = a.int(slot), y = b.int(slot)
            return x < y ? -1 : (x == y ? 0 : 1)
        case .double where !a.double(slot).isNaN && !b.double(slot).isNaN:
            let x = a.double(slot), y = b.double(slot)
            return x < y ? -1 : (x == y ? 0 : 1)
        case .string, .data:
            return compareBytes(a.slotBytes(slot), b.slotBytes(slot))
        default:
            return Value.compare(a.value(p), b.value(p))
        }
    }
}

/// Puts the first `k` objects of `keys` in sort order, in place, reading rows through `row`.
/// The rest keep their relative order after them. Stable: equal rows keep the order of `keys`.
/// Sort keys through links (`owner.name`) read the row `follow` reaches from each object's.
enum PartialSort {
    static func orderPrefix(_ keys: inout [ObjectKey], count k: Int, by sortKeys: [SortKey],
                            row: (ObjectKey) throws -> RowView?,
                            follow: ((RowView, SortKey) throws -> RowView?)? = nil) throws {
        let n = keys.count
        let k = Swift.min(k, n)
        var rows: [RowView?] = []
        rows.reserveCapacity(n)
        for key in keys { rows.append(try row(key)) }
        // Per sort key through links, the linked row of each object (nil: a nil link).
        var linked: [[RowView?]?] = Array(repeating: nil, count: sortKeys.count)
        if let follow {
            for (j, key) in sortKeys.enumerated() where !key.path.isEmpty {
                var targets: [RowView?] = []
                targets.reserveCapacity(n)
                for r in rows { targets.append(try r.flatMap { try follow($0, key) }) }
                linked[j] = targets
            }
        }
        let throughLinks = linked.contains { $0 != nil }
        func compare(_ i: Int, _ j: Int, _ a: RowView, _ b: RowView) -> Int {
            guard throughLinks else { return RowOrdering.compare(a, b, by: sortKeys) }
            for (m, key) in sortKeys.enumerated() {
                let c = linked[m].map { RowOrdering.compare($0[i], $0[j], key.property) } ?? RowOrdering.compare(a, b, by: [key])
                if c != 0 { return key.ascending || linked[m] == nil ? c : -c }
            }
            return 0
        }
        func before(_ i: Int, _ j: Int) -> Bool {
            guard let a = rows[i], let b = rows[j] else { return rows[i] != nil ? false : (rows[j] != nil || i < j) }
            let c = compare(i, j, a, b)
            return c < 0 || (c == 0 && i < j)
        }
        var chosen: [Int]
        if k * 4 >= n {
            chosen = Array(0..<n).sorted(by: before)
        } else {
            // A max-heap of the k first positions seen so far; its root is the worst of them.
            var heap: [Int] = []
            heap.reserveCapacity(k + 1)
            for i in 0..<n {
                if heap.count < k {
                    heap.append(i)
                    siftUp(&heap, heap.count - 1, before)
                } else if before(i, heap[0]) {
                    heap[0] = i
                    siftDown(&heap, 0, before)
                }
            }
            chosen = heap.sorted(by: before)
        }
        if chosen.count == n {
            keys = chosen.map { keys[$0] }
            return
        }
        var taken = [Bool](repeating: false, count: n)
        for i in chosen { taken[i] = true }
        var ordered = chosen.map { keys[$0] }
        ordered.reserveCapacity(n)
        for i in 0..<n where !taken[i] { ordered.append(keys[i]) }
        keys = ordered
    }

    private static func siftUp(_ heap: inout [Int], _ index: Int, _ before: (Int, Int) -> Bool) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(heap[parent], heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private static func siftDown(_ heap: inout [Int], _ index: Int, _ before: (Int, Int) -> Bool) {
        var parent = index
        while true {
            var worst = parent
            for child in [2 * parent + 1, 2 * parent + 2] where child < heap.count && before(heap[worst], heap[child]) {
                worst = child
            }
            if worst == parent { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }
}
