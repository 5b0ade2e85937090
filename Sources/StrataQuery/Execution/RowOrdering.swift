import StrataStorage

/// Orders rows by sort keys straight from their bytes (no decoding of strings or data), with
/// the same order as `Value.compare`: null first, numbers numerically, strings and data by
/// their bytes (UTF-8 order).
enum RowOrdering {
    /// One sort key as compared: the slot read and the direction.
    struct Key {
        let slot: Slot
        let ascending: Bool
    }

    /// The keys of `sortKeys` as compared (slots are plain values: no names to copy per
    /// comparison).
    static func keys(_ sortKeys: [SortKey]) -> [Key] {
        sortKeys.map { Key(slot: Slot($0.property), ascending: $0.ascending) }
    }

    /// Negative, zero or positive as row `a` sorts before, with or after row `b`.
    @inline(__always)
    static func compare(_ a: RowView, _ b: RowView, by keys: [Key]) -> Int {
        for key in keys {
            let c = compare(a, b, key.slot)
            if c != 0 { return key.ascending ? c : -c }
        }
        return 0
    }

    /// The value of an int key in `row`, or nil when the key is not an int or the row holds
    /// null there: what `compare` compares first, read without its general dispatch.
    @inline(__always)
    static func int(_ row: RowView, _ key: Key) -> Int64? {
        let slot = key.slot
        // A pattern, not `==`: PropertyType's `==` from another module is a generic call.
        guard case .int = slot.type, !row.isNull(slot.id), !slot.isOptional || row.hasSlot(slot.id) else { return nil }
        return row.int(slot.id)
    }

    /// The same for one key whose rows may be missing: a nil link on a key path sorts after
    /// every object (so last ascending, first descending), as in realm-core.
    static func compare(_ a: RowView?, _ b: RowView?, _ slot: Slot) -> Int {
        guard let a, let b else { return a == nil ? (b == nil ? 0 : 1) : -1 }
        return compare(a, b, slot)
    }

