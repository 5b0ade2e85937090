import Foundation
import Strata
import StrataQuery
import StrataStorage

/// `strata query FILE CLASS PREDICATE [ARGS...] [--sort KEY[,KEY DESC]] [--limit N] [--explain]
/// [--json]`: the objects of one class matching a query, read by the file's stored schema (no
/// model classes needed) on one read snapshot, held only while reading.
struct QueryCommand: Command {
    static let name = "query"
    static let summary = "print the objects matching a query, or its plan"
    static let help = HelpText(
        synopsis: "FILE CLASS PREDICATE [ARGS...] [--sort KEY[,KEY DESC]] [--limit N] [--explain] [--json]",
        description: [
            "Runs PREDICATE (the Strata query language, docs/QUERY-LANGUAGE.md, SORT/DISTINCT/LIMIT suffixes "
                + "included) on the objects of CLASS and prints them as a table: every stored property, links "
                + "as the target's primary key (or #objectKey), lists as their element count; wide cells are "
                + "shortened to fit the width (--json gives them whole). The file is opened read-only; other "
                + "processes may write meanwhile.",
            "ARGS fill %@ and $0, $1, ... in order: an integer, a decimal number, true, false, null, or a "
                + "JSON array (for IN and BETWEEN) is that value; anything else is a string. After --, an "
                + "argument may start with --.",
        ],
        options: [("--sort KEYS", "sort by KEY[ ASC|DESC], comma-separated (after PREDICATE's suffixes)"),
                  ("--limit N", "at most N objects (after sorting)"),
                  ("--explain", "print the plan (index or scan, then filter, sort, limit) instead"),
                  ("--json", "one JSON object per line (JSON Lines), properties in schema order")],
        examples: ["strata query app.strata Dog 'name BEGINSWITH[c] %@' r --sort 'age DESC'",
                   "strata query app.strata Dog 'id IN %@' '[1, 2, 3]' --json",
                   "strata query app.strata Dog \"name == 'Rex'\" --explain"],
        exitStatus: [(0, "success (also when nothing matches)"), (1, "the file cannot be read"),
                     (2, "bad arguments, an unknown class or an invalid query")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Options(arguments)
        let file = try StorageFile.open(path: options.path, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let text = options.queryText

        // Read everything on one snapshot, then print with no transaction open.
        let txn = try file.beginRead()
        let output: QueryOutput
        do {
            defer { txn.abort() }
            guard let table = try txn.table(options.className) else {
                throw ClassNames.unknown(options.className, in: Array(txn.schema.classes.keys), file: options.path)
            }
            let query: CompiledQuery
            do {
                query = try compileQuery(text, arguments: options.values, schema: table.schema,
                                         lookup: SchemaLookup(classes: txn.schema.classes))
            } catch {
                let pointer = error.position.map { "\n" + Self.pointer(text, at: $0) } ?? ""
                throw CommandFailure("\(error)" + pointer, hint: "the query language is in docs/QUERY-LANGUAGE.md", status: 2)
            }
            if options.explain {
                output = .plan(try QueryExecution.explain(query, in: table, txn, className: table.name))
            } else {
                var evaluation = try QueryEvaluation(query, in: table, txn)
                try evaluation.order(upTo: .max, in: table, txn)
                output = .objects(try QueryObjects(keys: evaluation.keys, table: table, txn))
            }
        }

        switch output {
        case .plan(let plan):
            Output.line(plan)
        case .objects(let objects):
            if options.json {
                Output.lines(objects.jsonLines())
            } else {
                Output.lines(objects.table())
                Output.line("(\(Output.count(objects.rows.count, "object")) of \(objects.className))")
            }
        }
        return 0
    }

    /// What the snapshot read produced: a plan (`--explain`) or objects.
    private enum QueryOutput {
        case plan(String)
        case objects(QueryObjects)
    }

    /// The query text with a caret under character `position` (counted in characters).
    static func pointer(_ text: String, at position: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return "  " + flat + "\n  " + String(repeating: " ", count: min(position, flat.count)) + "^"
    }

    /// The parsed command line.
    struct Options {
        var path = ""
        var className = ""
        var predicate = ""
        var values: [Any] = []
        var sort: [String] = []
        var limit: Int?
        var explain = false
        var json = false

        init(_ arguments: [String]) throws {
            let parsed = try Arguments(arguments, flags: ["--explain", "--json"], valued: ["--sort", "--limit"])
            explain = parsed.has("--explain")
            json = parsed.has("--json")
            sort = try parsed.all("--sort").flatMap { try $0.split(separator: ",").map(Self.sortKey) }
            if let text = parsed.value("--limit") {
                guard let n = Int(text), n >= 0 else { throw UsageError("--limit needs a number of objects (0 or more)") }
                limit = n
            }
            let words = parsed.words
            guard words.count >= 3 else { throw UsageError("query takes a FILE, a CLASS and a PREDICATE") }
            path = words[0]
            className = words[1]
            predicate = words[2]
            values = words.dropFirst(3).map(Self.argument)
        }

        /// The predicate with the `--sort` and `--limit` suffixes appended.
        var queryText: String {
            var text = predicate
            if !sort.isEmpty { text += " SORT(\(sort.joined(separator: ", ")))" }
            if let limit { text += " LIMIT(\(limit))" }
            return text
        }

        /// `name`, `name ASC` or `name DESC` as a SORT key.
        private static func sortKey(_ text: Substring) throws -> String {
            let parts = text.split(separator: " ")
            guard let key = parts.first, parts.count <= 2 else { throw UsageError("bad sort key '\(text)': use KEY or KEY DESC") }
            let direction = parts.count == 2 ? parts[1].uppercased() : "ASC"
            guard ["ASC", "DESC", "ASCENDING", "DESCENDING"].contains(direction) else {
                throw UsageError("bad sort direction '\(parts[1])': use ASC or DESC")
            }
            return "\(key) \(direction)"
        }

        /// A command-line argument as a query argument (see the help text).
        static func argument(_ text: String) -> Any {
            if let i = Int(text) { return i }
            if let d = Double(text), text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return d }
            switch text {
            case "true": return true
            case "false": return false
            case "null", "nil": return NSNull()
            default: break
            }
            if text.hasPrefix("["), let data = text.data(using: .utf8),
               let array = try? JSONSerialization.jsonObject(with: data) as? [Any] {
                return array
            }
            return text
        }
    }
}
