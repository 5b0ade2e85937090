import StrataStorage
import StrataQuery

/// A model class bound to its table in one file: the stored property for each of the class's
/// declared properties (by declaration index). Built once the code's schema is checked
/// against the file's.
final class TableBinding {
    let info: ModelClass
    let table: Table
    /// The stored property (with its stable id) of each declared property.
    let properties: [PropertySchema]
    /// The row slot of each declared property, for reads: a buffer the binding owns rather
    /// than an array, so that reading a slot on every property access counts no references.
    let slots: UnsafeBufferPointer<Slot>
    /// The stored schema with each property under the name code and queries use for it
    /// (`ModelClass.publicSchema`): what queries, sorting and key paths resolve against.
    let querySchema: ClassSchema
    /// The query texts filtered on this class so far, resolved once each.
    let preparedQueries: PreparedQueries
    /// The row a new object is laid out in before it is inserted (`GraphWrite.add`), kept
    /// from one object to the next so that adding objects allocates no array for each. Used
    /// only inside a write, by the thread writing (never on a frozen Realm).
    @exclusivity(unchecked) var newRow: [StrataStorage.Value] = []

    init(info: ModelClass, table: Table) {
        self.info = info
        self.table = table
        querySchema = info.publicSchema(table.schema)
        preparedQueries = PreparedQueries(schema: querySchema)
        properties = info.properties.map { table.schema.property(named: $0.schema.name)! }
        let slots = UnsafeMutableBufferPointer<Slot>.allocate(capacity: properties.count)
        _ = slots.initialize(from: properties.map(Slot.init))
        self.slots = UnsafeBufferPointer(slots)
    }

    /// The stored property that code calls `name` (its name in `querySchema`), if any.
    func storedProperty(named name: String) -> PropertySchema? {
        querySchema.property(named: name).flatMap { named in table.schema.properties.first { $0.id == named.id } }
    }

    deinit { slots.deallocate() }
}
