import Foundation
import Strata
import StrataStorage

/// `strata log FILE [--since VERSION] [--limit N] [--class C] [--process NAME] [--json]`:
/// the retained history, newest first, one line per version.
struct LogCommand: Command {
    static let name = "log"
    static let usage = "log FILE [options]"
    static let summary = "list the retained history, newest first"
    static let help = """
        usage: strata log FILE [--since VERSION] [--limit N] [--class CLASS] [--process NAME] [--json]

        Lists the retained history entries of FILE, newest first, one line per version:
        version, time (ISO-8601, UTC), process name and pid, description, and per class
        +inserted -deleted ~modified(properties); "cleared" when the class was emptied.

        options:
          --since VERSION   only versions above VERSION
          --limit N         at most N lines (after the other filters)
          --class CLASS     only commits that changed CLASS
          --process NAME    only commits by processes named NAME (or with pid NAME)
          --json            a JSON array of entries (docs/HISTORY.md)

        examples:
          strata log app.strata --limit 20
          strata log app.strata --class Dog --since 1200 --json

        exit status: 0 success, 1 the file cannot be read, 2 bad arguments
        """

    func run(_ arguments: [String]) throws -> Int32 {
        if HistoryCLI.wantsHelp(arguments) { Output.line(Self.help); return 0 }
        var options = HistoryCLI.Options(arguments, valued: ["--since", "--limit", "--class", "--process"])
        let file = try options.positional(1, "log takes one FILE")[0]
        let since = try options.number("--since")
        let limit = try options.number("--limit").map(Int.init)
        let className = options.values["--class"], process = options.values["--process"]
        return try HistoryCLI.reading(file, command: Self.name) { realm in
            let entries = try realm.history(since: since, limit: limit) { entry in
                if let className, entry.changes.classes[className].map({ !$0.isEmpty }) != true { return false }
                if let process, entry.processName != process, String(entry.pid) != process { return false }
                return true
            }
            if options.json {
                HistoryCLI.printJSON(entries.map(HistoryJSON.Summary.init))
            } else {
                for line in Self.lines(entries) { Output.line(line) }
            }
            return 0
        }
    }

    /// One aligned line per entry.
    static func lines(_ entries: [Realm.HistoryEntry]) -> [String] {
        let versionWidth = entries.map { String($0.version).count }.max() ?? 0
        let processes = entries.map { "\($0.processName)[\($0.pid)]" }
        let processWidth = processes.map(\.count).max() ?? 0
        return zip(entries, processes).map { entry, process in
            let version = String(entry.version)
            var line = String(repeating: " ", count: versionWidth - version.count) + version
            line += "  " + HistoryCLI.time(entry.date)
            line += "  " + process.padding(toLength: processWidth, withPad: " ", startingAt: 0)
            if let d = entry.description { line += "  \"\(d)\"" }
            line += "  " + summary(entry.classes)
            return line
        }
    }

    /// `Dog +3 -1 ~2(name,age); Cat cleared +1`, or `(no object changes)`.
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
}

/// What `log`, `show` and `diff` share: argument parsing, opening the file, output forms.
enum HistoryCLI {
    static func wantsHelp(_ arguments: [String]) -> Bool {
        arguments.contains("--help") || arguments.contains("-h")
    }

    /// Positional words, `--flag VALUE` options and `--json`.
    struct Options {
        var words: [String] = []
        var values: [String: String] = [:]
        var json = false
        var problem: String?

        init(_ arguments: [String], valued: Set<String>) {
            var i = 0
            while i < arguments.count {
                let a = arguments[i]
                if a == "--json" {
                    json = true
                } else if valued.contains(a) {
                    guard i + 1 < arguments.count else { problem = "\(a) needs a value"; break }
                    values[a] = arguments[i + 1]
                    i += 1
                } else if a.hasPrefix("--") {
                    problem = "unknown option '\(a)'"
                    break
                } else {
                    words.append(a)
                }
                i += 1
            }
        }

        /// The positional words, which must number `count`.
        func positional(_ count: Int, _ message: String) throws -> [String] {
            if let problem { throw UsageError(problem) }
            guard words.count == count else { throw UsageError(message) }
            return words
        }

        /// The value of `option` as a version or count.
        func number(_ option: String) throws -> UInt64? {
            guard let text = values[option] else { return nil }
            guard let n = UInt64(text) else { throw UsageError("\(option) needs a non-negative number, not '\(text)'") }
            return n
        }
    }

    /// A version given as a positional word.
    static func version(_ text: String) throws -> UInt64 {
        guard let v = UInt64(text) else { throw UsageError("'\(text)' is not a version number") }
        return v
    }

