import Foundation

/// Lays out `rows` as text columns two spaces apart: the first column left-aligned (the row
/// names), the others right-aligned (the numbers). Every table the benchmark prints uses it.
func alignColumns(_ rows: [[String]]) -> String {
    let widths = (rows.first ?? []).indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
        row.enumerated().map { column, text in
            let pad = String(repeating: " ", count: widths[column] - text.count)
            return column == 0 ? text + pad : pad + text
        }.joined(separator: "  ")
    }.joined(separator: "\n")
}

/// An operations-per-second figure shortened for a table cell: `1.23M`, `45.6k`, `789.0`.
func formatRate(_ perSecond: Double) -> String {
    switch perSecond {
    case 1e6...: String(format: "%.2fM", perSecond / 1e6)
    case 1e3...: String(format: "%.1fk", perSecond / 1e3)
    default: String(format: "%.1f", perSecond)
    }
}

/// A duration for a table cell: milliseconds below one second, seconds above.
func formatDuration(_ seconds: Double) -> String {
    seconds < 1 ? String(format: "%.4g ms", seconds * 1000) : String(format: "%.3f s", seconds)
}
