import Foundation
import Strata

/// One class's changes as `show` and `diff` print them: the objects inserted (+), deleted
/// (-) and modified (~, with the property names), each with the values known at the version
/// the changes lead to (`ValuesAtVersion`).
struct ChangeReport {
    let changes: Realm.HistoryEntry.ClassChanges
    /// The known values of each inserted object (every property), parallel to `inserted`.
    let insertedValues: [[(name: String, cell: Cell)]]
    /// The known values of each modified object's changed properties, parallel to `modified`.
    let modifiedValues: [[(name: String, cell: Cell)]]
    /// The class's primary-key property: its value labels the object's line, so it is not
    /// repeated among the values there.
    let primaryKey: String?

    /// The report of `changes`, with the values `values` knows.
    init(_ changes: Realm.HistoryEntry.ClassChanges, _ values: ValuesAtVersion) throws {
        self.changes = changes
        primaryKey = try values.primaryKeyName(changes.className)
        insertedValues = try changes.inserted.map { try values.values(changes.className, $0.objectKey, nil) }
        modifiedValues = try changes.modified.map { try values.values(changes.className, $0.object.objectKey, $0.properties) }
    }

    /// The reports of `classes`, with the values of `version` where known.
    static func reports(_ classes: [Realm.HistoryEntry.ClassChanges], path: String, version: UInt64) throws -> [ChangeReport] {
        try ValuesAtVersion.reading(path, version: version) { values in try classes.map { try ChangeReport($0, values) } }
    }

    /// `Dog +3 -1 ~2(name,age); Cat cleared +1`, or `(no object changes)`: what `log` prints
    /// per entry and `show` and `diff` above the objects.
    static func summary(_ classes: [Realm.HistoryEntry.ClassChanges]) -> String {
        guard !classes.isEmpty else { return "(no object changes)" }
        return classes.map { c in
            var parts = [c.className]
            if c.cleared { parts.append("cleared") }
            if !c.inserted.isEmpty { parts.append("+\(c.inserted.count)") }
            if !c.deleted.isEmpty { parts.append("-\(c.deleted.count)") }
            if !c.modified.isEmpty { parts.append("~\(c.modified.count)(\(c.modifiedProperties.joined(separator: ",")))") }
            return parts.joined(separator: " ")
        }.joined(separator: "; ")
    }

    /// The class's heading and one line per object: `  + 5  name="Kiwi", age=3`,
    /// `  - 7`, `  ~ 1  age=10, writtenBy` (a property without a known value by name only),
    /// each shortened to the output width.
    func lines(width: Int = Output.width) -> [String] {
        var head = [String]()
        if changes.cleared { head.append("cleared") }
        if !changes.inserted.isEmpty { head.append("\(Output.grouped(changes.inserted.count)) inserted") }
        if !changes.deleted.isEmpty { head.append("\(Output.grouped(changes.deleted.count)) deleted") }
        if !changes.modified.isEmpty { head.append("\(Output.grouped(changes.modified.count)) modified") }
        var rows: [(sign: String, colour: Style.Colour, id: String, detail: String)] = []
        for (object, values) in zip(changes.inserted, insertedValues) {
            let shown = values.filter { object.primaryKey == nil || $0.name != primaryKey }
            rows.append(("+", .green, object.description, shown.map { "\($0.name)=\($0.cell.quotedText)" }.joined(separator: ", ")))
        }
        rows += changes.deleted.map { ("-", .red, $0.description, "") }
        for (object, values) in zip(changes.modified, modifiedValues) {
            let known = Dictionary(values.map { ($0.name, $0.cell) }, uniquingKeysWith: { a, _ in a })
            let detail = object.properties.map { name in known[name].map { "\(name)=\($0.quotedText)" } ?? name }
            rows.append(("~", .yellow, object.object.description, detail.joined(separator: ", ")))
        }
        let table = Output.table(nil, rows.map { [$0.id, $0.detail] }, indent: "    ", width: width, shrinking: [[1], [0]])
        return ["\(changes.className): " + head.joined(separator: ", ")]
            + zip(rows, table).map { row, line in "  " + Style.paint(row.sign, row.colour) + " " + line.dropFirst(4) }
    }

    /// The `--json` form: objects with their known values.
    var json: HistoryJSON.ClassDetail {
        func values(_ list: [(name: String, cell: Cell)]) -> [String: JSONScalar]? {
            list.isEmpty ? nil : Dictionary(list.map { ($0.name, $0.cell.json) }, uniquingKeysWith: { a, _ in a })
        }
        return HistoryJSON.ClassDetail(
            name: changes.className, cleared: changes.cleared,
            inserted: zip(changes.inserted, insertedValues).map { HistoryJSON.Object(id: $0, properties: nil, values: values($1)) },
            deleted: changes.deleted.map { HistoryJSON.Object(id: $0, properties: nil, values: nil) },
            modified: zip(changes.modified, modifiedValues).map { HistoryJSON.Object(id: $0.object, properties: $0.properties, values: values($1)) })
    }
}
