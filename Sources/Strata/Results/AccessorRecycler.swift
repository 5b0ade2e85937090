import StrataStorage

/// The accessors a loop over a collection hands out, one object at a time.
///
/// When the loop has let go of the accessor it was handed last (no strong, weak or unowned
/// reference to it remains but this one) and the class's accessors hold nothing of their own
/// (`ModelClass.accessorsAreInterchangeable`: every stored field the model declares is
/// `@Persisted`), that accessor is attached to the next object instead of a new one made: no
/// one can tell the two apart, and a loop that reads each object and moves on allocates
/// nothing per object.
@usableFromInline
struct AccessorRecycler {
    /// The accessor handed out last, when accessors of the class are interchangeable.
    private var last: ObjectBase?
    private let reuses: Bool

    /// Accessors of `info`'s class (none reused for nil).
    init(_ info: ModelClass?) { reuses = info?.accessorsAreInterchangeable ?? false }

    /// An accessor of object `key` of `binding`'s class in `core`, whose row is `row` when the
    /// caller has it.
    mutating func accessor(_ core: RealmCore, _ binding: TableBinding, _ key: ObjectKey, row: RowView?) -> ObjectBase {
        if isKnownUniquelyReferenced(&last), let object = last, !object.isReferencedWeakly {
            object.reattach(core, binding, key, row: row)
            return object
        }
        let object = core.object(ObjectBase.self, binding, key, row: row)
        if reuses { last = object }
        return object
    }
}
