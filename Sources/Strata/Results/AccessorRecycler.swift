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
    /// The Realm and table binding `last` is attached to: compared, never used (`last` holds
    /// them), so that moving it to the next object of the same table counts no references.
    private var lastAttachment: (core: ObjectIdentifier, binding: ObjectIdentifier)?
    private let reuses: Bool

    /// Accessors of `info`'s class (none reused for nil).
    init(_ info: ModelClass?) { reuses = info?.accessorsAreInterchangeable ?? false }

    /// An accessor of object `key` of `binding`'s class in `core`, whose row is `row` when the
    /// caller has it (in `block` when a cursor decrypted it there).
    mutating func accessor(_ core: RealmCore, _ binding: TableBinding, _ key: ObjectKey, row: RowView?,
                           block: DecryptedRecords? = nil) -> ObjectBase {
        let attachment = (core: ObjectIdentifier(core), binding: ObjectIdentifier(binding))
        if isKnownUniquelyReferenced(&last) {
            // Used at +0 until it is handed out: `last` holds it.
            let reused = Unmanaged.passUnretained(last.unsafelyUnwrapped)
            let sameTable = lastAttachment.map { $0 == attachment } ?? false
            let moved = reused._withUnsafeGuaranteedRef { object in
                if object.isReferencedWeakly { return false }
                if sameTable {
                    object.move(to: key, in: core, binding, row: row, block: block)
                } else {
                    object.reattach(core, binding, key, row: row, block: block)
                }
                return true
            }
            if moved {
                lastAttachment = attachment
                return reused.takeUnretainedValue()
            }
        }
        let object = core.object(ObjectBase.self, binding, key, row: row, block: block)
        if reuses {
            last = object
            lastAttachment = attachment
        }
        return object
    }
}
