import Foundation
import Strata
import StrataQuery
import StrataStorage

/// `strata query FILE CLASS PREDICATE [ARGS...] [--sort KEY[,KEY DESC]] [--limit N] [--explain]
/// [--json]`: the objects of one class matching a query, read by the file's stored schema (no
/// model classes needed) on one read snapshot, held only while reading.
struct QueryCommand: Command {
    static let name = "query"
    static let usage = "query FILE CLASS PREDICATE [ARGS...] [--sort KEYS] [--limit N] [--explain] [--json]"
    static let summary = "print the objects matching a query, or its plan"
    static let help = """
        usage: strata query FILE CLASS PREDICATE [ARGS...] [--sort KEY[,KEY DESC]] [--limit N]
                            [--explain] [--json]

        Runs PREDICATE (the Strata query language, docs/QUERY-LANGUAGE.md, SORT/DISTINCT/
        LIMIT suffixes included) on the objects of CLASS and prints them as a table: every
        stored property, links as the target's primary key (or #objectKey), lists as their
        element count. The file is opened read-only; other processes may write meanwhile.

        ARGS fill %@ and $0, $1, ... in order: an integer, a decimal number, true, false,
        null, or a JSON array (for IN and BETWEEN) is that value; anything else is a string.

        options:
          --sort KEYS   sort by KEY[ ASC|DESC], comma-separated (after PREDICATE's suffixes)
          --limit N     at most N objects (after sorting)
          --explain     print the plan (index or scan, then filter, sort, limit) instead
          --json        one JSON object per line (JSON Lines), properties in schema order

        examples:
          strata query app.strata Dog 'age > 3 AND name BEGINSWITH[c] %@' r --sort 'age DESC,name'
          strata query app.strata Dog 'id IN %@' '[1, 2, 3]' --json
          strata query app.strata Dog "name == 'Rex'" --explain

        exit status: 0 success (also when nothing matches), 1 the file cannot be read,
        2 bad arguments, an unknown class or an invalid query
        """

    func run(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") { Output.line(Self.help); return 0 }
        let options = try Options(arguments)
        let file = try StorageFile.open(path: options.path, options: .init(readOnly: true))
        let text = options.queryText

        // Read everything on one snapshot, then print with no transaction open.
        let txn = try file.beginRead()
        let output: QueryOutput
        do {
            defer { txn.abort() }
            guard let table = try txn.table(options.className) else {
                Output.error("query: \(Self.unknownClass(options.className, in: Array(txn.schema.classes.keys), file: options.path))")
                return 2
            }
            let query: CompiledQuery
            do {
                query = try compileQuery(text, arguments: options.values, schema: table.schema,
                                         lookup: SchemaLookup(classes: txn.schema.classes))
            } catch {
                Output.error("query: \(error)")
                if let position = error.position {
                    FileHandle.standardError.write(Data((Self.pointer(text, at: position) + "\n").utf8))
                }
                return 2
            }
            if options.explain {
                output = .plan(StoredQuery.explain(query, className: table.name))
            } else {
                let keys = try StoredQuery.keys(query, in: table, txn)
                output = .objects(try QueryObjects(keys: keys, table: table, txn))
            }
        }

        switch output {
        case .plan(let plan):
            Output.line(plan)
        case .objects(let objects):
            if options.json {
                for line in objects.jsonLines() { Output.line(line) }
            } else {
                for line in objects.table(width: 80) { Output.line(line) }
                Output.line("(\(objects.rows.count) \(objects.rows.count == 1 ? "object" : "objects") of \(objects.className))")
            }
        }
        return 0
    }

    private enum QueryOutput {
        case plan(String)
        case objects(QueryObjects)
    }

    /// "unknown class 'Dgo' in FILE; did you mean 'Dog'?" (or the list of classes).
    static func unknownClass(_ name: String, in classes: [String], file: String) -> String {
        var text = "unknown class '\(name)' in '\(file)'"
        let sorted = classes.sorted()
        if let best = sorted.min(by: { editDistance($0.lowercased(), name.lowercased()) < editDistance($1.lowercased(), name.lowercased()) }),
           editDistance(best.lowercased(), name.lowercased()) <= max(2, name.count / 3) {
            text += "; did you mean '\(best)'?"
        } else {
            text += sorted.isEmpty ? "; the file has no classes" : "; its classes: " + sorted.joined(separator: ", ")
        }
        return text
    }

    /// The query text with a caret under character `position` (counted in characters).
    static func pointer(_ text: String, at position: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return "  " + flat + "\n  " + String(repeating: " ", count: min(position, flat.count)) + "^"
    }

    /// The edit distance of `a` and `b`, a swap of two neighbours counting as one edit.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
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
            var words: [String] = []
            var rest = arguments[...]
            while let word = rest.popFirst() {
                switch word {
                case "--explain": explain = true
                case "--json": json = true
                case "--sort":
                    guard let keys = rest.popFirst() else { throw UsageError("--sort needs KEY[,KEY DESC]") }
                    sort += try keys.split(separator: ",").map(Self.sortKey)
                case "--limit":
                    guard let text = rest.popFirst(), let n = Int(text), n >= 0 else {
                        throw UsageError("--limit needs a number of objects (0 or more)")
                    }
                    limit = n
                case "--":
                    words += rest
                    rest = []
                default:
                    if word.hasPrefix("--") { throw UsageError("unknown option \(word)") }
                    words.append(word)
                }
            }
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
