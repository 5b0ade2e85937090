import Foundation
import StrataStorage
import StrataValues

/// The objects `strata query` prints, read on its snapshot: the properties asked for (every
/// stored property by default) of each, with links as the target's primary key (or
/// `#objectKey`) and lists, sets and maps as element counts, or with their elements for JSON.
struct QueryObjects {
    let className: String
    let properties: [PropertySchema]
    /// Whether a `#key` column (the object key as `#N`) is shown first: by default when the
    /// class has no primary key, else when the columns asked for name it.
    let showsObjectKeys: Bool
    let rows: [(key: ObjectKey, cells: [Cell])]

    /// The name of the object-key column.
    static let objectKeyColumn = "#key"

    /// Reads the objects `keys` of `table`: the properties named in `columns` (in that order;
    /// `#key` for the object key) or every property, with their elements when `elements`.
    /// Throws a failure (exit status 2) for a column the class does not have.
    init(keys: [ObjectKey], table: Table, _ txn: StorageTransaction, columns: [String]? = nil, elements: Bool = false) throws {
        className = table.name
        let all = table.schema.properties
        if let columns {
            properties = try columns.filter { $0 != Self.objectKeyColumn }.map { name in
                guard let property = all.first(where: { $0.name == name }) else {
                    let names = all.map(\.name) + [Self.objectKeyColumn]
                    throw CommandFailure("unknown column '\(name)' of \(table.name)"
                                         + (ClassNames.closest(to: name, in: names).map { "; did you mean '\($0)'? Its" } ?? "; its")
                                         + " columns: " + names.joined(separator: ", "), status: 2)
                }
                return property
            }
            showsObjectKeys = columns.contains(Self.objectKeyColumn)
        } else {
            properties = all
            showsObjectKeys = table.primaryKey == nil
        }
        let reader = CellReader(txn)
        var rows: [(ObjectKey, [Cell])] = []
        rows.reserveCapacity(keys.count)
        for key in keys {
            if let cells = try reader.cells(table, key, properties, elements: elements) { rows.append((key, cells)) }
        }
        self.rows = rows
    }

    /// An aligned table with a header, narrowed to the output width where possible by
    /// shortening the widest cells (with "…").
    func table() -> [String] {
        var header = properties.map(\.name)
        var body = rows.map { row in row.cells.map(\.text) }
        if showsObjectKeys {
            header.insert(Self.objectKeyColumn, at: 0)
            for i in body.indices { body[i].insert("#\(rows[i].key)", at: 0) }
        }
        return Output.table(header, body)
    }

    /// One JSON object per object, properties in column order (`Cell.json`). With the
    /// object-key column, a leading "#key" member holds the object key as the string "#N"
    /// (the way links name such objects; a string, as JSON readers round large numbers).
    func jsonLines() -> [String] {
        rows.map { row in
            var members: [String] = []
            if showsObjectKeys { members.append("\"\(Self.objectKeyColumn)\":\"#\(row.key)\"") }
            for (property, cell) in zip(properties, row.cells) {
                members.append(TextEscapes.jsonString(property.name) + ":" + cell.json.text)
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }
}
