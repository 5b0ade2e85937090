import Foundation
import Strata
import StrataQuery
import StrataStorage

/// `strata query FILE CLASS PREDICATE [ARGS...] [--sort KEY[,KEY DESC]] [--limit N]
/// [--columns A,B] [--count | --explain] [--json]`: the objects of one class matching a query,
/// or their number, read by the file's stored schema (no model classes needed) on one read
/// snapshot, held only while reading.
struct QueryCommand: Command {
    static let name = "query"
    static let summary = "print the objects matching a query, their number or its plan"
    static let help = HelpText(
        synopsis: "FILE CLASS PREDICATE [ARGS...] [--sort KEY[,KEY DESC]] [--limit N] [--columns A,B] "
            + "[--at VERSION] [--count | --explain] [--json]",
        description: [
            "Runs PREDICATE (the Strata query language, docs/QUERY-LANGUAGE.md, SORT/DISTINCT/LIMIT suffixes "
                + "included) on the objects of CLASS and prints them as a table: every stored property (or the "
                + "--columns given), links as the target's primary key (or #objectKey), lists, sets and maps as "
                + "their element count; wide cells are shortened to fit the width (--json gives them whole, "
                + "with the elements of lists and sets as arrays and maps as objects). The file is opened "
                + "read-only; other processes may write meanwhile.",
            "ARGS fill %@ and $0, $1, ... in order: an integer, a decimal number, true, false, null, or a "
                + "JSON array (for IN and BETWEEN) is that value; anything else is a string. After --, an "
                + "argument may start with --.",
        ],
        options: [("--sort KEYS", "sort by KEY[ ASC|DESC], comma-separated (after PREDICATE's suffixes)"),
                  ("--limit N, -n N", "at most N objects (after sorting)"),
                  ("--columns A,B", "only these properties, in this order (#key: the object key, first)"),
                  ("--at VERSION", "query the file as it was at VERSION, rebuilt from the history's old values"),
                  ("--count", "print only the number of objects (after --limit)"),
                  ("--explain", "print the plan (index or scan, then filter, sort, limit) instead"),
                  ("--json", "one JSON object per line (JSON Lines), properties in schema order; "
                      + "with --count {\"count\": N}")],
        examples: ["strata query app.strata Dog 'name BEGINSWITH[c] %@' r --sort 'age DESC'",
                   "strata query app.strata Dog 'id IN %@' '[1, 2, 3]' --json",
                   "strata query app.strata Dog 'age > 3' --columns id,name,tags",
                   "strata query app.strata Dog 'age > 3' --count",
                   "strata query app.strata Dog \"name == 'Rex'\" --explain",
                   "strata query app.strata Dog 'age > 3' --at 1200"],
        exitStatus: [(0, "success (also when nothing matches)"), (1, "the file cannot be read, or VERSION cannot be read"),
                     (2, "bad arguments, an unknown class or an invalid query")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Options(arguments)
        let source = try StorageFile.open(path: options.path, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let past = try options.version.map { try PastVersionCopy(of: source, at: $0) }
        let file = past?.file ?? source
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
                output = options.count ? .count(evaluation.keys.count)
                    : .objects(try QueryObjects(keys: evaluation.keys, table: table, txn, columns: options.columns,
                                                elements: options.json))
            }
        }

        withExtendedLifetime(past) {}
        switch output {
        case .plan(let plan):
            Output.line(plan)
        case .count(let count):
            if options.json { Output.json(["count": count]) } else { Output.line(String(count)) }
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

    /// What the snapshot read produced: a plan (`--explain`), a number (`--count`) or objects.
    private enum QueryOutput {
        case plan(String)
        case count(Int)
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
        /// The columns of `--columns`, in order, or nil for every property.
        var columns: [String]?
        /// `--at`: the past version to query.
        var version: UInt64?
        var count = false
        var explain = false
        var json = false

        init(_ arguments: [String]) throws {
            let parsed = try Arguments(arguments, flags: ["--count", "--explain", "--json"],
                                       valued: ["--sort", "--limit", "--columns", "--at"], short: ["-n": "--limit"])
            count = parsed.has("--count")
            explain = parsed.has("--explain")
            version = try parsed.number("--at")
            json = parsed.has("--json")
            sort = try parsed.all("--sort").flatMap { try $0.split(separator: ",").map(Self.sortKey) }
            limit = try parsed.count("--limit")
            columns = try parsed.value("--columns").map(Self.columns)
            if count && explain { throw UsageError("--count and --explain cannot be given together") }
            if count && columns != nil { throw UsageError("--count prints no columns; give --count or --columns") }
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

        /// The names of `--columns A,B`: none empty or given twice.
        private static func columns(_ text: String) throws -> [String] {
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if names.contains("") { throw UsageError("--columns has an empty column name in '\(text)'") }
            if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
                throw UsageError("--columns names '\(twice)' twice")
            }
            return names
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
