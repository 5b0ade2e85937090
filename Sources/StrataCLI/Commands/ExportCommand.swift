import Foundation
import StrataStorage

/// `strata export FILE [--class C]...`: the schema, then every object (or those of the
/// classes named) as JSON Lines on stdout, read on one snapshot. The line format is in
/// `ObjectLines`, `SchemaLine` and docs/INSPECTOR.md.
struct ExportCommand: Command {
    static let name = "export"
    static let summary = "write the schema and objects as JSON Lines to stdout"
    static let help = HelpText(
        synopsis: "FILE [--class CLASS]...",
        description: [
            "Writes FILE's objects (or those of the classes named) to stdout as JSON Lines, all read on one "
                + "snapshot while other processes keep writing. The first line is the schema of the exported "
                + "classes and of the classes they link to; each further line is one object:",
            "  {\"class\":\"Dog\",\"key\":\"#3\",\"values\":{\"id\":3,\"name\":\"Rex\",\"tags\":[\"a\"]}}",
            "\"key\" is the object key as \"#N\"; \"values\" holds every property in schema order. Links are the "
                + "target's primary key (its \"#N\" when its class has none), lists arrays, data base64, dates "
                + "ISO 8601 in UTC with every digit of the fraction they need, UUIDs strings, non-finite numbers \"nan\", \"inf\", "
                + "\"-inf\": 'strata import' reads it back exactly, creating the classes a file lacks. The "
                + "output is JSON already, so there is no --json. Shows progress on stderr when it is a "
                + "terminal.",
        ],
        options: [("--class CLASS", "only the objects of CLASS (may be repeated)")],
        examples: ["strata export app.strata > app.jsonl", "strata export app.strata --class Dog | head"],
        exitStatus: [(0, "success"), (1, "the file cannot be read or the output cannot be written"),
                     (2, "bad arguments or an unknown class")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, valued: ["--class"])
        let path = try options.positional(1, "export takes one FILE")[0]
        let only = options.all("--class")
        let file = try StorageFile.open(path: path, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let txn = try file.beginRead()
        defer { txn.abort() }
        for name in only where txn.schema.classes[name] == nil {
            throw ClassNames.unknown(name, in: Array(txn.schema.classes.keys), file: path)
        }
        var tables: [Table] = []
        for schema in txn.schema.sorted where only.isEmpty || only.contains(schema.name) {
            if let table = try txn.table(schema.name) { tables.append(table) }
        }
        let total = try tables.reduce(0) { $0 + (try txn.rows.count($1)) }
        let progress = Progress("exporting", unit: "objects", total: total)
        defer { progress.finish() }
        let out = LineWriter()
        try out.line(try Self.schemaLine(tables.map(\.schema), txn))
        let lines = ExportLines(txn)
        var done = 0
        for table in tables {
            try lines.forEachLine(of: table) { line in
                try out.line(line)
                done += 1
                progress.update(done)
            }
        }
        try out.flush()
        return 0
    }

    /// The schema line: `classes` and every class they link to, directly or not, by name.
    static func schemaLine(_ classes: [ClassSchema], _ txn: StorageTransaction) throws -> String {
        var names = Set(classes.map(\.name))
        var pending = classes
        while let schema = pending.popLast() {
            for target in schema.properties.compactMap(\.linkTarget) where names.insert(target).inserted {
                if let linked = txn.schema.classes[target] { pending.append(linked) }
            }
        }
        let included = txn.schema.sorted.filter { names.contains($0.name) }
        let line = SchemaLine(schema: .init(version: try txn.meta.schemaVersion, classes: included.map { ClassJSON($0) }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(line), as: UTF8.self)
    }
}
