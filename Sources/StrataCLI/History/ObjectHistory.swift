import Foundation
import StrataStorage
import StrataValues

/// Every retained commit that touched one object, with the values before and after it, read
/// from the before-images in the history entries (what `blame` prints). Walked newest first:
/// the state after a commit is the state before the next one that touched the object (or the
/// stored object for the newest), and the state before it is its before-image over that.
struct ObjectHistory {
    /// One commit that touched the object.
    struct Change {
        let entry: HistoryEntry
        /// `+` inserted, `-` deleted, `~` modified.
        let sign: Character
        /// The properties it changed (every property for an insert or delete).
        let properties: [PropertySchema]
        /// Their values before and after the commit (nil when unknown, or the object did not
        /// exist then).
        let before: [Cell]?
        let after: [Cell]?
    }

    let key: ObjectKey
    let changes: [Change]
    /// Whether some entry had no old values: the values before it are unknown.
    let isPartial: Bool

    /// The history of the object of `table` named by `text` (its primary key, or for a class
    /// without one its object key `#N`, as `query --json` shows it), in `txn`'s snapshot.
    init(_ txn: StorageTransaction, _ table: Table, primaryKey text: String, path: String) throws {
        let reader = CellReader(txn)
        let properties = table.schema.properties.filter { !$0.isPrimaryKey }
        var key: ObjectKey?, exists: Bool
        let pkValue: (PropertySchema, Value)?
        if let pk = table.primaryKey {
            pkValue = (pk, try Self.value(text, of: pk))
            key = try txn.indexes.lookup(table, pk, equalTo: pkValue!.1).first
            exists = key != nil
        } else {
            guard text.hasPrefix("#"), let objectKey = ObjectKey(text.dropFirst()) else {
                throw CommandFailure("class '\(table.name)' has no primary key, and '\(text)' is not an object key",
                                     hint: "name its objects by the key 'strata query --json' shows, e.g. '#3'", status: 2)
            }
            pkValue = nil
            key = objectKey
            exists = try txn.rows.read(table, objectKey) != nil
        }
        var changes: [Change] = []
        var partial = false
        // The state after the entry being read: nil while it is the stored object; unknown
        // (`known` false) past an entry without old values.
        var after: ObjectImages.Object?
        var known = true
        try txn.history.forEach(after: nil, newestFirst: true) { entry in
            let old = try entry.oldValues()
            let complete = old?.isComplete == true
            let images = complete ? old?.classes[table.name] ?? [:] : [:]
            if key == nil, let (pk, value) = pkValue { key = Self.find(value, of: pk, in: images) }
            defer { if !complete { known = false; partial = true } }
            guard let key, let c = entry.changes.classes[table.name] else { return true }
            let image = images[key]
            let inserted = c.inserted.contains(key), deleted = c.deleted.contains(key) || (c.cleared && image != nil)
            guard inserted || deleted || c.modified[key] != nil else { return true }
            let mask = c.modified[key] ?? .max
            let changed = inserted || deleted ? properties : properties.filter { mask & ClassChanges.bit($0.id) != 0 }
            let before = image.map { Self.merged($0, over: after) }
            let afterCells = known && exists ? try reader.cells(table, key, changed, image: after) : nil
            let beforeCells = try before.flatMap { try reader.cells(table, key, changed, image: $0) }
            let sign: Character = inserted && !deleted ? "+" : deleted && !inserted ? "-" : "~"
            changes.append(Change(entry: entry, sign: sign, properties: changed, before: beforeCells, after: afterCells))
            exists = !inserted || deleted
            after = before ?? after
            return true
        }
        guard let key, pkValue != nil || exists || !changes.isEmpty else {
            let named = pkValue == nil ? "\(text)" : "with primary key \(text)"
            throw CommandFailure("no '\(table.name)' object \(named) in the retained history of '\(path)'",
                                 hint: "'strata query \(path) \(table.name) TRUEPREDICATE' lists the objects")
        }
        self.key = key
        self.changes = changes
        isPartial = partial
    }

    /// `image` with what it does not hold taken from `later` (the state after it).
    private static func merged(_ image: ObjectImages.Object, over later: ObjectImages.Object?) -> ObjectImages.Object {
        var result = image
        if result.row == nil { result.row = later?.row }
        if let later { result.lists.merge(later.lists) { mine, _ in mine } }
        return result
    }

    /// The key of the object among `images` whose primary key is `value` (a deleted object).
    private static func find(_ value: Value, of pk: PropertySchema, in images: [ObjectKey: ObjectImages.Object]) -> ObjectKey? {
        images.first { _, image in
            image.row?.withUnsafeBytes { RowView($0)?.value(pk) } == value
        }?.key
    }

    /// The command-line text `text` as a primary-key value of `property`.
    private static func value(_ text: String, of property: PropertySchema) throws -> Value {
        if property.isOptional && (text == "null" || text == "nil") { return .null }
        switch property.type {
        case .int:
            guard let i = Int64(text) else { throw UsageError("'\(text)' is not an integer primary key") }
            return .int(i)
        case .string: return .string(text)
        case .uuid:
            guard let u = UUID(uuidString: text) else { throw UsageError("'\(text)' is not a UUID") }
            return .uuid(u)
        case .objectId:
            guard let id = try? ObjectId(string: text) else { throw UsageError("'\(text)' is not an ObjectId") }
            return .objectId(id)
        default: throw UsageError("primary keys of type \(property.type) are not supported")
        }
    }
}
