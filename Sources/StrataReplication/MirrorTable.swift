import Foundation
import StrataStorage
import StrataValues

/// One class's table in a PostgreSQL mirror (docs/REPLICATION.md, "Mirror"): `_key`, the
/// object key as a signed 64-bit integer (its bit pattern), as the primary key, then one typed
/// column per property: bool `boolean`, integers `bigint`, float `real`, double `double
/// precision`, string `text`, data `bytea`, date `timestamptz`, uuid `uuid`, objectId `text`,
/// decimal128 `numeric`, a link `bigint` (the target's `_key`, a foreign key checked at
/// commit), mixed `jsonb`, a list, set or map `jsonb` (an array, or an object by key).
struct MirrorTable {
    let schema: ClassSchema
    /// The quoted, schema-qualified table name.
    let name: String
    private let sqlSchema: String

    init(_ schema: ClassSchema, in sqlSchema: String) {
        self.schema = schema
        self.sqlSchema = sqlSchema
        name = Self.quoted(sqlSchema) + "." + Self.quoted(schema.name)
    }

    /// `identifier` as a quoted SQL identifier.
    static func quoted(_ identifier: String) -> String { "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// The statement that creates the table (without its foreign keys: `foreignKeys`).
    var create: String {
        let columns = ["_key bigint PRIMARY KEY"] + schema.properties.map { p in
            Self.quoted(p.name) + " " + Self.columnType(p) + (p.isPrimaryKey ? " UNIQUE" : "")
        }
        return "CREATE TABLE \(name) (\(columns.joined(separator: ", ")))"
    }

    /// The statements that make each link column a foreign key to its target's `_key`,
    /// checked at commit (a commit sets a link and adds its target in either order).
    var foreignKeys: [String] {
        schema.properties.filter { $0.isToOneLink }.compactMap { p in
            guard let target = p.linkTarget else { return nil }
            return "ALTER TABLE \(name) ADD FOREIGN KEY (\(Self.quoted(p.name))) REFERENCES "
                + "\(Self.quoted(sqlSchema)).\(Self.quoted(target)) (_key) DEFERRABLE INITIALLY DEFERRED"
        }
    }

    private static func columnType(_ p: PropertySchema) -> String {
        if p.isList { return "jsonb" }
        switch p.type {
        case .bool: return "boolean"
        case .int, .link: return "bigint"
        case .float: return "real"
        case .double: return "double precision"
        case .string, .objectId: return "text"
        case .data: return "bytea"
        case .date: return "timestamptz"
        case .uuid: return "uuid"
        case .decimal128: return "numeric"
        case .mixed: return "jsonb"
        }
    }

    /// Upserts `rows` (each an object key and its parameters, `parameters(of:)`), many rows a
    /// statement.
    func upsert(_ rows: [[PostgresParameter]], on connection: PostgresConnection) throws {
        let perRow = schema.properties.count + 1
        let columns = ["_key"] + schema.properties.map { Self.quoted($0.name) }
        let updates = columns.dropFirst().map { "\($0) = EXCLUDED.\($0)" }
        let conflict = updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates.joined(separator: ", ")
        let batch = max(1, 30_000 / perRow)
        var start = 0
        while start < rows.count {
            let slice = rows[start..<min(rows.count, start + batch)]
            var values: [String] = []
            var parameters: [PostgresParameter] = []
            for row in slice {
                let placeholders = (0..<perRow).map { column in expression(column, parameters.count + column + 1) }
                values.append("(" + placeholders.joined(separator: ", ") + ")")
                parameters += row
            }
            try connection.execute("INSERT INTO \(name) (\(columns.joined(separator: ", "))) VALUES \(values.joined(separator: ", ")) "
                                   + "ON CONFLICT (_key) \(conflict)", parameters)
            start += batch
        }
    }

    /// Deletes the rows of `keys`.
    func delete(_ keys: [ObjectKey], on connection: PostgresConnection) throws {
        for chunk in stride(from: 0, to: keys.count, by: 1000) {
            let part = keys[chunk..<min(keys.count, chunk + 1000)].map { String(Int64(bitPattern: $0)) }
            try connection.execute("DELETE FROM \(name) WHERE _key = ANY ($1::bigint[])", [.text("{" + part.joined(separator: ",") + "}")])
        }
    }

    /// The SQL of parameter `n` as column `column` (0 is `_key`) takes it.
    private func expression(_ column: Int, _ n: Int) -> String {
        guard column > 0 else { return "$\(n)::bigint" }
        let p = schema.properties[column - 1]
        if p.isList { return "$\(n)::jsonb" }
        switch p.type {
        case .date: return "to_timestamp($\(n)::float8)"
        case .data: return "$\(n)"
        default: return "$\(n)::" + Self.columnType(p)
        }
    }

    /// The parameters of object `key`, whose row is `row` and whose collections `collection`
    /// reads (by property), in column order.
    func parameters(of key: ObjectKey, _ row: RowView, collection: (PropertySchema) throws -> String) rethrows -> [PostgresParameter] {
        var out: [PostgresParameter] = [.text(String(Int64(bitPattern: key)))]
        for p in schema.properties {
            if p.isList {
                out.append(.text(try collection(p)))
                continue
            }
            let value = row.hasSlot(p.id) ? row.value(p) : (p.isOptional || p.type == .link ? .null : ValueCodec.defaultValue(p.type))
            out.append(Self.parameter(value, of: p))
        }
        return out
    }

    private static func parameter(_ value: Value, of p: PropertySchema) -> PostgresParameter {
        if p.type == .mixed { return value.isNull ? .null : .text(MirrorJSON.mixed(value)) }
        switch value {
        case .null: return .null
        case .bool(let b): return .text(b ? "true" : "false")
        case .int(let i): return .text(String(i))
        case .float(let f): return .text(sqlNumber(Double(f)))
        case .double(let d): return .text(sqlNumber(d))
        case .string(let s): return .text(s)
        case .data(let d): return .bytes(Array(d))
        case .date(let d): return .text(sqlNumber(d.timeIntervalSince1970))
        case .uuid(let u): return .text(u.uuidString)
        case .link(let k), .typedLink(_, let k): return .text(String(Int64(bitPattern: k)))
        case .objectId(let id): return .text(id.stringValue)
        case .decimal128(let d): return .text(d.isNaN ? "NaN" : d.isInfinite ? (d.isNegative ? "-Infinity" : "Infinity") : d.text)
        }
    }

    /// A double as PostgreSQL reads it: its shortest text, `NaN`, `Infinity`, `-Infinity`.
    private static func sqlNumber(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d > 0 ? "Infinity" : "-Infinity" }
        return "\(d)"
    }
}
