import Foundation
import Strata

/// One class's changes as `show` and `diff` print them: the objects inserted (+), deleted
/// (-) and modified (~, with the property names), each with the values known at the versions
/// the changes lead from and to (`ValuesAtVersion`): `old -> new`.
struct ChangeReport {
    let changes: Realm.HistoryEntry.ClassChanges
    /// The known values of each inserted object (every property), parallel to `inserted`.
    let insertedValues: [[(name: String, cell: Cell)]]
    /// The known values each deleted object had before (every property), parallel to `deleted`.
    let deletedValues: [[(name: String, cell: Cell)]]
    /// The known values of each modified object's changed properties, parallel to `modified`.
    let modifiedValues: [[(name: String, cell: Cell)]]
    /// The known values those properties had before, parallel to `modified`.
    let modifiedOldValues: [[(name: String, cell: Cell)]]
    /// The class's primary-key property: its value labels the object's line, so it is not
    /// repeated among the values there.
    let primaryKey: String?

    /// The report of `changes`, with the values `before` and `after` know.
    init(_ changes: Realm.HistoryEntry.ClassChanges, before: ValuesAtVersion, after: ValuesAtVersion) throws {
        self.changes = changes
        let name = changes.className
        primaryKey = try after.primaryKeyName(name)
        insertedValues = try changes.inserted.map { try after.values(name, $0.objectKey, nil) }
        deletedValues = try changes.deleted.map { try before.values(name, $0.objectKey, nil) }
        modifiedValues = try changes.modified.map { try after.values(name, $0.object.objectKey, $0.properties) }
        modifiedOldValues = try changes.modified.map { try before.values(name, $0.object.objectKey, $0.properties) }
    }

    /// The reports of `classes`, the changes from version `from` to version `to`, with the
    /// values of both where known.
    static func reports(_ classes: [Realm.HistoryEntry.ClassChanges], path: String, from: UInt64, to: UInt64) throws -> [ChangeReport] {
        try ValuesAtVersion.reading(path, versions: [from, to]) { values in
            try classes.map { try ChangeReport($0, before: values[0], after: values[1]) }
        }
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
    /// `  - 7  name="Rex", age=9` (the values it had), `  ~ 1  age=9 -> 10, writtenBy` (old
    /// and new values where known, a property with neither by name only), each shortened to
    /// the output width.
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
        for (object, values) in zip(changes.deleted, deletedValues) {
            let shown = values.filter { object.primaryKey == nil || $0.name != primaryKey }
            rows.append(("-", .red, object.description, shown.map { "\($0.name)=\($0.cell.quotedText)" }.joined(separator: ", ")))
        }
        for ((object, values), oldValues) in zip(zip(changes.modified, modifiedValues), modifiedOldValues) {
            let known = Dictionary(values.map { ($0.name, $0.cell) }, uniquingKeysWith: { a, _ in a })
            let old = Dictionary(oldValues.map { ($0.name, $0.cell) }, uniquingKeysWith: { a, _ in a })
            let detail = object.properties.map { name in
                switch (old[name], known[name]) {
                case (let before?, let after?): "\(name)=\(before.quotedText) -> \(after.quotedText)"
                case (nil, let after?): "\(name)=\(after.quotedText)"
                case (let before?, nil): "\(name)=\(before.quotedText) -> ?"
                case (nil, nil): name
                }
            }
            rows.append(("~", .yellow, object.object.description, detail.joined(separator: ", ")))
        }
        let table = Output.table(nil, rows.map { [$0.id, $0.detail] }, indent: "    ", width: width, shrinking: [[1], [0]])
        return ["\(changes.className): " + head.joined(separator: ", ")]
            + zip(rows, table).map { row, line in "  " + Style.paint(row.sign, row.colour) + " " + line.dropFirst(4) }
    }

    /// The `--json` form: objects with their known values (`values`) and those they had
    /// before (`oldValues`).
    var json: HistoryJSON.ClassDetail {
        func values(_ list: [(name: String, cell: Cell)]) -> [String: JSONScalar]? {
            list.isEmpty ? nil : Dictionary(list.map { ($0.name, $0.cell.json) }, uniquingKeysWith: { a, _ in a })
        }
        return HistoryJSON.ClassDetail(
            name: changes.className, cleared: changes.cleared,
            inserted: zip(changes.inserted, insertedValues).map { HistoryJSON.Object(id: $0, properties: nil, values: values($1), oldValues: nil) },
            deleted: zip(changes.deleted, deletedValues).map { HistoryJSON.Object(id: $0, properties: nil, values: nil, oldValues: values($1)) },
            modified: zip(zip(changes.modified, modifiedValues), modifiedOldValues).map {
                HistoryJSON.Object(id: $0.0.object, properties: $0.0.properties, values: values($0.1), oldValues: values($1))
            })
    }
}
