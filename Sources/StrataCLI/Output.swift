import Foundation

/// Writing to the terminal: plain lines, errors, JSON documents, and aligned tables and
/// wrapped text that fit the output width.
enum Output {
    /// The columns human output may use: the terminal's width when stdout is a terminal (at
    /// least 80); else `COLUMNS` when set (at least 40); else 80, so that piped and saved
    /// output looks the same everywhere.
    static let width: Int = {
        var size = winsize()
        if isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return max(80, Int(size.ws_col)) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) { return max(40, columns) }
        return 80
    }()

    /// Writes `text` and a newline to stdout at once (unbuffered, so lines from a parent and
    /// a child process sharing a terminal come out in order).
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `lines` to stdout in large pieces (a command printing a million lines makes
    /// a few hundred writes, not a million).
    static func lines(_ lines: [String]) {
        var chunk = ""
        for line in lines {
            chunk += line
            chunk += "\n"
            if chunk.utf8.count >= 1 << 16 {
                FileHandle.standardOutput.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        if !chunk.isEmpty { FileHandle.standardOutput.write(Data(chunk.utf8)) }
    }

    /// Writes `strata: <text>` to stderr.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data("strata: \(text)\n".utf8))
    }

    /// Writes `value` as one JSON document on one line, keys sorted: the `--json` form of
    /// every command that prints a document.
    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        line(String(decoding: data, as: UTF8.self))
    }

    /// Rows (under `header`, with a rule, when given), each column as wide as its widest
    /// cell, numbers aligned right. When the lines would be wider than `width`, columns are
    /// narrowed, their cells shortened with "…": the widest column of the first set in
    /// `shrinking` (every column when nil) loses a character at a time, down to six or its
    /// header's width, then those of the next set.
    static func table(_ header: [String]?, _ rows: [[String]], indent: String = "  ", width: Int = Output.width,
                      shrinking: [Set<Int>]? = nil) -> [String] {
        guard let columns = (header ?? rows.first)?.count, columns > 0 else { return [] }
        let all = (header.map { [$0] } ?? []) + rows
        var widths = (0..<columns).map { c in all.map { $0[c].count }.max() ?? 0 }
        let floor = (0..<columns).map { c in max(6, header?[c].count ?? 0) }
        for tier in shrinking ?? [Set(0..<columns)] {
            while indent.count + widths.reduce(0, +) + 2 * (columns - 1) > width {
                let candidates = tier.filter { widths[$0] > floor[$0] }
                guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
            }
        }
        let numeric = (0..<columns).map { c in !rows.isEmpty && rows.allSatisfy { Double($0[c]) != nil } }
        func format(_ row: [String]) -> String {
            let cells = row.enumerated().map { c, cell -> String in
                let text = cell.count <= widths[c] ? cell : String(cell.prefix(widths[c] - 1)) + "…"
                let pad = String(repeating: " ", count: widths[c] - text.count)
                return numeric[c] ? pad + text : text + pad
            }
            return trimmed(indent + cells.joined(separator: "  "))
        }
        var lines: [String] = []
        if let header {
            lines.append(format(header))
            lines.append(indent + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        }
        return lines + rows.map(format)
    }

    /// `text` broken at spaces into lines of at most `width` characters: the first starts
    /// with `first`, the others with `rest` (a word longer than a line stays whole).
    static func wrap(_ text: String, width: Int = Output.width, first: String = "", rest: String = "") -> [String] {
        wrap(words: text.split(separator: " ").map(String.init), width: width, first: first, rest: rest)
    }

    /// `words` joined by spaces into lines of at most `width` characters, as `wrap`.
    static func wrap(words: [String], width: Int = Output.width, first: String = "", rest: String = "") -> [String] {
        var lines: [String] = []
        var current = first
        var empty = true
        for word in words {
            if !empty && current.count + 1 + word.count > width {
                lines.append(current)
                current = rest
                empty = true
            }
            current += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(current)
        return lines
    }

    /// `n` with thousands separators: 1,000,000.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        var out = n < 0 ? "-" : ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    /// "1 object", "2 objects".
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(grouped(n)) \(n == 1 ? singular : plural ?? singular + "s")"
    }

    /// `text` without trailing spaces.
    private static func trimmed(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
