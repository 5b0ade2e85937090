import Foundation
import StrataStorage

/// The objects `strata query` prints, read on its snapshot: every stored property of each,
/// with links as the target's primary key (or `#objectKey`) and lists as element counts.
struct QueryObjects {
    let className: String
    let properties: [PropertySchema]
    /// Whether the class has no primary key (a `#key` column is shown first then).
    let showsObjectKeys: Bool
    let rows: [(key: ObjectKey, cells: [Cell])]

    init(keys: [ObjectKey], table: Table, _ txn: StorageTransaction) throws {
        className = table.name
        properties = table.schema.properties
        showsObjectKeys = table.primaryKey == nil
        let reader = CellReader(txn)
        var rows: [(ObjectKey, [Cell])] = []
        rows.reserveCapacity(keys.count)
        for key in keys {
            if let cells = try reader.cells(table, key, properties) { rows.append((key, cells)) }
        }
        self.rows = rows
    }

    /// An aligned table with a header, narrowed to the output width where possible by
    /// shortening the widest cells (with "…").
    func table() -> [String] {
        var header = properties.map(\.name)
        var body = rows.map { row in row.cells.map(\.text) }
        if showsObjectKeys {
            header.insert("#key", at: 0)
            for i in body.indices { body[i].insert("#\(rows[i].key)", at: 0) }
        }
        return Output.table(header, body)
    }

    /// One JSON object per object, properties in schema order (`Cell.json`). Classes without
    /// a primary key get a leading "#key" member with the object key.
    func jsonLines() -> [String] {
        rows.map { row in
            var members: [String] = []
            if showsObjectKeys { members.append("\"#key\":\(row.key)") }
            for (property, cell) in zip(properties, row.cells) {
                members.append(Self.jsonString(property.name) + ":" + cell.json.text)
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// `s` as a JSON string literal.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
