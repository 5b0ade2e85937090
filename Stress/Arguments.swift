import Foundation

/// `--name value` options after the role name, with typed look-ups that exit with a usage
/// message when an option is missing or malformed.
struct Arguments {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `--name value` pairs; `--name` followed by another option (or nothing) is a flag.
    init(_ words: ArraySlice<String>) {
        var rest = words[...]
        while let word = rest.popFirst() {
            guard word.hasPrefix("--") else { fail("unexpected argument '\(word)'") }
            let name = String(word.dropFirst(2))
            if let next = rest.first, !next.hasPrefix("--") {
                values[name] = next
                rest.removeFirst()
            } else {
                flags.insert(name)
            }
        }
    }

    /// The string value of `--name`, or `fallback`; exits if both are missing.
    func string(_ name: String, default fallback: String? = nil) -> String {
        guard let value = values[name] ?? fallback else { fail("missing --\(name)") }
        return value
    }

    /// The integer value of `--name`, or `fallback`; exits if missing or not a number.
    func int(_ name: String, default fallback: Int? = nil) -> Int {
        if let text = values[name] {
            guard let n = Int(text) else { fail("--\(name) needs a number, not '\(text)'") }
            return n
        }
        guard let fallback else { fail("missing --\(name)") }
        return fallback
    }

    /// The number value of `--name`, or `fallback`; exits if missing or not a number.
    func double(_ name: String, default fallback: Double) -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text) else { fail("--\(name) needs a number, not '\(text)'") }
        return value
    }

    /// Whether `--name` was given as a flag.
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// Prints `message` and the usage to stderr and exits with status 2.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("strata-stress: \(message)\n\n\(usage)".utf8))
    exit(2)
}

/// Writes one line to stdout at once (unbuffered, so a parent reading the pipe sees it now).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
