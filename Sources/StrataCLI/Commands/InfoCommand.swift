import Foundation
import StrataStorage

/// `strata info FILE [--json]`: what a file holds, on one snapshot: its schema, object counts,
/// size and page use, version, schema version and retained history.
struct InfoCommand: Command {
    static let name = "info"
    static let usage = "info FILE [--json]"
    static let summary = "print the schema, object counts, size, version and history"
    static let help = """
        usage: strata info FILE [--json]

        Prints what FILE holds, read on one snapshot while other processes keep working:
        its size and page use (pages in use, free pages that later writes reuse, unused
        pages at the end), the current version and schema version, the versions whose
        history is retained, and every class with its object count and properties (type,
        primary key, index, optional, link and list targets).

        options:
          --json   one JSON object (its members are in docs/INSPECTOR.md)

        exit status: 0 success, 1 the file cannot be read, 2 bad arguments
        """

    struct Info {
        var path: String
        var bytes: Int
        var pageSize: Int
        var usedPages: Int
        var freePages: Int
        var unusedPages: Int
        var version: UInt64
        var schemaVersion: UInt64?
        var history: (count: Int, oldest: UInt64?, newest: UInt64?)
        var classes: [(schema: ClassSchema, objects: Int)]
    }

    func run(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") { Output.line(Self.help); return 0 }
        var json = false
        var words: [String] = []
        for word in arguments {
            if word == "--json" { json = true } else if word.hasPrefix("--") { throw UsageError("unknown option \(word)") } else { words.append(word) }
        }
        guard words.count == 1 else { throw UsageError("info takes one file") }
        let info = try Self.read(words[0])
        if json { Output.line(Self.json(info)) } else { for line in Self.text(info) { Output.line(line) } }
        return 0
    }

    static func read(_ path: String) throws -> Info {
        let file = try StorageFile.open(path: path, options: .init(readOnly: true))
        let pageSize = file.environment.pageSize
        let highWater = file.environment.usedBytes
        let (bytes, used) = try file.sizes()
        let txn = try file.beginRead()
        defer { txn.abort() }
        var classes: [(ClassSchema, Int)] = []
        for schema in txn.schema.sorted {
            guard let table = try txn.table(schema.name) else { continue }
            classes.append((schema, try txn.count(table)))
        }
        let filePages = bytes / pageSize
        return Info(path: path, bytes: bytes, pageSize: pageSize, usedPages: used / pageSize,
                    freePages: max(0, highWater - used) / pageSize, unusedPages: max(0, filePages - highWater / pageSize),
                    version: txn.version, schemaVersion: txn.storedSchemaVersion, history: try txn.historyBounds(),
                    classes: classes)
    }

    /// "int", "string?", "link<Person>", "list<string>", "list<Person>".
    static func typeName(_ p: PropertySchema) -> String {
        var base = p.type == .link ? (p.linkTarget ?? "?") : p.type.description
        if p.type == .int, p.intWidth < 64 { base += String(p.intWidth) }
        if p.isList { return "list<\(base)>" }
        if p.type == .link { return "link<\(base)>" }
        return base + (p.isOptional ? "?" : "")
    }

    static func flags(_ p: PropertySchema) -> String {
        var flags: [String] = []
        if p.isPrimaryKey { flags.append("primary key") } else if p.isIndexed { flags.append("indexed") }
        return flags.joined(separator: ", ")
    }

    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    static func text(_ info: Info) -> [String] {
        let kib = { (pages: Int) in grouped(pages * info.pageSize / 1024) + " KiB" }
        let objects = info.classes.reduce(0) { $0 + $1.objects }
        var lines = [
            "file        \(info.path)",
            "size        \(kib(info.bytes / info.pageSize)) (\(grouped(info.bytes)) bytes, pages of \(grouped(info.pageSize)))",
            "pages       \(grouped(info.usedPages)) in use (\(kib(info.usedPages))), \(grouped(info.freePages)) free, \(grouped(info.unusedPages)) unused at the end",
            "version     \(info.version)",
            "schema      version \(info.schemaVersion.map(String.init) ?? "none"), \(info.classes.count) \(info.classes.count == 1 ? "class" : "classes"), \(grouped(objects)) \(objects == 1 ? "object" : "objects")",
        ]
        if let oldest = info.history.oldest, let newest = info.history.newest {
            lines.append("history     versions \(oldest)–\(newest) retained (\(grouped(info.history.count)) \(info.history.count == 1 ? "entry" : "entries"))")
        } else {
            lines.append("history     none retained")
        }
        for (schema, count) in info.classes {
            lines.append("")
            lines.append("\(schema.name): \(grouped(count)) \(count == 1 ? "object" : "objects")")
            let rows = schema.properties.map { [$0.name, typeName($0), flags($0)] }
            lines += Output.table(["property", "type", "key/index"], rows)
        }
        return lines
    }

    static func json(_ info: Info) -> String {
        func string(_ s: String?) -> String { s.map(QueryObjects.jsonString) ?? "null" }
        func number(_ n: UInt64?) -> String { n.map(String.init) ?? "null" }
        let classes = info.classes.map { schema, count -> String in
            let properties = schema.properties.map { p in
                "{\"name\":\(string(p.name)),\"type\":\(string(p.type.description)),\"optional\":\(p.isOptional),\"indexed\":\(p.hasIndex),\"primaryKey\":\(p.isPrimaryKey),\"list\":\(p.isList),\"target\":\(string(p.linkTarget))}"
            }
            return "{\"name\":\(string(schema.name)),\"objects\":\(count),\"primaryKey\":\(string(schema.primaryKey?.name)),\"properties\":[\(properties.joined(separator: ","))]}"
        }
        return "{\"file\":\(string(info.path)),\"bytes\":\(info.bytes),\"pageSize\":\(info.pageSize),"
            + "\"pages\":{\"used\":\(info.usedPages),\"free\":\(info.freePages),\"unused\":\(info.unusedPages)},"
            + "\"usedBytes\":\(info.usedPages * info.pageSize),\"freeBytes\":\(info.freePages * info.pageSize),"
            + "\"version\":\(info.version),\"schemaVersion\":\(number(info.schemaVersion)),"
            + "\"history\":{\"count\":\(info.history.count),\"oldest\":\(number(info.history.oldest)),\"newest\":\(number(info.history.newest))},"
            + "\"objects\":\(info.classes.reduce(0) { $0 + $1.objects }),\"classes\":[\(classes.joined(separator: ","))]}"
    }
}
