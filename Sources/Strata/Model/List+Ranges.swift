import Foundation

// RealmSwift's range edits of a list: replacing and removing a range of elements.
extension List {
    /// Replaces the elements in `subrange` with `newElements` (inside a write once managed);
    /// an unmanaged object among them is added to the Realm with its graph. Traps when the
    /// range is not within the list.
    public func replaceSubrange<C: Collection, R>(_ subrange: R, with newElements: C)
    where C.Iterator.Element == Element, R: RangeExpression, R.Bound == Int {
        let bounds = checkedBounds(subrange)
        guard let store else {
            replaceUnmanaged(bounds, with: Array(newElements))
            return
        }
        store.write { list in
            for _ in bounds { _ = try list.remove(at: bounds.lowerBound) }
            try list.insert(newElements.map { try store.storedValue(of: $0) }, at: bounds.lowerBound)
        }
    }

    /// The elements in `bounds`; setting it replaces them (`list[1..<3] = other[0..<2]`), as
    /// `replaceSubrange` does.
    public subscript(bounds: Range<Int>) -> Slice<List<Element>> {
        get { Slice(base: self, bounds: checkedBounds(bounds)) }
        set { replaceSubrange(bounds, with: Array(newValue)) }
    }

    /// Removes the elements in `bounds` (the objects themselves stay in the Realm). Traps when
    /// the range is not within the list.
    public func removeSubrange<R>(_ bounds: R) where R: RangeExpression, R.Bound == Int {
        replaceSubrange(bounds, with: [])
    }

    /// `subrange` as a range of this list's indices, which it must lie within.
    private func checkedBounds<R: RangeExpression>(_ subrange: R) -> Range<Int> where R.Bound == Int {
        let count = count
        let bounds = subrange.relative(to: 0..<count)
        precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count,
                     "Range \(bounds.lowerBound)..<\(bounds.upperBound) is out of bounds (the list has \(count) elements)")
        return bounds
    }
}
