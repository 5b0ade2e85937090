import Foundation

/// Writing to the terminal: plain lines, errors, and aligned tables.
enum Output {
    /// Writes `text` and a newline to stdout at once (unbuffered, so lines from a parent and
    /// a child process sharing a terminal come out in order).
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `strata: <text>` to stderr.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data("strata: \(text)\n".utf8))
    }

    /// Rows under a header, each column as wide as its widest cell; numbers align right.
    static func table(_ header: [String], _ rows: [[String]], indent: String = "  ") -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let numeric = header.indices.map { column in !rows.isEmpty && rows.allSatisfy { Double($0[column]) != nil } }
        func format(_ row: [String]) -> String {
            let cells = row.enumerated().map { column, cell -> String in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return numeric[column] ? pad + cell : cell + pad
            }
            let text = indent + cells.joined(separator: "  ")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        let rule = indent + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return [format(header), rule] + rows.map(format)
    }
}
