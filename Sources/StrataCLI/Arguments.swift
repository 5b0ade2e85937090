/// A command's arguments, split into positional words, flags and options with values.
///
/// Options start with `--`. A valued option takes the next word; when repeated, each value
/// is kept. `--` ends the options: every later word is positional (a query argument may
/// then start with `--`). Unknown options and options without their value are usage errors.
struct Arguments {
    /// The positional words, in order.
    private(set) var words: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Parses `arguments`, knowing the `flags` (no value) and `valued` options of a command.
    init(_ arguments: [String], flags known: Set<String> = [], valued: Set<String> = []) throws {
        var rest = arguments[...]
        while let word = rest.popFirst() {
            if word == "--" {
                words += rest
                break
            } else if known.contains(word) {
                flags.insert(word)
            } else if valued.contains(word) {
                guard let value = rest.popFirst() else { throw UsageError("\(word) needs a value") }
                values[word, default: []].append(value)
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

    /// The value of `option` as a non-negative integer (a version or a count), or nil.
    func number(_ option: String) throws -> UInt64? {
        guard let text = value(option) else { return nil }
        guard let n = UInt64(text) else { throw UsageError("\(option) needs a non-negative number, not '\(text)'") }
        return n
    }

    /// The positional words, which must number exactly `count`; else a usage error saying
    /// `expected`.
    func positional(_ count: Int, _ expected: String) throws -> [String] {
        guard words.count == count else { throw UsageError(expected) }
        return words
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
