import Foundation
import StrataStorage

/// The objects `strata query` prints, read on its snapshot: every stored property of each,
/// with links as the target's primary key (or `#objectKey`) and lists as element counts.
struct QueryObjects {
    /// One printed property value.
    enum Cell {
        case value(Value)
        /// A to-one link: the target's primary key value, or nil when it has none.
        case link(key: ObjectKey, primaryKey: Value?)
        /// A list: its number of elements.
        case list(count: Int)
    }

    let className: String
    let properties: [PropertySchema]
    /// Whether the class has no primary key (a `#key` column is shown first then).
    let showsObjectKeys: Bool
    let rows: [(key: ObjectKey, cells: [Cell])]

    init(keys: [ObjectKey], table: Table, _ txn: StorageTransaction) throws {
        className = table.name
        properties = table.schema.properties
        showsObjectKeys = table.primaryKey == nil
        var targets: [String: Table] = [:]
        var rows: [(ObjectKey, [Cell])] = []
        rows.reserveCapacity(keys.count)
        for key in keys {
            guard let row = try txn.row(table, key) else { continue }
            var cells: [Cell] = []
            for property in properties {
                if property.isList {
                    cells.append(.list(count: try txn.listCount(table, property, owner: key)))
                    continue
                }
                let value = row.hasSlot(property.id) ? row.value(property) : .null
                guard case .link(let target) = value, let targetName = property.linkTarget else {
                    cells.append(.value(value))
                    continue
                }
                if targets[targetName] == nil { targets[targetName] = try txn.table(targetName) }
                var primaryKey: Value?
                if let targetTable = targets[targetName], let pk = targetTable.primaryKey,
                   let targetRow = try txn.row(targetTable, target) {
                    primaryKey = targetRow.value(pk)
                }
                cells.append(.link(key: target, primaryKey: primaryKey))
            }
            rows.append((key, cells))
        }
        self.rows = rows
    }

    // MARK: Table

    /// An aligned table with a header, narrowed to `width` columns where possible by
    /// shortening the widest cells (with "…").
    func table(width: Int) -> [String] {
        var header = properties.map(\.name)
        var body = rows.map { row in row.cells.map(Self.text) }
        if showsObjectKeys {
            header.insert("#key", at: 0)
            for i in body.indices { body[i].insert("#\(rows[i].key)", at: 0) }
        }
        guard !header.isEmpty else { return [] }
        var widths = header.indices.map { c in ([header[c]] + body.map { $0[c] }).map(\.count).max() ?? 0 }
        // Two spaces of indent and two between columns, as `Output.table` prints them.
        let minimum = 6
        while 2 + widths.reduce(0, +) + 2 * (widths.count - 1) > width {
            guard let widest = widths.indices.filter({ widths[$0] > max(minimum, header[$0].count) })
                .max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
        }
        func fit(_ text: String, _ column: Int) -> String {
            text.count <= widths[column] ? text : String(text.prefix(widths[column] - 1)) + "…"
        }
        let fitted = body.map { row in row.enumerated().map { fit($0.element, $0.offset) } }
        return Output.table(header.enumerated().map { fit($0.element, $0.offset) }, fitted)
    }

    /// A cell as table text: strings as they are (control characters escaped), nil, dates in
    /// ISO-8601, data as its size, links as the target's primary key or #objectKey, lists as
    /// `[count]`.
    static func text(_ cell: Cell) -> String {
        switch cell {
        case .list(let count): return "[\(count)]"
        case .link(let key, let primaryKey): return primaryKey.map { text(.value($0)) } ?? "#\(key)"
        case .value(let value):
            switch value {
            case .null: return "nil"
            case .bool(let b): return b ? "true" : "false"
            case .int(let i): return String(i)
            case .float(let f): return "\(f)"
            case .double(let d): return "\(d)"
            case .string(let s):
                return s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
            case .data(let d): return "<\(d.count) bytes>"
            case .date(let d): return isoDate(d)
            case .uuid(let u): return u.uuidString
            case .link(let k): return "#\(k)"
            }
        }
    }

    // MARK: JSON Lines

    /// One JSON object per object, properties in schema order: strings, numbers, booleans,
    /// null; dates as ISO-8601 strings, data as base64, UUIDs as strings, links as the
    /// target's primary key (or "#objectKey"), lists as their element count; non-finite
    /// numbers as the strings "nan", "inf", "-inf". Classes without a primary key get a
    /// leading "#key" member with the object key.
    func jsonLines() -> [String] {
        rows.map { row in
            var members: [String] = []
            if showsObjectKeys { members.append("\"#key\":\(row.key)") }
            for (property, cell) in zip(properties, row.cells) {
                members.append(Self.jsonString(property.name) + ":" + Self.json(cell))
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    static func json(_ cell: Cell) -> String {
        switch cell {
        case .list(let count): return String(count)
        case .link(let key, let primaryKey): return primaryKey.map { json(.value($0)) } ?? jsonString("#\(key)")
        case .value(let value):
            switch value {
            case .null: return "null"
            case .bool(let b): return b ? "true" : "false"
            case .int(let i): return String(i)
            case .float(let f): return jsonNumber(Double(f), "\(f)")
            case .double(let d): return jsonNumber(d, "\(d)")
            case .string(let s): return jsonString(s)
            case .data(let d): return jsonString(d.base64EncodedString())
            case .date(let d): return jsonString(isoDate(d))
            case .uuid(let u): return jsonString(u.uuidString)
            case .link(let k): return jsonString("#\(k)")
            }
        }
    }

    private static func jsonNumber(_ d: Double, _ text: String) -> String {
        if d.isNaN { return "\"nan\"" }
        if d.isInfinite { return d > 0 ? "\"inf\"" : "\"-inf\"" }
        return text
    }

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

    private static func isoDate(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}
