import Foundation
import StrataStorage

/// `strata info FILE [--json]`: what a file holds, on one snapshot: its schema, object counts,
/// size and page use, version, schema version and retained history.
struct InfoCommand: Command {
    static let name = "info"
    static let summary = "print the schema, object counts, size, version and history"
    static let help = HelpText(
        synopsis: "FILE [--json]",
        description: [
            "Prints what FILE holds, read on one snapshot while other processes keep working: its size and "
                + "page use (pages in use, free pages that later writes reuse, unused pages at the end), the "
                + "current version and schema version, the versions whose history is retained, and every "
                + "class with its object count and properties (type, primary key, index, optional, link and "
                + "list targets).",
        ],
        options: [("--json", "one JSON object (its members are in docs/INSPECTOR.md)")],
        examples: ["strata info app.strata", "strata info app.strata --json"],
        exitStatus: [(0, "success"), (1, "the file cannot be read"), (2, "bad arguments")])

    /// What `info` prints, in both forms.
    struct Info: Encodable {
        var file: String
        var bytes: Int
        var pageSize: Int
        var pages: Pages
        /// `pages.used` and `pages.free` in bytes.
        var usedBytes, freeBytes: Int
        var version: UInt64
        @NullWhenNil var schemaVersion: UInt64?
        var history: History
        /// Objects of every class.
        var objects: Int
        var classes: [ClassJSON]
        /// The file's part in replication (docs/REPLICATION.md), nil for none.
        @NullWhenNil var replication: Replication?

        /// Pages in use, on the free list, and past the last one written.
        struct Pages: Encodable { var used, free, unused: Int }
        /// The retained history entries and their version range.
        struct History: Encodable { var count: Int; var oldest, newest: UInt64? }
        /// An origin's id, or a follower's origin, the newest origin version it holds, when
        /// that was committed there and how long after it the follower applied it (seconds).
        struct Replication: Encodable {
            var role: String
            var origin: String
            @NullWhenNil var applied: UInt64?
            @NullWhenNil var appliedCommitted: String?
            @NullWhenNil var lagSeconds: Double?
        }
    }

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        let info = try Self.read(try options.positional(1, "info takes one FILE")[0])
        if options.has("--json") { Output.json(info) } else { Output.lines(Self.text(info)) }
        return 0
    }

    /// Reads `path`'s sizes and, on one snapshot, its schema, counts and history bounds.
    static func read(_ path: String) throws -> Info {
        let file = try StorageFile.open(path: path, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let pageSize = file.environment.pageSize
        let highWater = file.environment.usedBytes
        let (bytes, used) = try file.sizes()
        let txn = try file.beginRead()
        defer { txn.abort() }
        var classes: [ClassJSON] = []
        for schema in txn.schema.sorted {
            guard let table = try txn.table(schema.name) else { continue }
            classes.append(ClassJSON(schema, objects: try txn.rows.count(table)))
        }
        let bounds = try txn.history.bounds()
        let pages = Info.Pages(used: used / pageSize, free: max(0, highWater - used) / pageSize,
                               unused: max(0, bytes / pageSize - highWater / pageSize))
        return Info(file: path, bytes: bytes, pageSize: pageSize, pages: pages, usedBytes: pages.used * pageSize,
                    freeBytes: pages.free * pageSize, version: txn.version, schemaVersion: try txn.meta.schemaVersion,
                    history: Info.History(count: bounds.count, oldest: bounds.oldest, newest: bounds.newest),
                    objects: classes.reduce(0) { $0 + ($1.objects ?? 0) }, classes: classes,
                    replication: try replication(txn))
    }

    /// The file's part in replication, read on snapshot `txn`.
    private static func replication(_ txn: StorageTransaction) throws -> Info.Replication? {
        if let (origin, applied) = try txn.followedOrigin() {
            let committed = try txn.meta.replicationAppliedTime
            let appliedHere = try txn.history.bounds().newest.flatMap { try txn.history.entry($0)?.time }
            let lag = committed.flatMap { c in appliedHere.map { max(0, $0 - c) } }
            return Info.Replication(role: "follower", origin: origin, applied: applied,
                                    appliedCommitted: committed.flatMap { ISOTime.text(Date(timeIntervalSince1970: $0)) }, lagSeconds: lag)
        }
        guard let origin = try txn.meta.replicationOrigin, try txn.meta.recordsNewValues else { return nil }
        return Info.Replication(role: "origin", origin: origin)
    }

    /// "int", "int8", "string?", "link<Person>", "list<string>", "list<Person>".
    static func typeName(_ p: PropertyJSON) -> String {
        var base = p.type == "link" ? (p.target ?? "?") : p.type
        if let bits = p.bits, bits < 64 { base += String(bits) }
        if p.set == true { return "set<\(base)>" }
        if p.list { return "list<\(base)>" }
        if p.type == "link" { return "link<\(base)>" }
        return base + (p.optional ? "?" : "")
    }

    /// Key-value lines, then per class a table of its properties.
    static func text(_ info: Info) -> [String] {
        let kib = { (pages: Int) in Output.grouped(pages * info.pageSize / 1024) + " KiB" }
        var lines = [
            "file        \(info.file)",
            "size        \(kib(info.bytes / info.pageSize)) (\(Output.grouped(info.bytes)) bytes, pages of \(Output.grouped(info.pageSize)))",
            "pages       \(Output.grouped(info.pages.used)) in use (\(kib(info.pages.used))), \(Output.grouped(info.pages.free)) free, \(Output.grouped(info.pages.unused)) unused at the end",
            "version     \(info.version)",
            "schema      version \(info.schemaVersion.map(String.init) ?? "none"), \(Output.count(info.classes.count, "class", "classes")), \(Output.count(info.objects, "object"))",
        ]
        if let r = info.replication {
            if let applied = r.applied {
                let lag = r.lagSeconds.map { String(format: ", applied %.3f s after its commit there", $0) } ?? ""
                lines.append("replication follower of origin \(r.origin): holds its version \(applied)\(r.appliedCommitted.map { " (committed \($0))" } ?? "")\(lag)")
            } else {
                lines.append("replication origin \(r.origin)")
            }
        }
        if let oldest = info.history.oldest, let newest = info.history.newest {
            lines.append("history     versions \(oldest)–\(newest) retained (\(Output.count(info.history.count, "entry", "entries")))")
        } else {
            lines.append("history     none retained")
        }
        for c in info.classes {
            lines.append("")
            lines.append("\(c.name)\(c.embedded == true ? " (embedded)" : ""): \(Output.count(c.objects ?? 0, "object"))")
            let rows = c.properties.map { p in [p.name, typeName(p), p.primaryKey ? "primary key" : p.indexed ? "indexed" : ""] }
            lines += Output.table(["property", "type", "key/index"], rows)
        }
        return lines
    }
}
