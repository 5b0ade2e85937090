import Foundation

// RealmSwift's edits of a list by sets of offsets (the shape SwiftUI's `onMove` and
// `onDelete` hand out). Elements are moved with `move(from:to:)`, never removed and added
// again, so embedded objects survive a move.
extension List {
    /// Moves the elements at `offsets` (keeping their order) to before the element that was
    /// at `destination` (`count`: to the end), as `MutableCollection.move(fromOffsets:toOffset:)`.
    public func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
        let count = count
        precondition(offsets.allSatisfy { $0 >= 0 && $0 < count } && destination >= 0 && destination <= count,
                     "Offsets \(Array(offsets)) or destination \(destination) out of bounds (the list has \(count) elements)")
        var order = (0..<count).filter { !offsets.contains($0) }
        order.insert(contentsOf: offsets, at: destination - offsets.count(in: 0..<destination))
        // `current[i]` is the offset, before the move, of the element now at `i`.
        var current = Array(0..<count)
        for (target, element) in order.enumerated() where current[target] != element {
            let from = current.firstIndex(of: element)!
            move(from: from, to: target)
            current.insert(current.remove(at: from), at: target)
        }
    }

    /// Removes the elements at `offsets` (the objects themselves stay in the Realm).
    public func remove(atOffsets offsets: IndexSet) {
        precondition(offsets.allSatisfy { $0 >= 0 && $0 < count }, "Offsets \(Array(offsets)) out of bounds (the list has \(count) elements)")
        for offset in offsets.reversed() { remove(at: offset) }
    }
}
