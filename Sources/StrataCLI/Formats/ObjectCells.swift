import Foundation
import StrataStorage
import StrataValues

/// One property value as `query`, `show` and `diff` print it.
enum Cell {
    case value(Value)
    /// A to-one link: the target's primary key value, or nil when it has none.
    case link(key: ObjectKey, primaryKey: Value?)
    /// A list: its number of elements.
    case list(count: Int)

    /// As table text: strings as they are (control characters escaped), nil, dates in
    /// ISO-8601, data as its size, links as the target's primary key or #objectKey, lists as
    /// `[count]`.
    var text: String {
        switch self {
        case .list(let count): return "[\(count)]"
        case .link(let key, let primaryKey): return primaryKey.map { Cell.value($0).text } ?? "#\(key)"
        case .value(let value):
            switch value {
            case .null: return "nil"
            case .bool(let b): return b ? "true" : "false"
            case .int(let i): return String(i)
            case .float(let f): return "\(f)"
            case .double(let d): return "\(d)"
            case .string(let s):
                func isControl(_ u: Unicode.Scalar) -> Bool { u.value < 0x20 || u.value == 0x7f }
                guard s.unicodeScalars.contains(where: isControl) else { return s }
                return s.unicodeScalars.map { isControl($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
            case .data(let d): return "<\(d.count) bytes>"
            case .date(let d): return HistoryFile.preciseTime(d)
            case .uuid(let u): return u.uuidString
            case .link(let k): return "#\(k)"
            case .objectId(let id): return id.stringValue
            case .decimal128(let d): return d.text
            }
        }
    }

    /// As text beside a property name (`name="Rex"`): strings quoted, the rest as `text`.
    var quotedText: String {
        if case .value(.string) = self { return "\"" + text + "\"" }
        return text
    }

    /// As a JSON value: strings, numbers, booleans, null; dates as ISO-8601 strings, data as
    /// base64, UUIDs and ObjectIds as strings, links as the target's primary key (or "#objectKey"), lists
    /// as their element count; non-finite numbers as "nan", "inf", "-inf".
    var json: JSONScalar {
        switch self {
        case .list(let count): return .int(Int64(count))
        case .link(let key, let primaryKey): return primaryKey.map { Cell.value($0).json } ?? .string("#\(key)")
        case .value(let value):
            switch value {
            case .null: return .null
            case .bool(let b): return .bool(b)
            case .int(let i): return .int(i)
            case .float(let f): return .number(Double(f), "\(f)")
            case .double(let d): return .number(d, "\(d)")
            case .string(let s): return .string(s)
            case .data(let d): return .string(d.base64EncodedString())
            case .date(let d): return .string(HistoryFile.preciseTime(d))
            case .uuid(let u): return .string(u.uuidString)
            case .link(let k): return .string("#\(k)")
            case .objectId(let id): return .string(id.stringValue)
            case .decimal128(let d): return .string(d.text)
            }
        }
    }
}

/// A JSON scalar, written as text (JSON Lines) or encoded into a document.
enum JSONScalar: Encodable {
    case null
    case bool(Bool)
    case int(Int64)
    /// A number and its shortest text (non-finite numbers are written as strings).
    case number(Double, String)
    case string(String)

    /// The JSON text.
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .number(let d, let text): return d.isFinite ? text : ObjectLines.number(d)
        case .string(let s): return QueryObjects.jsonString(s)
        }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .number(let d, _):
            if d.isNaN { try c.encode("nan") } else if d.isInfinite { try c.encode(d > 0 ? "inf" : "-inf") } else { try c.encode(d) }
        case .string(let s): try c.encode(s)
        }
    }
}

/// Reads objects' properties as `Cell`s on one snapshot, looking up link targets' primary
/// keys (the target tables are opened once).
final class CellReader {
    private let txn: StorageTransaction
    private var targets: [String: Table?] = [:]

    /// A reader on the snapshot `txn`.
    init(_ txn: StorageTransaction) { self.txn = txn }

    /// The cells of `properties` of object `key` of `table`, or nil when it does not exist.
    /// With `image` (the object's before-image in a history entry), the row and the lists the
    /// image holds are read from it instead; the object then need not exist any more.
    func cells(_ table: Table, _ key: ObjectKey, _ properties: [PropertySchema], image: OldValues.Object? = nil) throws -> [Cell]? {
        guard let bytes = image?.row else {
            return try cells(table, key, properties, row: try txn.rows.read(table, key), lists: image?.lists ?? [:])
        }
        return try bytes.withUnsafeBytes { b in
            guard let row = RowView(b) else {
                throw CommandFailure("the old values of '\(table.name)' object \(key) in the history do not decode",
                                     hint: "'strata check' checks the whole file")
            }
            return try cells(table, key, properties, row: row, lists: image?.lists ?? [:])
        }
    }

    /// The cells of `properties` from `row`, and lists from `lists` where they hold them (else
    /// the object's stored lists, empty when it no longer exists).
    private func cells(_ table: Table, _ key: ObjectKey, _ properties: [PropertySchema], row: RowView?,
                       lists: [Int: OldValues.List]) throws -> [Cell]? {
        guard let row else { return nil }
        var cells: [Cell] = []
        cells.reserveCapacity(properties.count)
        for property in properties {
            if property.isList {
                let count = if let list = lists[property.id] { list.count } else { try txn.lists.count(table, property, owner: key) }
                cells.append(.list(count: count))
                continue
            }
            let value = row.hasSlot(property.id) ? row.value(property) : .null
            guard case .link(let target) = value, let targetName = property.linkTarget else {
                cells.append(.value(value))
                continue
            }
            cells.append(.link(key: target, primaryKey: try primaryKey(of: target, in: targetName)))
        }
        return cells
    }

    /// The primary key of object `key` of class `className`, or nil when the class has none.
    private func primaryKey(of key: ObjectKey, in className: String) throws -> Value? {
        if targets[className] == nil { targets[className] = try txn.table(className) }
        guard let table = targets[className] ?? nil, let pk = table.primaryKey, let row = try txn.rows.read(table, key) else { return nil }
        return row.value(pk)
    }
}