    private static func compare(_ a: RowView, _ b: RowView, _ p: Slot) -> Int {
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
package enum PartialSort {
    /// An object being ordered: its position in `keys` and its row (nil: missing, sorts first).
    typealias Entry = (index: Int, row: RowView?)

    /// How many objects are put in order when the first ones are read: enough for a page of
    /// results, far fewer than a whole class.
    package static let firstBatch = 128

    static func orderPrefix(_ keys: inout [ObjectKey], count k: Int, by sortKeys: [SortKey],
                            row: (ObjectKey) throws -> RowView?,
                            follow: ((RowView, SortKey) throws -> RowView?)? = nil) throws {
        let n = keys.count
        let k = Swift.min(k, n)
        let compared = RowOrdering.keys(sortKeys)
        let chosen: [Int]
        if sortKeys.contains(where: { !$0.path.isEmpty }), let follow {
            chosen = try orderThroughLinks(keys, k, sortKeys, row: row, follow: follow)
        } else if k * 4 >= n {
            var entries: [Entry] = []
            entries.reserveCapacity(n)
            for (i, key) in keys.enumerated() { entries.append((i, try row(key))) }
            chosen = entries.sorted { before($0, $1, compared) }.map(\.index)
        } else {
            var top = TopK(k, by: sortKeys)
            for (i, key) in keys.enumerated() { top.offer((i, try row(key))) }
            chosen = top.ordered()
        }
        reorder(&keys, first: chosen)
    }

    /// The k first of the objects offered to it, one at a time: a max-heap of the k best
    /// seen so far (its root is the worst of them), so only k rows are held, whatever the
    /// number of objects. Sort keys must not go through links.
    ///
    /// Most objects offered to a full heap sort after its root on the first key alone; when
    /// that key is an int, its value in the root's row is kept, so such an object is turned
    /// away by reading one int instead of a full comparison.
    struct TopK {
        private let k: Int
        private let keys: [RowOrdering.Key]
        /// The first sort key, when there is one (read on every offer).
        private let firstKey: RowOrdering.Key?
        private var heap: [Entry] = []
        /// The root's first key, once the heap is full and when that key is a non-null int.
        private var rootInt: Int64?

        init(_ k: Int, by sortKeys: [SortKey]) {
            self.k = k
            keys = RowOrdering.keys(sortKeys)
            firstKey = keys.first
            heap.reserveCapacity(k + 1)
        }

        /// Considers one object; objects must be offered in ascending position.
        @inline(__always)
        mutating func offer(_ entry: Entry) {
            if let bound = rootInt, let key = firstKey, let row = entry.row, let x = RowOrdering.int(row, key),
               key.ascending ? x > bound : x < bound {
                return  // after the root on the first key: after all k kept
            }
            keep(entry)
        }

        /// Puts `entry` in the heap when it sorts before the root (or the heap is not full).
        private mutating func keep(_ entry: Entry) {
            let keys = keys
            if heap.count < k {
                heap.append(entry)
                siftUp(&heap, heap.count - 1) { before($0, $1, keys) }
            } else {
                guard k > 0, before(entry, heap[0], keys) else { return }
                heap[0] = entry
                siftDown(&heap, 0) { before($0, $1, keys) }
            }
            if k > 0, heap.count == k, let key = firstKey, let row = heap[0].row { rootInt = RowOrdering.int(row, key) }
        }

        /// The positions of the k first objects offered, in order.
        func ordered() -> [Int] { heap.sorted { before($0, $1, keys) }.map(\.index) }
    }

    /// Whether `a` sorts before `b`: by the keys, then by position; missing rows first.
    @inline(__always)
    private static func before(_ a: Entry, _ b: Entry, _ keys: [RowOrdering.Key]) -> Bool {
        guard let x = a.row, let y = b.row else { return a.row == nil && (b.row != nil || a.index < b.index) }
        let c = RowOrdering.compare(x, y, by: keys)
        return c < 0 || (c == 0 && a.index < b.index)
    }

    /// The positions of the first `k` objects in order, when some sort key goes through links:
    /// each object's linked rows are read once, up front.
    private static func orderThroughLinks(_ keys: [ObjectKey], _ k: Int, _ sortKeys: [SortKey],
                                          row: (ObjectKey) throws -> RowView?,
                                          follow: (RowView, SortKey) throws -> RowView?) throws -> [Int] {
        let n = keys.count
        var rows: [RowView?] = []
        rows.reserveCapacity(n)
        for key in keys { rows.append(try row(key)) }
        // Per sort key through links, the linked row of each object (nil: a nil link).
        var linked: [[RowView?]?] = Array(repeating: nil, count: sortKeys.count)
        for (j, key) in sortKeys.enumerated() where !key.path.isEmpty {
            var targets: [RowView?] = []
            targets.reserveCapacity(n)
            for r in rows { targets.append(try r.flatMap { try follow($0, key) }) }
            linked[j] = targets
        }
        let compared = RowOrdering.keys(sortKeys)
        func before(_ i: Int, _ j: Int) -> Bool {
            guard let a = rows[i], let b = rows[j] else { return rows[i] == nil && (rows[j] != nil || i < j) }
            for (m, key) in compared.enumerated() {
                let c = linked[m].map { RowOrdering.compare($0[i], $0[j], key.slot) } ?? RowOrdering.compare(a, b, by: [key])
                if c != 0 { return (key.ascending || linked[m] == nil ? c : -c) < 0 }
            }
            return i < j
        }
        return Array(Array(0..<n).sorted(by: before).prefix(k))
    }

    /// Moves the objects at positions `first` to the front, in that order; the others follow
    /// in their current order.
    static func reorder(_ keys: inout [ObjectKey], first: [Int]) {
        if first.count == keys.count {
            keys = first.map { keys[$0] }
            return
        }
        // In place, from the back: the others slide towards the end, keeping their order,
        // which leaves the front free for the chosen ones.
        let chosen = first.map { keys[$0] }
        let positions = first.sorted()
        var next = positions.count - 1
        var write = keys.count - 1
        for read in stride(from: keys.count - 1, through: 0, by: -1) {
            if next >= 0, positions[next] == read {
                next -= 1
                continue
            }
            keys[write] = keys[read]
            write -= 1
        }
        for (i, key) in chosen.enumerated() { keys[i] = key }
    }

    private static func siftUp(_ heap: inout [Entry], _ index: Int, _ before: (Entry, Entry) -> Bool) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(heap[parent], heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private static func siftDown(_ heap: inout [Entry], _ index: Int, _ before: (Entry, Entry) -> Bool) {
        var parent = index
        while true {
            var worst = parent
            for child in (2 * parent + 1)...(2 * parent + 2) where child < heap.count && before(heap[worst], heap[child]) {
                worst = child
            }
            if worst == parent { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }
}
