/// Values kept per property id of one class (its index, backlink and list databases, and their
/// seeds and names): an array indexed by id, so that finding one, which every index lookup,
/// backlink count and list access does, is a bounds check rather than a hash.
struct ByProperty<Value>: Sequence {
    private let slots: [Value?]
    /// The ids that have a value, ascending.
    let keys: [Int]

    /// The values of `values`, by the same ids.
    init(_ values: [Int: Value]) {
        keys = values.keys.sorted()
        var slots = [Value?](repeating: nil, count: (keys.last ?? -1) + 1)
        for (id, value) in values { slots[id] = value }
        self.slots = slots
    }

    /// The value of property `id`, nil when it has none.
    subscript(id: Int) -> Value? { id >= 0 && id < slots.count ? slots[id] : nil }

    /// The values, in id order.
    var values: [Value] { keys.map { slots[$0]! } }

    /// The (id, value) pairs, in id order.
    func makeIterator() -> some IteratorProtocol<(key: Int, value: Value)> {
        keys.lazy.map { (key: $0, value: slots[$0]!) }.makeIterator()
    }
}