    /// Opens `path` read-only, runs `body` on its newest snapshot and releases the snapshot;
    /// a file that cannot be opened or read is reported on stderr with exit status 1.
    static func reading(_ path: String, command: String, _ body: (Realm) throws -> Int32) throws -> Int32 {
        do {
            let url = URL(fileURLWithPath: path)
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, readOnly: true, objectTypes: []))
            defer { realm.invalidate() }
            return try body(realm)
        } catch let error as Realm.Error {
            Output.error("\(command): \(error.localizedDescription)")
            return 1
        }
    }

    /// The retained versions, as text for error messages.
    static func retained(_ realm: Realm) -> String {
        realm.retainedHistory.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "none"
    }

    /// ISO-8601 in UTC, to the second.
    static func time(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    /// ISO-8601 in UTC, to the millisecond (for JSON).
    static func preciseTime(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }

    static func printJSON<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        Output.line(String(decoding: data, as: UTF8.self))
    }

    /// The object lines of one class's changes (`+`, `-`, `~` with property names).
    static func objectLines(_ c: Realm.HistoryEntry.ClassChanges) -> [String] {
        var head = [String]()
        if c.cleared { head.append("cleared") }
        if !c.inserted.isEmpty { head.append("\(c.inserted.count) inserted") }
        if !c.deleted.isEmpty { head.append("\(c.deleted.count) deleted") }
        if !c.modified.isEmpty { head.append("\(c.modified.count) modified") }
        var lines = ["\(c.className): " + head.joined(separator: ", ")]
        lines += c.inserted.map { "  + \($0)" }
        lines += c.deleted.map { "  - \($0)" }
        lines += c.modified.map { "  ~ \($0.object)  \($0.properties.joined(separator: ", "))" }
        return lines
    }
}

/// The `--json` shapes of `log`, `show` and `diff` (documented in docs/HISTORY.md).
enum HistoryJSON {
    /// An object: `{"key": objectKey, "primaryKey": value}`; `primaryKey` is absent when the
    /// class has none or it is unknown, JSON null for a nil key; `properties` only for
    /// modified objects.
    struct Object: Encodable {
        let id: Realm.HistoryEntry.ObjectID
        let properties: [String]?

        enum Keys: String, CodingKey { case key, primaryKey, properties }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id.objectKey, forKey: .key)
            switch id.primaryKey {
            case nil: break
            case .int(let v)?: try c.encode(v, forKey: .primaryKey)
            case .string(let v)?: try c.encode(v, forKey: .primaryKey)
            case .uuid(let v)?: try c.encode(v.uuidString, forKey: .primaryKey)
            case .null?: try c.encodeNil(forKey: .primaryKey)
            }
            try c.encodeIfPresent(properties, forKey: .properties)
        }
    }

    /// One class in full: `{"name", "cleared", "inserted": [Object], "deleted": [Object],
    /// "modified": [Object with properties]}`.
    struct ClassDetail: Encodable {
        let name: String
        let cleared: Bool
        let inserted: [Object]
        let deleted: [Object]
        let modified: [Object]

        init(_ c: Realm.HistoryEntry.ClassChanges) {
            name = c.className
            cleared = c.cleared
            inserted = c.inserted.map { Object(id: $0, properties: nil) }
            deleted = c.deleted.map { Object(id: $0, properties: nil) }
            modified = c.modified.map { Object(id: $0.object, properties: $0.properties) }
        }
    }

    /// One class in a log line: counts and the modified property names.
    struct ClassSummary: Encodable {
        let name: String
        let cleared: Bool
        let inserted: Int
        let deleted: Int
        let modified: Int
        let properties: [String]

        init(_ c: Realm.HistoryEntry.ClassChanges) {
            name = c.className
            cleared = c.cleared
            inserted = c.inserted.count
            deleted = c.deleted.count
            modified = c.modified.count
            properties = c.modifiedProperties
        }
    }

    /// An entry's header fields and its classes, as summaries (`log`) or in full (`show`).
    struct Entry<Class: Encodable>: Encodable {
        let entry: Realm.HistoryEntry
        let classes: [Class]

        enum Keys: String, CodingKey { case version, time, timestamp, pid, process, description, classes }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(entry.version, forKey: .version)
            try c.encode(HistoryCLI.preciseTime(entry.date), forKey: .time)
            try c.encode(entry.date.timeIntervalSince1970, forKey: .timestamp)
            try c.encode(entry.pid, forKey: .pid)
            try c.encode(entry.processName, forKey: .process)
            if let d = entry.description { try c.encode(d, forKey: .description) } else { try c.encodeNil(forKey: .description) }
            try c.encode(classes, forKey: .classes)
        }
    }

    typealias Summary = Entry<ClassSummary>
    typealias Detail = Entry<ClassDetail>
}

extension HistoryJSON.Entry where Class == HistoryJSON.ClassSummary {
    init(_ entry: Realm.HistoryEntry) { self.init(entry: entry, classes: entry.classes.map(HistoryJSON.ClassSummary.init)) }
}

extension HistoryJSON.Entry where Class == HistoryJSON.ClassDetail {
    init(_ entry: Realm.HistoryEntry) { self.init(entry: entry, classes: entry.classes.map(HistoryJSON.ClassDetail.init)) }
}
