import Foundation

/// The `limit` smallest entries by (age, name bytes) seen so far: a bounded max-heap, so
/// ranking N rows costs O(N log limit) and never holds more than `limit` entries.
struct TopK {
    /// A row's sort key and id; `name` points at bytes that outlive the heap's use.
    struct Entry {
        var age: Int
        var name: UnsafeRawPointer
        var nameLength: Int
        var id: Int

        /// Age ascending, then name by bytes with a shorter prefix first (SQLite's BINARY).
        @inline(__always)
        static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            if a.age != b.age { return a.age < b.age }
            let c = memcmp(a.name, b.name, min(a.nameLength, b.nameLength))
            return c != 0 ? c < 0 : a.nameLength < b.nameLength
        }
    }

    let limit: Int
    private var heap: [Entry] = []

    init(limit: Int) {
        self.limit = limit
        heap.reserveCapacity(limit)
    }

    var isFull: Bool { heap.count == limit }
    /// The largest entry kept (the heap's root); only valid when not empty.
    var worst: Entry { heap[0] }

    /// Keeps `entry` if it ranks among the `limit` smallest so far.
    @inline(__always)
    mutating func offer(_ entry: Entry) {
        if heap.count < limit {
            heap.append(entry)
            siftUp(heap.count - 1)
        } else if Entry.precedes(entry, heap[0]) {
            heap[0] = entry
            siftDown(0)
        }
    }

    /// The kept entries in ascending order.
    func sorted() -> [Entry] { heap.sorted(by: Entry.precedes) }

    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            guard Entry.precedes(heap[parent], heap[i]) else { return }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let left = 2 * i + 1, right = left + 1
            var largest = i
            if left < heap.count, Entry.precedes(heap[largest], heap[left]) { largest = left }
            if right < heap.count, Entry.precedes(heap[largest], heap[right]) { largest = right }
            if largest == i { return }
            heap.swapAt(i, largest)
            i = largest
        }
    }
}
