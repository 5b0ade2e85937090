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
    /// A list or set with its elements, for JSON.
    case elements([Cell])
    /// A map with its entries in key order (keys and values parallel), for JSON.
    case entries(keys: [String], cells: [Cell])

    /// As table text: strings as they are (control characters escaped), nil, dates in
    /// ISO-8601, data as its size, links as the target's primary key or #objectKey, lists,
    /// sets and maps as `[count]`.
    var text: String {
        switch self {
        case .list(let count): return "[\(count)]"
        case .elements(let cells): return "[\(cells.count)]"
        case .entries(let keys, _): return "[\(keys.count)]"
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
            case .typedLink(let c, let k): return "\(c)#\(k)"
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

    /// As a JSON value: strings, numbers, booleans, null; dates as ISO-8601 strings (`ISOTime`;
    /// seconds since 2001-01-01 for a date it cannot hold), data as
    /// base64, UUIDs and ObjectIds as strings, links as the target's primary key (or "#objectKey"), lists
    /// as their element count, or with their elements as arrays (maps as objects); non-finite
    /// numbers as "nan", "inf", "-inf".
    var json: JSONScalar {
        switch self {
        case .list(let count): return .int(Int64(count))
        case .elements(let cells): return .array(cells.map(\.json))
        case .entries(let keys, let cells): return .object(Array(zip(keys, cells.map(\.json))))
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
            case .date(let d): return ISOTime.text(d).map(JSONScalar.string) ?? .number(d.timeIntervalSinceReferenceDate, "\(d.timeIntervalSinceReferenceDate)")
            case .uuid(let u): return .string(u.uuidString)
            case .link(let k): return .string("#\(k)")
            case .typedLink(let c, let k): return .string("\(c)#\(k)")
            case .objectId(let id): return .string(id.stringValue)
            case .decimal128(let d): return .string(d.text)
            }
        }
    }
}

/// A JSON value of a property, written as text (JSON Lines) or encoded into a document: a
/// scalar, or the elements of a list or the entries of a map.
enum JSONScalar: Encodable {
    case null
    case bool(Bool)
    case int(Int64)
    /// A number and its shortest text (non-finite numbers are written as strings).
    case number(Double, String)
    case string(String)
    case array([JSONScalar])
    /// Members in order.
    case object([(String, JSONScalar)])

    /// The JSON text.
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .number(let d, let text): return d.isFinite ? text : ObjectLines.number(d)
        case .string(let s): return TextEscapes.jsonString(s)
        case .array(let elements): return "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { TextEscapes.jsonString($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    /// A member name of `.object`.
    private struct Name: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
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
        case .array(let elements): try c.encode(elements)
        case .object(let members):
            var object = encoder.container(keyedBy: Name.self)
            for (name, value) in members { try object.encode(value, forKey: Name(stringValue: name)) }
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
    /// Lists, sets and maps are their element counts, or with `elements` their elements and
    /// entries. With `image` (the object's before-image in a history entry), the row and the
    /// lists the image holds are read from it instead (lists as counts); the object then need
    /// not exist any more.
    func cells(_ table: Table, _ key: ObjectKey, _ properties: [PropertySchema], elements: Bool = false,
               image: ObjectImages.Object? = nil) throws -> [Cell]? {
        guard let bytes = image?.row else {
            return try cells(table, key, properties, row: try txn.rows.read(table, key), lists: image?.lists ?? [:],
                             elements: elements)
        }
        return try bytes.withUnsafeBytes { b in
            guard let row = RowView(b) else {
                throw CommandFailure("the old values of '\(table.name)' object \(key) in the history do not decode",
                                     hint: "'strata check' checks the whole file")
            }
            return try cells(table, key, properties, row: row, lists: image?.lists ?? [:], elements: elements)
        }
    }

    /// The cells of `properties` from `row`, and lists from `lists` where they hold them (else
    /// the object's stored lists, empty when it no longer exists).
    private func cells(_ table: Table, _ key: ObjectKey, _ properties: [PropertySchema], row: RowView?,
                       lists: [Int: ObjectImages.List], elements: Bool) throws -> [Cell]? {
        guard let row else { return nil }
        var cells: [Cell] = []
        cells.reserveCapacity(properties.count)
        for property in properties {
            if property.isList {
                if let list = lists[property.id] {
                    cells.append(.list(count: list.count))
                } else {
                    cells.append(elements ? try collection(table, key, property)
                                          : .list(count: try txn.lists.count(table, property, owner: key)))
                }
                continue
            }
            cells.append(try cell(row.hasSlot(property.id) ? row.value(property) : .null, of: property))
        }
        return cells
    }

    /// The elements of list, set or map `property` of object `key`.
    private func collection(_ table: Table, _ key: ObjectKey, _ property: PropertySchema) throws -> Cell {
        let values = try txn.lists.values(table, property, owner: key).map { try cell($0, of: property) }
        guard property.isMap else { return .elements(values) }
        let keys = try txn.lists.mapKeys(table, property, owner: key)
        guard keys.count == values.count else {
            throw CommandFailure("\(table.name).\(property.name) of object \(key) is damaged: its map has "
                                 + "\(keys.count) keys and \(values.count) values", hint: "'strata check' examines the file")
        }
        return .entries(keys: keys, cells: values)
    }

    /// `value` of `property` as a cell: a link with its target's primary key.
    private func cell(_ value: Value, of property: PropertySchema) throws -> Cell {
        guard case .link(let target) = value, let targetName = property.linkTarget else { return .value(value) }
        return .link(key: target, primaryKey: try primaryKey(of: target, in: targetName))
    }

    /// The primary key of object `key` of class `className`, or nil when the class has none.
    private func primaryKey(of key: ObjectKey, in className: String) throws -> Value? {
        if targets[className] == nil { targets[className] = try txn.table(className) }
        guard let table = targets[className] ?? nil, let pk = table.primaryKey, let row = try txn.rows.read(table, key) else { return nil }
        return row.value(pk)
    }
}
