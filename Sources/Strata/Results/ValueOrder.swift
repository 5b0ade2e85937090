import StrataStorage

/// How results of a list's, set's or map's values order them: the collection's own order,
/// or sorted, and with or without repeats.
struct ValueOrder: Equatable, Sendable {
    /// Sorted ascending (true) or descending (false); nil keeps the collection's order.
    var ascending: Bool?
    /// Whether only the first of equal values is kept.
    var isDistinct = false
    /// The queries a value must match to be kept (`filter`), in the order given.
    var filters: [ValueFilter] = []

    /// `values` in this order. Filters keep the values that match them all; sorting puts nil
    /// first ascending (last descending) and compares numbers across their types, as sorting
    /// objects does; distinct keeps the first of each run of equal values.
    func apply(to values: [StrataStorage.Value]) -> [StrataStorage.Value] {
        var result = filters.isEmpty ? values : values.filter { value in filters.allSatisfy { $0.matches(value) } }
        if isDistinct {
            var seen = Set<StrataStorage.Value>()
            result = result.filter { seen.insert($0).inserted }
        }
        if let ascending {
            result.sort { a, b in
                let c = StrataStorage.Value.compare(a, b)
                return ascending ? c < 0 : c > 0
            }
        }
        return result
    }
}
