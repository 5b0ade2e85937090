import StrataQuery
import StrataStorage

/// A loop over the objects of evaluated results (a query, a list, backlinks) that reads their
/// keys, and the rows the evaluation kept, from one evaluation for as long as the Realm stays
/// at the snapshot it was made in, instead of asking the results for each object. The
/// accessors come from an `AccessorRecycler`.
@usableFromInline
final class KeyWalk {
    private let state: ResultsState
    private let core: RealmCore
    private let binding: TableBinding
    private var evaluation: QueryEvaluation
    /// The Realm's stamp `evaluation` is valid at.
    private var stamp: UInt64
    /// How many of `evaluation`'s first keys are in result order.
    private var ordered: Int
    /// Read and written only by the one iterator that owns the walk.
    @exclusivity(unchecked) private var accessors: AccessorRecycler

    /// A walk of `state`'s objects, in `binding`'s table.
    init(_ state: ResultsState, binding: TableBinding) {
        self.state = state
        core = state.core
        self.binding = binding
        (evaluation, stamp) = state.walkable(upTo: 1)
        ordered = evaluation.orderedPrefix
        accessors = AccessorRecycler(binding.info)
    }

    /// The object at `position`, or nil when there is none or the results can no longer be
    /// walked here (their class's binding changed): the caller then asks the results.
    @usableFromInline
    func object(at position: Int) -> ObjectBase? {
        if _slowPath(position >= ordered || stamp != core.snapshot.stamp) {
            guard state.binding === binding else { return nil }
            (evaluation, stamp) = state.walkable(upTo: position + 1)
            ordered = evaluation.orderedPrefix
            guard position < ordered else { return nil }
        }
        let key = evaluation.keys[position]
        let row = core.reading { try evaluation.keptRow(at: position, of: binding.table, core.transaction()) }
        return accessors.accessor(core, binding, key, row: row)
    }
}
