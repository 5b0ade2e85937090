import Foundation
import StrataStorage

/// `strata export FILE [--class C]...`: every object (or those of the classes named) as JSON
/// Lines on stdout, read on one snapshot. The line format is in `ObjectLines` and
/// docs/INSPECTOR.md.
struct ExportCommand: Command {
    static let name = "export"
    static let usage = "export FILE [--class C]..."
    static let summary = "write the objects as JSON Lines to stdout"
    static let help = """
        usage: strata export FILE [--class CLASS]...

        Writes every object of FILE (or of the classes named) to stdout, one JSON object per
        line, all read on one snapshot while other processes keep writing:

          {"class":"Dog","key":3,"values":{"id":3,"name":"Rex","owner":"ann","tags":["a"]}}

        "key" is the object key; "values" holds every property in schema order. Links are
        the target's primary key (its object key when its class has none), lists arrays,
        data base64, dates seconds since 2001-01-01T00:00:00Z, UUIDs strings, and non-finite
        numbers "nan", "inf", "-inf": `strata import` reads it back exactly.

        options:
          --class CLASS   only the objects of CLASS (may be repeated)

        examples:
          strata export app.strata > app.jsonl
          strata export app.strata --class Dog | head

        exit status: 0 success, 1 the file cannot be read, 2 bad arguments or an unknown class
        """

    func run(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") { Output.line(Self.help); return 0 }
        var words: [String] = [], only: [String] = []
        var rest = arguments[...]
        while let word = rest.popFirst() {
            if word == "--class" {
                guard let name = rest.popFirst() else { throw UsageError("--class needs a class name") }
                only.append(name)
            } else if word.hasPrefix("--") {
                throw UsageError("unknown option \(word)")
            } else {
                words.append(word)
            }
        }
        guard words.count == 1 else { throw UsageError("export takes one file") }
        let path = words[0]
        let file = try StorageFile.open(path: path, options: .init(readOnly: true))
        let txn = try file.beginRead()
        defer { txn.abort() }
        for name in only where txn.schema.classes[name] == nil {
            Output.error("export: \(QueryCommand.unknownClass(name, in: Array(txn.schema.classes.keys), file: path))")
            return 2
        }
        let classes = txn.schema.sorted.filter { only.isEmpty || only.contains($0.name) }
        var tables: [Table] = []
        for schema in classes { if let table = try txn.table(schema.name) { tables.append(table) } }
        let total = try tables.reduce(0) { $0 + (try txn.count($1)) }
        let progress = Progress("exporting: object", total: total)
        let out = ObjectLines.Writer()
        var done = 0
        var targets: [String: Table] = [:]

        for table in tables {
            let prefix = "{\"class\":" + QueryObjects.jsonString(table.name) + ",\"key\":"
            let names = table.schema.properties.map { QueryObjects.jsonString($0.name) + ":" }
            // How each link property names its targets: by primary key or by object key.
            var linkKeys: [Int: (ObjectKey) throws -> String] = [:]
            for property in table.schema.properties where property.type == .link {
                guard let targetName = property.linkTarget else { continue }
                if targets[targetName] == nil { targets[targetName] = try txn.table(targetName) }
                guard let target = targets[targetName], let pk = target.primaryKey else {
                    linkKeys[property.id] = { String($0) }
                    continue
                }
                linkKeys[property.id] = { key in
                    guard let row = try txn.row(target, key) else { return "null" }
                    return ObjectLines.json(row.value(pk)) { String($0) }
                }
            }
            let rows = try txn.scan(table)
            while let (key, row) = try rows.next() {
                var line = prefix + String(key) + ",\"values\":{"
                for (i, property) in table.schema.properties.enumerated() {
                    if i > 0 { line += "," }
                    line += names[i]
                    let linkKey = linkKeys[property.id] ?? { String($0) }
                    if property.isList {
                        let elements = try txn.listValues(table, property, owner: key)
                        line += "[" + (try elements.map { try ObjectLines.json($0, linkKey: linkKey) }).joined(separator: ",") + "]"
                    } else {
                        line += try ObjectLines.json(row.value(property), linkKey: linkKey)
                    }
                }
                line += "}}"
                try out.line(line)
                done += 1
                progress.update(done)
            }
        }
        try out.flush()
        progress.finish()
        return 0
    }
}
