/// The last two values found, the newest first: a lookup that tends to ask for the same one
/// again, or for two in turn, finds them here before its table.
struct LastTwo<Value: AnyObject> {
    private var last: Value?
    private var previous: Value?

    /// The remembered value `matches` accepts (made the newest), if any.
    @inline(__always)
    mutating func first(where matches: (Value) -> Bool) -> Value? {
        if let last, matches(last) { return last }
        guard let previous, matches(previous) else { return nil }
        swap(&last, &self.previous)
        return previous
    }

    /// Makes `value` the newest.
    mutating func remember(_ value: Value) {
        previous = last
        last = value
    }

    /// Forgets both.
    mutating func removeAll() {
        last = nil
        previous = nil
    }
}
