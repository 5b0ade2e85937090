/// A command's arguments, split into positional words, flags and options with values.
///
/// Options start with `--`. A valued option takes the next word, or the text after `=` in
/// the same word (`--limit=3`); when repeated, each value is kept. A command may give a
/// valued option a short form (`-n 3` or `-n3` for `--limit 3`). `--` ends the options:
/// every later word is positional (a query argument may then start with `--`). Unknown
/// options, options without their value (`--limit`, `--limit=`) and flags given a value
/// (`--json=1`) are usage errors.
struct Arguments {
    /// The positional words, in order.
    private(set) var words: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Parses `arguments`, knowing the `flags` (no value) and `valued` options of a command,
    /// and the `short` forms of valued options (`["-n": "--limit"]`).
    init(_ arguments: [String], flags known: Set<String> = [], valued: Set<String> = [],
         short: [String: String] = [:]) throws {
        var rest = arguments[...]
        func add(_ option: String, _ value: String?) throws {
            guard let value, !value.isEmpty else { throw UsageError("\(option) needs a value") }
            values[option, default: []].append(value)
        }
        while let word = rest.popFirst() {
            let (name, attached) = Self.split(word, short: short)
            if word == "--" {
                words += rest
                break
            } else if known.contains(name) {
                guard attached == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            } else if let option = valued.contains(name) ? name : short[name] {
                try add(option, attached ?? rest.popFirst())
            } else if word.hasPrefix("--") {
                throw UsageError("unknown option '\(word)'")
            } else {
                words.append(word)
            }
        }
    }

    /// Whether `flag` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of `option` (the last one when repeated), or nil.
    func value(_ option: String) -> String? { values[option]?.last }

    /// Every value of a repeatable `option`, in order.
    func all(_ option: String) -> [String] { values[option] ?? [] }

    /// The value of `option` as a non-negative integer (a version), or nil.
    func number(_ option: String) throws -> UInt64? {
        guard let text = value(option) else { return nil }
        guard let n = UInt64(text) else { throw UsageError("\(option) needs a non-negative number, not '\(text)'") }
        return n
    }

    /// The value of `option` as a number of items (0 or more), or nil.
    func count(_ option: String) throws -> Int? {
        guard let text = value(option) else { return nil }
        guard let n = Int(text), n >= 0 else { throw UsageError("\(option) needs a number (0 or more), not '\(text)'") }
        return n
    }

    /// The positional words, which must number exactly `count`; else a usage error saying
    /// `expected`.
    func positional(_ count: Int, _ expected: String) throws -> [String] {
        guard words.count == count else { throw UsageError(expected) }
        return words
    }

    /// A word as an option name and the value attached to it: `--limit=3` and, for a short
    /// form, `-n3` give a value; other words none.
    private static func split(_ word: String, short: [String: String]) -> (String, String?) {
        if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
            return (String(word[..<equals]), String(word[word.index(after: equals)...]))
        }
        if let name = short.keys.first(where: { word.hasPrefix($0) && word.count > $0.count }) {
            return (name, String(word.dropFirst(name.count)))
        }
        return (word, nil)
    }

    /// Whether the words ask for help (`--help` or `-h` before any `--`).
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    }

    /// A positional word as a version number.
    static func version(_ text: String) throws -> UInt64 {
        guard let v = UInt64(text) else { throw UsageError("'\(text)' is not a version number") }
        return v
    }
}
